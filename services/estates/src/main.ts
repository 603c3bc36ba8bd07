import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadEstatesConfig } from './config.ts';
import { startEstatesContext } from './start.ts';

/**
 * The estates service as its own process (distributed mode): it serves the bus, not HTTP. Its blob
 * store must be the gateway's (RENOPATH_BLOB_STORE: a shared volume for `fs`, or GridFS).
 */
const config = loadEstatesConfig();
const log = createLogger(config.platform.logLevel, 'estates');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'estates', log), log);
const estates = await startEstatesContext(config, bus, log);
log.info('estates service started');
guard.started();

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await estates.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
