import { loadEstatesConfig } from '@renopath/estates/config.ts';
import { startEstatesContext } from '@renopath/estates/start.ts';
import { loadIdentityConfig } from '@renopath/identity/config.ts';
import { startIdentityContext } from '@renopath/identity/start.ts';
import { loadCalculationsConfig } from '@renopath/calculations/config.ts';
import { startCalculationsContext } from '@renopath/calculations/start.ts';
import { localWebhookSigner } from '@renopath/calculations/webhooks/job-webhooks.ts';
import { loadRenovationsConfig } from '@renopath/renovations/config.ts';
import { startRenovationsContext } from '@renopath/renovations/start.ts';
import { loadReportingConfig } from '@renopath/reporting/config.ts';
import { startReportingContext } from '@renopath/reporting/start.ts';
import { createLogger, openBlobStore, PlatformEnv, platformConfig } from '@renopath/platform/service/adapters.ts';
import { createMemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { calculationsRoutes } from './routes/calculations.routes.ts';
import { renovationsRoutes } from './routes/renovations.routes.ts';
import { reportingRoutes } from './routes/reporting.routes.ts';
import { openGatewayStorage } from './storage.ts';

/**
 * Embedded mode (`npm start`): the gateway and every service in one process, SQLite files under
 * RENOPATH_DATA_DIR and an in-process bus. No server to install.
 */
export interface EmbeddedOptions {
  /** Copy every in-process request and reply through JSON, as NATS would (tests turn it on). */
  wireFidelity?: boolean;
}

export async function startEmbedded(env: NodeJS.ProcessEnv = process.env, options: EmbeddedOptions = {}) {
  const gatewayConfig = loadGatewayConfig(env);
  const identityConfig = loadIdentityConfig(env);
  const estatesConfig = loadEstatesConfig(env);
  const platform = platformConfig(PlatformEnv.parse(env));
  const logger = createLogger(gatewayConfig.logLevel, 'renopath');
  const bus = createMemoryBus({ copyRequests: options.wireFidelity ?? false });
  // One blob store for the gateway (uploads in, signed downloads out) and the estates service.
  const blobs = await openBlobStore(platform);
  const identity = await startIdentityContext(identityConfig, bus, logger.child({ context: 'identity' }));
  const estates = await startEstatesContext(estatesConfig, bus, logger.child({ context: 'estates' }), blobs);
  // Before the bootstrap: its copy of identity and the estates follows their events from the first one.
  const renovations = await startRenovationsContext(loadRenovationsConfig(env), bus, logger.child({ context: 'renovations' }));
  // Webhooks are signed with identity's secret in this process; the secret never crosses the bus.
  const calculations = await startCalculationsContext(loadCalculationsConfig(env), bus, logger.child({ context: 'calculations' }), {
    signer: localWebhookSigner((client_id) => identity.service.webhookSecret(client_id)),
  });
  // Reports read estates' media and are served by the gateway: the same blob store.
  const reporting = await startReportingContext(loadReportingConfig(env), bus, logger.child({ context: 'reporting' }), blobs);
  const bootstrap = await identity.service.bootstrapIfEmpty(identityConfig.bootstrap);
  const { downloadSecret, idempotencyStore } = await openGatewayStorage(gatewayConfig);
  // The idempotency records are in this process's own data dir: a claim left unfinished there is a dead process's.
  const gateway = buildGateway({ bus, config: gatewayConfig, logger, blobs, downloadSecret, idempotencyStore, idempotencyExclusive: true, routes: [...renovationsRoutes, ...calculationsRoutes, ...reportingRoutes] });
  await gateway.start();
  return {
    gateway,
    identity,
    estates,
    renovations,
    calculations,
    reporting,
    bus,
    blobs,
    bootstrap,
    config: gatewayConfig,
    async close() {
      await gateway.app.close();
      await idempotencyStore.close();
      await reporting.close();
      await calculations.close();
      await renovations.close();
      await estates.close();
      await identity.close();
      await blobs.close();
      await bus.close();
    },
  };
}
