import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { PropertyDescription, TrajectoryPlan } from '@renopath/contracts';
import { planTrajectory, type PlanOptions } from './planner.ts';

/** The planner refused the home (the model cannot describe it): an answer about the job, not a fault. */
export class PlanRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanRefusedError';
  }
}

/** Where plans are made: in the calling thread, or in planner threads (`RENOPATH_PLANNER_THREADS`). */
export interface Planner {
  /** The plan, or PlanRefusedError; any other error means the planner was not there (try again later). */
  plan(property: PropertyDescription, options: PlanOptions): Promise<TrajectoryPlan>;
  close(): Promise<void>;
}

export function inlinePlanner(): Planner {
  return {
    async plan(property, options) {
      try {
        return planTrajectory(property, options);
      } catch (err) {
        throw new PlanRefusedError(err instanceof Error ? err.message : String(err));
      }
    },
    async close() {},
  };
}

type Answer = { id: number; ok: true; plan: TrajectoryPlan } | { id: number; ok: false; message: string };
interface Waiting {
  property: PropertyDescription;
  options: PlanOptions;
  resolve: (plan: TrajectoryPlan) => void;
  reject: (err: Error) => void;
}

/**
 * One planner thread: started at once (loading the planner takes the better part of a second, which
 * the first job should not wait for), started again on the next plan after it died. A thread
 * that dies before it could load the planner (an install without tsx, say) will not do better the
 * next time: from then on this one plans in the calling thread, and says so once.
 */
class PlannerThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closing = false;
  private cannotStart = false;
  private readonly inline = inlinePlanner();

  constructor(
    private readonly log: Logger,
    private readonly script: URL,
  ) {}

  /** Starts the thread now, so it has loaded the planner by the time the first plan is asked for. */
  warm(): void {
    if (!this.cannotStart && !this.worker) this.start();
  }

  get load(): number {
    return this.waiting.size;
  }

  plan(property: PropertyDescription, options: PlanOptions): Promise<TrajectoryPlan> {
    if (this.cannotStart) return this.inline.plan(property, options);
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<TrajectoryPlan>((resolve, reject) => {
      // Kept alive while a plan is awaited, and only then (see `start`).
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { property, options, resolve, reject });
      // Messages wait in the port until the thread has loaded the planner.
      worker.postMessage({ id, property, options });
    });
  }

  private start(): Worker {
    const worker = new Worker(this.script);
    this.worker = worker;
    let ready = false;
    worker.on('message', (answer: Answer | { ready: true }) => {
      if (!('id' in answer)) return void (ready = true);
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (answer.ok) waiting?.resolve(answer.plan);
      else waiting?.reject(new PlanRefusedError(answer.message));
    });
    const fail = (err: Error) => {
      // 'error' is followed by 'exit': the first one tells.
      if (this.worker !== worker) return;
      this.worker = null;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      if (this.closing) return waiting.forEach((w) => w.reject(err));
      if (!ready) {
        this.cannotStart = true;
        this.log.error({ err }, 'planner thread could not start; plans are made in the calling thread');
        // What it held never started: made here instead.
        for (const w of waiting) this.inline.plan(w.property, w.options).then(w.resolve, w.reject);
        return;
      }
      this.log.error({ err }, 'planner thread stopped; the jobs it held are tried again');
      for (const w of waiting) w.reject(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`planner thread exited with code ${code}`)));
    // A thread waiting for work does not keep the process alive.
    worker.unref();
    return worker;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker?.terminate();
    this.worker = null;
  }
}

/**
 * Plans made in `threads` worker threads, each plan given to the least busy one. The plan is a pure
 * function of its input, so a plan made in a thread is the one the calling thread would make; what
 * it frees is the calling thread, which in embedded mode also serves every request and projection.
 */
export function threadPlanner(threads: number, log: Logger, options: { script?: URL } = {}): Planner {
  const script = options.script ?? new URL('./planner.worker.mjs', import.meta.url);
  const pool = Array.from({ length: threads }, () => new PlannerThread(log, script));
  for (const thread of pool) thread.warm();
  return {
    plan(property, options) {
      const idlest = pool.reduce((a, b) => (b.load < a.load ? b : a));
      return idlest.plan(property, options);
    },
    async close() {
      await Promise.all(pool.map((t) => t.close()));
    },
  };
}
