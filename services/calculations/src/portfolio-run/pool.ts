import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { PortfolioResultRow } from '@renopath/contracts';
import { computeBatch } from './compute.ts';
import type { RawRow } from './rows.ts';

/**
 * Where a batch of rows is computed: in this thread, in portfolio threads of this process, or (runner.ts)
 * over the bus in any worker process. A batch that could not be computed (a thread died, no worker
 * answered) rejects, and the run tries it again; a bad row is never a rejection, it is an ERROR row.
 */
export interface BatchComputer {
  compute(rows: RawRow[], year: number): Promise<PortfolioResultRow[]>;
  /** Thread CPU spent in computeBatch so far (microseconds): the bench's "plan alone" figure. */
  readonly computeCpuUs: number;
  close(): Promise<void>;
}

export function inlineComputer(): BatchComputer {
  let cpu = 0;
  return {
    async compute(rows, year) {
      // A turn of the event loop first: computing batch after batch in this thread must not starve timers and I/O.
      await new Promise((resolve) => setImmediate(resolve));
      const started = process.cpuUsage();
      const result = computeBatch(rows, year);
      const used = process.cpuUsage(started);
      cpu += used.user + used.system;
      return result;
    },
    get computeCpuUs() {
      return cpu;
    },
    async close() {},
  };
}

type Answer = { id: number; ok: true; rows: PortfolioResultRow[]; cpu_us: number } | { id: number; ok: false; message: string };

class PortfolioThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (rows: PortfolioResultRow[]) => void; reject: (err: Error) => void }>();
  private nextId = 0;
  cpuUs = 0;

  constructor(
    private readonly log: Logger,
    private readonly script: URL,
  ) {}

  get load(): number {
    return this.waiting.size;
  }

  warm(): void {
    if (!this.worker) this.start();
  }

  compute(rows: RawRow[], year: number): Promise<PortfolioResultRow[]> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, rows, year });
    });
  }

  private start(): Worker {
    const worker = new Worker(this.script);
    this.worker = worker;
    worker.on('message', (answer: Answer | { ready: true }) => {
      if (!('id' in answer)) return;
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (answer.ok) {
        this.cpuUs += answer.cpu_us;
        waiting?.resolve(answer.rows);
      } else waiting?.reject(new Error(answer.message));
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.log.error({ err }, 'portfolio thread stopped; its batches are computed again');
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`portfolio thread exited with code ${code}`)));
    worker.unref();
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

/** Batches computed in `threads` threads (the machine's cores), each to the least busy one. */
export function threadComputer(threads: number, log: Logger): BatchComputer {
  const script = new URL('./portfolio.worker.mjs', import.meta.url);
  const pool = Array.from({ length: Math.max(1, threads) }, () => new PortfolioThread(log, script));
  for (const t of pool) t.warm();
  return {
    compute(rows, year) {
      return pool.reduce((a, b) => (b.load < a.load ? b : a)).compute(rows, year);
    },
    get computeCpuUs() {
      return pool.reduce((sum, t) => sum + t.cpuUs, 0);
    },
    async close() {
      await Promise.all(pool.map((t) => t.close()));
    },
  };
}
