import { MessageChannel, Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { MemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { exposeBus } from '@renopath/platform/memory/thread-bus.ts';
import type { MetricsJson } from '@renopath/platform/observability/metrics.ts';
import type { LoopLoad } from '@renopath/platform/observability/overload-limits.ts';
import type { ContextThreadCommand, ContextThreadData, ContextThreadReport, ThreadableContext } from './context-thread.ts';

export { contextThreadsOf } from './config-threads.ts';

export interface ContextThread {
  context: ThreadableContext;
  /** Closes the context in its thread, then ends the thread. */
  close(): Promise<void>;
  /** The thread's metrics registry (merged into the main thread's /metrics). */
  metrics(): Promise<MetricsJson>;
  /** The thread's event loop active time and CPU time (ms; null off Linux) since the previous call: the bench's per-thread figures. */
  loopActiveSinceMark(): Promise<{ loopActiveMs: number; cpuMs: number | null }>;
  /** The thread's event-loop delay and utilisation since the previous call; null when it does not answer within `timeoutMs`. */
  load(timeoutMs: number): Promise<LoopLoad | null>;
}

const SCRIPT = new URL('./context-thread.worker.mjs', import.meta.url);

/**
 * Starts `context` in a worker thread on `bus` and resolves once it serves. A thread that ends
 * unasked (an uncaught error in it) takes the process down, as the same error would with the context
 * on the main thread: a half-running service that answers 503 for one context is worse than a restart.
 */
export async function startContextThread(
  context: ThreadableContext,
  env: NodeJS.ProcessEnv,
  bus: MemoryBus,
  log: Logger,
): Promise<ContextThread> {
  const { port1, port2 } = new MessageChannel();
  const exposed = exposeBus(bus, port1);
  const strings = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const data: ContextThreadData = { context, env: strings, bus: port2 };
  const worker = new Worker(SCRIPT, { workerData: data, transferList: [port2], name: `renopath-${context}` });
  let stopping = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (report: ContextThreadReport) => {
      if ('ready' in report) resolve();
      else if ('failed' in report) reject(new Error(`the ${context} context did not start: ${report.failed}`));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the ${context} context's thread exited (code ${code}) before it served`)));
  });
  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    await exposed.close();
    throw error;
  }
  worker.on('error', (err) => log.fatal({ err, context }, 'context thread failed'));
  void exited.then(async (code) => {
    if (stopping) return;
    await exposed.close();
    log.fatal({ context, code }, 'context thread ended unasked: stopping the process');
    // Thrown outside any promise, so it ends the process as an uncaught error would.
    setImmediate(() => {
      throw new Error(`the ${context} context's thread ended unasked (exit code ${code})`);
    });
  });
  return {
    context,
    metrics: () =>
      new Promise<MetricsJson>((resolve) => {
        const onReport = (r: ContextThreadReport) => 'metrics' in r && (worker.off('message', onReport), resolve(r.metrics));
        worker.on('message', onReport);
        worker.postMessage('metrics' satisfies ContextThreadCommand);
      }),
    loopActiveSinceMark: () =>
      new Promise<{ loopActiveMs: number; cpuMs: number | null }>((resolve) => {
        const onReport = (r: ContextThreadReport) => 'loopActiveMs' in r && (worker.off('message', onReport), resolve(r));
        worker.on('message', onReport);
        worker.postMessage('mark' satisfies ContextThreadCommand);
      }),
    load: (timeoutMs) =>
      new Promise<LoopLoad | null>((resolve) => {
        // A thread whose loop is stuck does not answer: that is the answer, after `timeoutMs`.
        const timer = setTimeout(() => (worker.off('message', onReport), resolve(null)), timeoutMs);
        const onReport = (r: ContextThreadReport) => 'load' in r && (clearTimeout(timer), worker.off('message', onReport), resolve(r.load));
        worker.on('message', onReport);
        worker.postMessage('load' satisfies ContextThreadCommand);
      }),
    async close() {
      if (stopping) return;
      stopping = true;
      const stopped = new Promise<void>((resolve) => worker.on('message', (r: ContextThreadReport) => 'stopped' in r && resolve()));
      worker.postMessage('stop' satisfies ContextThreadCommand);
      await Promise.race([stopped, exited]);
      await exposed.close();
      await worker.terminate();
    },
  };
}
