import { checkedOrExit, keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadEstatesConfig } from './config.ts';

/**
 * The estates service as its own process (distributed mode): it serves the bus, not HTTP. Its blob
 * store must be the gateway's (RENOPATH_BLOB_STORE: a shared volume for `fs`, or GridFS).
 */
const config = checkedOrExit('estates', () => loadEstatesConfig());
// What opens stores and the bus is loaded once the settings are known to be right: a wrong one is
// reported within a second, not after seconds of imports.
const { createLogger, openBus } = await import('@renopath/platform/service/adapters.ts');
const { startMetricsServer } = await import('@renopath/platform/observability/metrics-server.ts');
const { startTracing, stopTracing } = await import('@renopath/platform/observability/tracing.ts');
const { startEstatesContext } = await import('./start.ts');
startTracing('estates');
const log = createLogger(config.platform.logLevel, 'estates');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'estates', log), log);
const estates = await startEstatesContext(config, bus, log);
log.info('estates service started');
guard.started();

// RENOPATH_METRICS_PORT: this process's own /metrics (distributed mode: each process serves its own).
const metrics = config.platform.metricsPort
  ? await startMetricsServer(config.platform.metricsPort, [], { overload: config.platform.overload })
  : null;

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await metrics?.close();
  await stopTracing();
  await estates.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
