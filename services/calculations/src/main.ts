import { checkedOrExit, keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadCalculationsConfig } from './config.ts';

/**
 * The calculations service as its own process (distributed mode): it serves the bus, not HTTP.
 * RENOPATH_CALCULATIONS_ROLE=worker starts only workers; run as many of those as the load needs.
 */
const config = checkedOrExit('calculations', () => loadCalculationsConfig());
// What opens stores and the bus is loaded once the settings are known to be right: a wrong one is
// reported within a second, not after seconds of imports.
const { createLogger, openBus } = await import('@renopath/platform/service/adapters.ts');
const { startMetricsServer } = await import('@renopath/platform/observability/metrics-server.ts');
const { startTracing, stopTracing } = await import('@renopath/platform/observability/tracing.ts');
const { startCalculationsContext } = await import('./start.ts');
const { busWebhookSigner } = await import('./webhooks/job-webhooks.ts');
startTracing('calculations');
const log = createLogger(config.platform.logLevel, 'calculations');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, `calculations-${config.role}`, log), log);
const calculations = await startCalculationsContext(config, bus, log, { signer: busWebhookSigner(bus) });
log.info({ role: config.role, workers: config.workers }, 'calculations service started');
guard.started();

// RENOPATH_METRICS_PORT: this process's own /metrics (distributed mode: each process serves its own).
const metrics = config.platform.metricsPort
  ? await startMetricsServer(config.platform.metricsPort, [], { overload: config.platform.overload })
  : null;

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await metrics?.close();
  await stopTracing();
  await calculations.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
