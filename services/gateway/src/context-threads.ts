import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { MemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { exposeBus } from '@renopath/platform/memory/thread-bus.ts';
import { THREADABLE_CONTEXTS, type ContextThreadCommand, type ContextThreadData, type ContextThreadReport, type ThreadableContext } from './context-thread.ts';

/**
 * What `auto` (the default) runs in threads: the two contexts with the most work per job after the
 * gateway's share, measured by `npm run bench -- jobs` (docs/architecture.md). Every context in a
 * thread costs more CPU in messages between threads than it frees on a machine with few cores.
 */
const AUTO: ThreadableContext[] = ['estates', 'calculations'];

/**
 * `RENOPATH_CONTEXT_THREADS`: which contexts embedded mode runs in threads of their own: `auto` (the
 * default: estates and calculations, or none on a single core), `all` (estates, renovations,
 * calculations and reporting, each in one), `none` (every context on the main thread), or a
 * comma-separated list of those four.
 */
const ContextThreadsEnv = z
  .string()
  .default('auto')
  .transform((value, ctx): ThreadableContext[] => {
    const v = value.trim();
    if (v === 'auto') return availableParallelism() > 1 ? [...AUTO] : [];
    if (v === 'all') return [...THREADABLE_CONTEXTS];
    if (v === 'none' || v === '') return [];
    const names = v.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !(THREADABLE_CONTEXTS as readonly string[]).includes(n));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `RENOPATH_CONTEXT_THREADS: ${unknown.join(', ')} cannot run in a thread (expected auto, all, none or some of ${THREADABLE_CONTEXTS.join(', ')})` });
      return z.NEVER;
    }
    return [...new Set(names)] as ThreadableContext[];
  });

/** RENOPATH_CONTEXT_THREADS read as the other settings are: a wrong value is an `invalid configuration` error that names it. */
export function contextThreadsOf(env: NodeJS.ProcessEnv): ThreadableContext[] {
  const parsed = ContextThreadsEnv.safeParse(env['RENOPATH_CONTEXT_THREADS']);
  if (!parsed.success) throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export interface ContextThread {
  context: ThreadableContext;
  /** Closes the context in its thread, then ends the thread. */
  close(): Promise<void>;
  /** The thread's event loop active time and CPU time (ms; null off Linux) since the previous call: the bench's per-thread figures. */
  loopActiveSinceMark(): Promise<{ loopActiveMs: number; cpuMs: number | null }>;
}

const SCRIPT = new URL('./context-thread.worker.mjs', import.meta.url);

/**
 * Starts `context` in a worker thread on `bus` and resolves once it serves. A thread that ends
 * unasked (an uncaught error in it) takes the process down, as the same error would with the context
 * on the main thread: a half-running service that answers 503 for one context is worse than a restart.
 */
export async function startContextThread(context: ThreadableContext, env: NodeJS.ProcessEnv, bus: MemoryBus, log: Logger): Promise<ContextThread> {
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
    loopActiveSinceMark: () =>
      new Promise<{ loopActiveMs: number; cpuMs: number | null }>((resolve) => {
        const onReport = (r: ContextThreadReport) => 'loopActiveMs' in r && (worker.off('message', onReport), resolve(r));
        worker.on('message', onReport);
        worker.postMessage('mark' satisfies ContextThreadCommand);
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
