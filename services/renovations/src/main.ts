import { createLogger, openBus } from '@renopath/platform/service/adapters.ts';
import { startMetricsServer } from '@renopath/platform/observability/metrics-server.ts';
import { startTracing, stopTracing } from '@renopath/platform/observability/tracing.ts';
import { checkedOrExit, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadRenovationsConfig } from './config.ts';
import { startRenovationsContext } from './start.ts';

/** The renovations service as its own process (distributed mode): it serves the bus, not HTTP. */
const config = checkedOrExit('renovations', () => loadRenovationsConfig());
startTracing('renovations');
const log = createLogger(config.platform.logLevel, 'renovations');
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'renovations'), log);
const renovations = await startRenovationsContext(config, bus, log);
log.info('renovations service started');

// RENOPATH_METRICS_PORT: this process's own /metrics (distributed mode: each process serves its own).
const metrics = config.platform.metricsPort ? await startMetricsServer(config.platform.metricsPort) : null;

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await metrics?.close();
  await stopTracing();
  await renovations.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
