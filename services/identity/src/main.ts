import { checkedOrExit, keepRunningOnUncaughtErrors, untilAvailable } from '@renopath/platform/service/start-up.ts';
import { loadIdentityConfig } from './config.ts';

/** The identity service as its own process (distributed mode): it serves the bus, not HTTP. */
const config = checkedOrExit('identity', () => loadIdentityConfig());
// What opens stores and the bus is loaded once the settings are known to be right: a wrong one is
// reported within a second, not after seconds of imports.
const { createLogger, openBus } = await import('@renopath/platform/service/adapters.ts');
const { startMetricsServer } = await import('@renopath/platform/observability/metrics-server.ts');
const { startTracing, stopTracing } = await import('@renopath/platform/observability/tracing.ts');
const { startIdentityContext } = await import('./start.ts');
startTracing('identity');
const log = createLogger(config.platform.logLevel, 'identity');
const guard = keepRunningOnUncaughtErrors(log);
// The bus may come up after this process: wait for it rather than exit.
const bus = await untilAvailable('the bus', () => openBus(config.platform, 'identity', log), log);
// The bus is served only once the first-start client exists: a gateway that gets an answer can also get a token.
const identity = await startIdentityContext(config, bus, log, { deferServe: true });
if (config.bootstrap.client_id && config.bootstrap.client_secret) {
  const created = await identity.service.bootstrapIfEmpty(config.bootstrap);
  if (created) log.info({ client_id: created.client_id, organization_id: created.organization_id }, 'bootstrap API client created');
}
await identity.service.serve();
log.info('identity service started');
guard.started();

// RENOPATH_METRICS_PORT: this process's own /metrics (distributed mode: each process serves its own).
const metrics = config.platform.metricsPort
  ? await startMetricsServer(config.platform.metricsPort, [], { overload: config.platform.overload })
  : null;

const shutdown = async (signal: string) => {
  log.info({ signal }, 'shutting down');
  await metrics?.close();
  await stopTracing();
  await identity.close();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
