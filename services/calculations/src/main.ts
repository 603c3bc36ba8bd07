import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadCalculationsConfig } from './config.ts';
import { startCalculationsContext } from './start.ts';
import { busWebhookSigner } from './webhooks/job-webhooks.ts';

/**
 * The calculations service as its own process (distributed mode): it serves the bus, not HTTP.
 * RENOPATH_CALCULATIONS_ROLE=worker starts only workers; run as many of those as the load needs.
 */
const config = loadCalculationsConfig();
const log = createLogger(config.platform.logLevel, 'calculations');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, `calculations-${config.role}`, log), log);
const calculations = await startCalculationsContext(config, bus, log, { signer: busWebhookSigner(bus) });
log.info({ role: config.role, workers: config.workers }, 'calculations service started');
guard.started();

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await calculations.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
