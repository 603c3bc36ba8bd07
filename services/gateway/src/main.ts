import { loadPlatformConfig } from '@renopath/platform/service/platform-env.ts';
import { checkedOrExit, keepRunningOnUncaughtErrors } from '@renopath/platform/service/start-up.ts';
import { loadGatewayConfig } from './config.ts';

/** The gateway as its own process (distributed mode): HTTP in front, the bus behind. */
const { config, platform } = checkedOrExit('gateway', () => ({ config: loadGatewayConfig(), platform: loadPlatformConfig(process.env) }));
// What opens stores and the bus is loaded once the settings are known to be right: a wrong one is
// reported within a second, not after seconds of imports.
const { createLogger, openBlobStore, openBus } = await import('@renopath/platform/service/adapters.ts');
const { startMetricsServer } = await import('@renopath/platform/observability/metrics-server.ts');
const { startTracing, stopTracing } = await import('@renopath/platform/observability/tracing.ts');
const { BusUnavailableError } = await import('@renopath/platform');
const { buildGateway } = await import('./app.ts');
const { eventsOf } = await import('./asyncapi/document.ts');
const { openGatewayStorage } = await import('./storage.ts');
startTracing('gateway');
const logger = createLogger(config.logLevel, 'gateway');
const guard = keepRunningOnUncaughtErrors(logger);
const bus = await openBus(platform, 'gateway');
// The blob store the estates service reads uploads from: it must be the same store (a shared volume for `fs`, or GridFS).
const blobs = await openBlobStore(platform);
const { downloadSecret, idempotencyStore } = await openGatewayStorage(config);
const gateway = buildGateway({
  bus,
  config,
  logger,
  blobs,
  downloadSecret,
  events: eventsOf(platform),
  idempotencyStore,
  overload: platform.overload,
});
// Processes start in no set order: listen at once (/health answers, /ready says 503 until it holds identity's
// key set), and load identity's keys and revocations as soon as it is there, however long that takes.
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

// RENOPATH_METRICS_PORT: this process's own /metrics (distributed mode: each process serves its own).
const metrics = platform.metricsPort ? await startMetricsServer(platform.metricsPort, [], { overload: platform.overload }) : null;

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  // Not ready from now on (Kubernetes stops routing here), while the requests under way finish.
  gateway.drain();
  await gateway.app.close();
  await idempotencyStore.close();
  await blobs.close();
  await metrics?.close();
  await stopTracing();
  await bus.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
