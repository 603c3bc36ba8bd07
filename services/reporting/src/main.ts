import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadReportingConfig } from './config.ts';
import { startReportingContext } from './start.ts';

/**
 * The reporting service as its own process (distributed mode): it serves the bus, not HTTP. Its blob
 * store must be the gateway's and estates' (RENOPATH_BLOB_STORE: a shared volume for `fs`, or GridFS).
 */
const config = loadReportingConfig();
const log = createLogger(config.platform.logLevel, 'reporting');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'reporting', log), log);
const reporting = await startReportingContext(config, bus, log);
log.info('reporting service started');
guard.started();

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await reporting.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
