import type { Logger } from 'pino';
import { DomainError, type Closeable, type EventStore, type ReadStoreTx } from '@renopath/platform';
import { handleCommand, type CommandContext } from '@renopath/platform/service/decider.ts';
import { backoff, sleep } from '@renopath/platform/internal/async.ts';
import { LeaseLostError, leadershipOf, type Leadership } from '@renopath/platform/service/context-lease.ts';
import type { PortfolioRun } from '@renopath/contracts';
import { readPortfolioCsv, type PortfolioHeader } from './csv.ts';
import type { BatchComputer } from './pool.ts';
import { portfolioRunDecider, runStream, type RunCommand } from './portfolio-run.decider.ts';
import { runView, type PortfolioStore, type RunDoc } from './store.ts';
import { summarise } from './summary.ts';

/** Rows per batch: a batch is a unit of work, of transaction and of message (well under NATS's 1 MB). */
export const BATCH_ROWS = 200;
/** Attempts at one batch (a thread or worker lost) before the run is FAILED. */
const BATCH_ATTEMPTS = 6;
/** How often the replica that leads looks for runs created on another replica (or left by a lost leader). */
const LOOK_FOR_RUNS_MS = 2_000;

export interface RunnerOptions {
  store: PortfolioStore;
  eventStore: EventStore;
  computer: BatchComputer;
  log: Logger;
  now?: () => Date;
  /** Batches in flight per run: enough to keep every thread or worker busy. */
  inFlight?: number;
  /** Waits until the runs read model has applied a position (read your writes). */
  waitFor: (position: bigint) => Promise<void>;
  /** Called once when a run reaches FINISHED (the webhook). */
  onFinished?: (run: PortfolioRun, doc: RunDoc) => Promise<void>;
  /** Called after every committed batch (the CLI's and bench's progress; a test's kill point). */
  onBatch?: (run_id: string, batch: number) => void;
  /**
   * Replicas over shared stores: only the one holding the context's lease drives runs (two drivers
   * would both compute every batch). Default: the read store's context leadership, if any.
   */
  leadership?: Leadership | null;
}

export interface Ingested {
  total_rows: number;
  batches: number;
  header: PortfolioHeader;
}

type InputRows = NonNullable<Awaited<ReturnType<PortfolioStore['inputs']>>>;

/**
 * Runs portfolio runs: reads a file into its input batches, then computes the batches (several in
 * flight, on the computer's threads or workers) and writes each batch's results with its checkpoint
 * in one transaction. Resumable: on start, and for any run, it computes only the batches without a
 * checkpoint, so a process killed mid-run goes on where it stopped and no row is counted twice.
 */
export function portfolioRunner(options: RunnerOptions): PortfolioRunner {
  return new PortfolioRunner(options);
}

export class PortfolioRunner {
  private readonly store: PortfolioStore;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly inFlight: number;
  private readonly driving = new Map<string, Promise<void>>();
  private closed = false;
  private readonly leadership: Leadership | null;
  /** Whether this replica may drive runs: always without shared stores; with them, while it holds the lease. */
  private leading: boolean;
  private lookout: Closeable | null = null;

  constructor(private readonly options: RunnerOptions) {
    this.store = options.store;
    this.log = options.log;
    this.now = options.now ?? (() => new Date());
    this.inFlight = Math.max(1, options.inFlight ?? 4);
    this.leadership = options.leadership === undefined ? leadershipOf(options.store.reads) : options.leadership;
    this.leading = this.leadership === null;
  }

  decide = (run_id: string, command: RunCommand, context: CommandContext = this.system(run_id)) =>
    handleCommand(this.options.eventStore, runStream(run_id), portfolioRunDecider, command, context);

  /** The file read into input batches, in file order; nothing of it is held but the batch being written. */
  async ingest(run_id: string, bytes: Buffer | AsyncIterable<Buffer>): Promise<Ingested> {
    let batches = 0;
    const read = await readPortfolioCsv(
      bytes,
      BATCH_ROWS,
      () => undefined,
      async (rows) => {
        await this.store.putInputs(run_id, batches++, rows);
      },
    );
    return { total_rows: read.total_rows, batches, header: read.header };
  }

  /**
   * Starts (or joins) the run's work in this process; resolves when it has ended here. On a replica
   * that does not lead it does nothing: the leader finds the run (LOOK_FOR_RUNS_MS).
   */
  kick(run_id: string): Promise<void> {
    if (!this.leading || this.closed) return Promise.resolve();
    const running = this.driving.get(run_id);
    if (running) return running;
    const run = this.drive(run_id)
      .catch((err: unknown) => this.log.error({ err, run_id }, 'portfolio run interrupted; it resumes on the next start'))
      .finally(() => this.driving.delete(run_id));
    this.driving.set(run_id, run);
    return run;
  }

  /**
   * Resumes every run that has work left (after a restart). With a lease, from each takeover on, and
   * then every LOOK_FOR_RUNS_MS for runs another replica took in; losing the lease stops the driving
   * between batches (a batch in flight commits only through the fence).
   */
  async resume(): Promise<void> {
    if (!this.leadership) return this.kickAll();
    this.lookout = await this.leadership.whileLeading('portfolio runner', () => this.lead());
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.lookout?.close();
    await Promise.allSettled([...this.driving.values()]);
  }

  private system(run_id: string): CommandContext {
    return {
      metadata: { actor: { user_id: null, client_id: null }, correlation_id: `portfolio-run-${run_id}`, causation_id: null },
      now: this.now().toISOString(),
    };
  }

