import type { Logger } from 'pino';
import type { Bus } from '../ports/bus.ts';
import type { PlatformConfig } from './platform-env.ts';
import { checkedOrExit, keepRunningOnUncaughtErrors, untilAvailable } from './start-up.ts';

export interface ContextProcess<C> {
  /** The context's name: its logger's, its traces' and (unless `busName` says otherwise) its bus connection's. */
  name: string;
  /** Reads and checks the context's settings; a wrong one ends the process with the reason. */
  loadConfig: () => C;
  /** The bus connection's name when a process of the context has several roles (calculations' worker). */
  busName?: (config: C) => string;
  /** Starts the context on the bus; what it returns is closed on SIGTERM or SIGINT. */
  start: (config: C, bus: Bus, log: Logger) => Promise<{ close(): Promise<void> }>;
  /** What the `started` log line carries besides the message. */
  startedFields?: (config: C) => Record<string, unknown>;
}

/**
 * A context as its own process (distributed mode): it serves the bus, not HTTP. Settings are checked
 * first, and what opens stores and the bus is loaded only then: a wrong setting is reported within a
 * second, not after seconds of imports. The bus may come up after this process: it waits for it rather
 * than exit. RENOPATH_METRICS_PORT serves this process's own /metrics.
 */
export async function runContextProcess<C extends { platform: PlatformConfig }>(context: ContextProcess<C>): Promise<void> {
  const { name } = context;
  const config = checkedOrExit(name, context.loadConfig);
  const { createLogger, openBus } = await import('./adapters.ts');
  const { startMetricsServer } = await import('../observability/metrics-server.ts');
  const { startTracing, stopTracing } = await import('../observability/tracing.ts');
  startTracing(name);
  const log = createLogger(config.platform.logLevel, name);
  const guard = keepRunningOnUncaughtErrors(log);
  const busName = context.busName?.(config) ?? name;
  const bus = await untilAvailable('the bus', () => openBus(config.platform, busName, log), log);
  const running = await context.start(config, bus, log);
  log.info(context.startedFields?.(config) ?? {}, `${name} service started`);
  guard.started();

  const { metricsPort, overload } = config.platform;
  const metrics = metricsPort ? await startMetricsServer(metricsPort, [], { overload }) : null;

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await metrics?.close();
    await stopTracing();
    await running.close();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
