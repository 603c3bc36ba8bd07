import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadRenovationsConfig } from './config.ts';
import { startRenovationsContext } from './start.ts';

/** The renovations service as its own process (distributed mode): it serves the bus, not HTTP. */
const config = loadRenovationsConfig();
const log = createLogger(config.platform.logLevel, 'renovations');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'renovations', log), log);
const renovations = await startRenovationsContext(config, bus, log);
log.info('renovations service started');
guard.started();

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await renovations.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