  private async kickAll(): Promise<void> {
    for (const doc of await this.store.unfinished()) void this.kick(doc.id);
  }

  /** While this replica holds the lease: the runs left, then a look for new ones every LOOK_FOR_RUNS_MS. */
  private async lead(): Promise<Closeable> {
    this.leading = true;
    await this.kickAll();
    const timer = setInterval(() => {
      this.kickAll().catch((err: unknown) => this.log.warn({ err }, 'could not look for portfolio runs; trying again'));
    }, LOOK_FOR_RUNS_MS);
    timer.unref();
    return {
      close: async () => {
        this.leading = false;
        clearInterval(timer);
        await Promise.allSettled([...this.driving.values()]);
      },
    };
  }

  /** A run from where it stands to its end here: started, its batches computed, then finished (or failed). */
  private async drive(run_id: string): Promise<void> {
    const doc = await this.store.run(run_id);
    if (!doc || (doc.run.status !== 'QUEUED' && doc.run.status !== 'RUNNING')) return;
    if (doc.run.status === 'QUEUED') {
      const started = await this.decide(run_id, { type: 'StartRun', now: this.now().toISOString() });
      if (started.position !== null) await this.options.waitFor(started.position);
    }
    const computed = await this.computeRemaining(run_id, doc.batches);
    if (computed && !this.closed && this.leading) await this.finish(run_id, doc);
  }

  /**
   * The batches without a checkpoint, `inFlight` at a time. False when the run stopped (a stop is read from
   * the run itself, which any replica may have taken), was left, or failed before its last batch.
   */
  private async computeRemaining(run_id: string, batches: number): Promise<boolean> {
    const done = new Set((await this.store.progress(run_id)).map((p) => p.batch));
    const todo = Array.from({ length: batches }, (_, b) => b).filter((b) => !done.has(b));
    let stopped = false;
    const lane = async () => {
      while (!stopped && !this.closed && this.leading) {
        const batch = todo.shift();
        if (batch === undefined) return;
        // One small read per batch of rows.
        if ((await this.store.run(run_id))?.run.status !== 'RUNNING') {
          stopped = true;
          return;
        }
        await this.computeBatch(run_id, batch);
      }
    };
    try {
      await Promise.all(Array.from({ length: this.inFlight }, lane));
    } catch (err) {
      await this.failOrLeave(run_id, err);
      return false;
    }
    return !stopped;
  }

  /** A batch that could not be computed: the run FAILED, unless this replica is closing or lost the lease. */
  private async failOrLeave(run_id: string, err: unknown): Promise<void> {
    // Closing, or the lease gone (the fence refused the commit): the run is not failed, its next driver goes on.
    if (this.closed || !this.leading || err instanceof LeaseLostError) {
      this.log.warn({ err, run_id }, 'portfolio run left between batches; it resumes where it stopped');
      return;
    }
    this.log.error({ err, run_id }, 'portfolio run failed');
    await this.decide(run_id, {
      type: 'FailRun',
      now: this.now().toISOString(),
      error: { code: 'BATCH_FAILED', message: 'a batch could not be computed' },
    });
  }

  /** Every batch computed: the run FINISHED with its counts, and the webhook told once the read model has it. */
  private async finish(run_id: string, doc: RunDoc): Promise<void> {
    const progress = await this.store.progress(run_id);
    const view = runView(doc, progress, this.now());
    const finished = await this.decide(run_id, {
      type: 'FinishRun',
      now: this.now().toISOString(),
      processed_rows: view.processed_rows,
      failed_rows: view.failed_rows,
    }).catch((err: unknown) => {
      // Stopped meanwhile (the decider appends nothing then) or a row count that does not add up (409: a bug, logged).
      if (err instanceof DomainError) this.log.error({ err, run_id }, 'portfolio run could not finish');
      else throw err;
      return null;
    });
    if (finished?.position == null) return;
    await this.options.waitFor(finished.position);
    const current = (await this.store.run(run_id)) ?? doc;
    await this.options.onFinished?.(runView(current, progress, this.now()), current);
  }

  /** One batch computed and committed with its checkpoint, tried again (with a backoff) while that makes sense. */
  private async computeBatch(run_id: string, batch: number): Promise<void> {
    const rows = await this.store.inputs(run_id, batch);
    if (!rows) throw new Error(`portfolio run ${run_id}: batch ${batch} has no input`);
    const year = this.now().getUTCFullYear();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.commitBatch(run_id, batch, rows, year);
      } catch (err) {
        if (attempt + 1 >= BATCH_ATTEMPTS || this.closed || !this.leading || err instanceof LeaseLostError) throw err;
        this.log.warn({ err, run_id, batch, attempt }, 'portfolio batch not computed; trying again');
        await sleep(backoff(attempt, 200, 5_000));
      }
    }
  }

  private async commitBatch(run_id: string, batch: number, rows: InputRows, year: number): Promise<void> {
    const results = await this.options.computer.compute(rows, year);
    if (results.length !== rows.length) throw new Error(`batch ${batch}: ${results.length} results for ${rows.length} rows`);
    // Fenced: a replica that lost the lease without knowing it yet cannot commit behind its successor.
    const leadership = this.leadership;
    const fence = leadership ? (tx: ReadStoreTx) => leadership.fence(tx) : undefined;
    await this.store.putResults(run_id, batch, results, summarise(results), this.now().toISOString(), fence);
    this.options.onBatch?.(run_id, batch);
  }
}
