import { loadIdentityConfig } from '@renopath/identity/config.ts';
import { startIdentityContext } from '@renopath/identity/start.ts';
import { createLogger } from '@renopath/platform/service/adapters.ts';
import { createMemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';

/**
 * Embedded mode (`npm start`): the gateway and every service in one process, SQLite files under
 * RENOPATH_DATA_DIR and an in-process bus. No server to install.
 */
export async function startEmbedded(env: NodeJS.ProcessEnv = process.env) {
  const gatewayConfig = loadGatewayConfig(env);
  const identityConfig = loadIdentityConfig(env);
  const logger = createLogger(gatewayConfig.logLevel, 'renopath');
  const bus = createMemoryBus();
  const identity = await startIdentityContext(identityConfig, bus, logger.child({ context: 'identity' }));
  const bootstrap = await identity.service.bootstrapIfEmpty(identityConfig.bootstrap);
  const gateway = buildGateway({ bus, config: gatewayConfig, logger });
  await gateway.start();
  return {
    gateway,
    identity,
    bus,
    bootstrap,
    config: gatewayConfig,
    async close() {
      await gateway.app.close();
      await identity.close();
      await bus.close();
    },
  };
}

