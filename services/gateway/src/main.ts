import { PlatformEnv, createLogger, openBlobStore, openBus, platformConfig } from '@renopath/platform/service/adapters.ts';
import { BusUnavailableError } from '@renopath/platform';
import { keepRunningOnUncaughtErrors } from '@renopath/platform/service/start-up.ts';
import { buildGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { calculationsRoutes } from './routes/calculations.routes.ts';
import { renovationsRoutes } from './routes/renovations.routes.ts';
import { reportingRoutes } from './routes/reporting.routes.ts';
import { openGatewayStorage } from './storage.ts';

/** The gateway as its own process (distributed mode): HTTP in front, the bus behind. */
const config = loadGatewayConfig();
const platform = platformConfig(PlatformEnv.parse(process.env));
const logger = createLogger(config.logLevel, 'gateway');
const guard = keepRunningOnUncaughtErrors(logger);
const bus = await openBus(platform, 'gateway');
// The blob store the estates service reads uploads from: it must be the same store (a shared volume for `fs`, or GridFS).
const blobs = await openBlobStore(platform);
const { downloadSecret, idempotencyStore } = await openGatewayStorage(config);
const gateway = buildGateway({ bus, config, logger, blobs, downloadSecret, idempotencyStore, routes: [...renovationsRoutes, ...calculationsRoutes, ...reportingRoutes] });
// Processes start in no set order: listen at once (/health answers, /ready says 503 until identity and every
// context answer), and load identity's keys and revocations as soon as it is there, however long that takes.
await gateway.app.listen({ port: config.port, host: config.host });
guard.started();
void (async () => {
  for (let attempt = 1; ; attempt++) {
    try {
      await gateway.start();
      return;
    } catch (err) {
      if (!(err instanceof BusUnavailableError)) {
        logger.error({ err }, 'could not start following identity');
      } else if (attempt === 1 || attempt % 30 === 0) {
        logger.warn({ err: err.message, attempt }, 'identity is not reachable yet; waiting for it');
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** Math.min(attempt, 6))));
    }
  }
})();

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await gateway.app.close();
  await idempotencyStore.close();
  await blobs.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
