import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import { loadCalculationsConfig } from '@renopath/calculations/config.ts';
import { startCalculationsContext } from '@renopath/calculations/start.ts';
import { busWebhookSigner, type WebhookSigner } from '@renopath/calculations/webhooks/job-webhooks.ts';
import { loadEstatesConfig } from '@renopath/estates/config.ts';
import { startEstatesContext } from '@renopath/estates/start.ts';
import { loadRenovationsConfig } from '@renopath/renovations/config.ts';
import { startRenovationsContext } from '@renopath/renovations/start.ts';
import { loadReportingConfig } from '@renopath/reporting/config.ts';
import { startReportingContext } from '@renopath/reporting/start.ts';
import { createLogger } from '@renopath/platform/service/adapters.ts';
import { loadPlatformConfig } from '@renopath/platform/service/platform-env.ts';
import { ThreadBus } from '@renopath/platform/memory/thread-bus.ts';
import { observedBus } from '@renopath/platform/observability/instrument.ts';
import { metricsOfThisThread, type MetricsJson } from '@renopath/platform/observability/metrics.ts';
import { loopLoadMeter, type LoopLoad } from '@renopath/platform/observability/overload-limits.ts';
import { startTracing, stopTracing } from '@renopath/platform/observability/tracing.ts';
import type { BlobStore, Bus } from '@renopath/platform';
import type { Logger } from 'pino';
import type { ThreadableContext } from './config-threads.ts';

export { THREADABLE_CONTEXTS, type ThreadableContext } from './config-threads.ts';

/** What the main thread hands a context thread (`workerData`). */
export interface ContextThreadData {
  context: ThreadableContext;
  env: Record<string, string | undefined>;
  /** This thread's side of the bus (thread-bus.ts), transferred. */
  bus: MessagePort;
}

/** What a context thread tells the main thread on its `parentPort`. */
export type ContextThreadReport =
  | { ready: true }
  | { stopped: true }
  | { failed: string }
  | { loopActiveMs: number; cpuMs: number | null }
  | { metrics: MetricsJson }
  | { load: LoopLoad };
/** What the main thread tells a context thread. */
export type ContextThreadCommand = 'stop' | 'mark' | 'metrics' | 'load';

/**
 * One context in its own thread, as its own process would run it in distributed mode: its storage
 * and handlers here, the bus in the main thread. Answers `stop` by closing the context, then its bus,
 * `mark` with its event loop's active time and its CPU time since the previous mark, and `load` with
 * its loop's delay and utilisation since the previous `load` (the gateway's load shedding reads them).
 */
export async function runContextThread(data: ContextThreadData, control: MessagePort): Promise<void> {
  const { context, env } = data;
  const platform = loadPlatformConfig(env);
  startTracing(`renopath-${context}`, { env });
  const log = createLogger(platform.logLevel, 'renopath').child({ context });
  const threadBus = new ThreadBus(data.bus, { onHandlerError: (err, subject) => log.error({ err, subject }, 'request handler failed') });
  const bus = observedBus(threadBus);
  let running: { close(): Promise<void> };
  try {
    running = await startContext(context, env, bus, log);
  } catch (error) {
    control.postMessage({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ContextThreadReport);
    await bus.close();
    return;
  }
  let mark = performance.eventLoopUtilization();
  let cpuMark = threadCpuMs();
  const loop = loopLoadMeter();
  control.on('message', async (command: ContextThreadCommand) => {
    if (command === 'load') {
      control.postMessage({ load: loop.read() } satisfies ContextThreadReport);
      return;
    }
    if (command === 'metrics') {
      // This thread's registry, for the main thread's /metrics.
      control.postMessage({ metrics: await metricsOfThisThread() } satisfies ContextThreadReport);
      return;
    }
    if (command === 'mark') {
      // For the bench: how long this thread's loop was busy since the last mark, and its CPU time.
      const now = performance.eventLoopUtilization();
      const cpu = threadCpuMs();
      control.postMessage({
        loopActiveMs: performance.eventLoopUtilization(now, mark).active,
        cpuMs: cpu === null || cpuMark === null ? null : cpu - cpuMark,
      } satisfies ContextThreadReport);
      mark = now;
      cpuMark = cpu;
      return;
    }
    loop.stop();
    try {
      await running.close();
    } finally {
      await stopTracing();
      await bus.close();
      control.postMessage({ stopped: true } satisfies ContextThreadReport);
    }
  });
  control.postMessage({ ready: true } satisfies ContextThreadReport);
}

/** What only the main thread holds, and a context started there is given. */
export interface MainThreadShares {
  /** The gateway's blob store (reports and media are served from it); a thread opens its own handle. */
  blobs?: BlobStore;
  /** Identity's signer in this thread; without it, identity signs the webhooks over the bus, as in distributed mode. */
  signer?: WebhookSigner;
}

type Starter = (env: NodeJS.ProcessEnv, bus: Bus, log: Logger, shares: MainThreadShares) => Promise<{ close(): Promise<void> }>;

/** How embedded mode starts each context, on the main thread or in a thread of its own. */
const STARTERS = {
  // Without the shared handle, its own: the fs and GridFS stores keep no state between calls.
  estates: (env, bus, log, shares) => startEstatesContext(loadEstatesConfig(env), bus, log, shares.blobs),
  renovations: (env, bus, log) => startRenovationsContext(loadRenovationsConfig(env), bus, log),
  calculations: (env, bus, log, shares) =>
    startCalculationsContext(loadCalculationsConfig(env), bus, log, {
      signer: shares.signer ?? busWebhookSigner(bus),
      ...(shares.blobs ? { blobs: shares.blobs } : {}),
    }),
  reporting: (env, bus, log, shares) => startReportingContext(loadReportingConfig(env), bus, log, shares.blobs),
} satisfies Record<ThreadableContext, Starter>;

export function startContext<C extends ThreadableContext>(
  context: C,
  env: NodeJS.ProcessEnv,
  bus: Bus,
  log: Logger,
  shares: MainThreadShares = {},
): ReturnType<(typeof STARTERS)[C]> {
  return STARTERS[context](env, bus, log, shares) as ReturnType<(typeof STARTERS)[C]>;
}

/**
 * This thread's own CPU time (ms), where Linux tells it (`/proc/thread-self`), else null. Node 20 has no
 * per-thread CPU clock, and a loop's active time also counts the time the thread waited for a core.
 */
export function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
