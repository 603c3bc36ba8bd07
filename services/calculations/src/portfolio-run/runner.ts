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

/**
 * Runs portfolio runs: reads a file into its input batches, then computes the batches (several in
 * flight, on the computer's threads or workers) and writes each batch's results with its checkpoint
 * in one transaction. Resumable: on start, and for any run, it computes only the batches without a
 * checkpoint, so a process killed mid-run goes on where it stopped and no row is counted twice.
 */
export function portfolioRunner(options: RunnerOptions) {
  const { store, eventStore, computer, log } = options;
  const now = options.now ?? (() => new Date());
  const inFlight = Math.max(1, options.inFlight ?? 4);
  const driving = new Map<string, Promise<void>>();
  let closed = false;
  const leadership = options.leadership === undefined ? leadershipOf(store.reads) : options.leadership;
  /** Whether this replica may drive runs: always without shared stores; with them, while it holds the lease. */
  let leading = leadership === null;
  let lookout: Closeable | null = null;

  const system = (run_id: string): CommandContext => ({
    metadata: { actor: { user_id: null, client_id: null }, correlation_id: `portfolio-run-${run_id}`, causation_id: null },
    now: now().toISOString(),
  });
  const decide = (run_id: string, command: RunCommand, context: CommandContext = system(run_id)) =>
    handleCommand(eventStore, runStream(run_id), portfolioRunDecider, command, context);

  /** The file read into input batches, in file order; nothing of it is held but the batch being written. */
  async function ingest(run_id: string, bytes: Buffer | AsyncIterable<Buffer>): Promise<Ingested> {
    let batches = 0;
    const read = await readPortfolioCsv(
      bytes,
      BATCH_ROWS,
      () => undefined,
      async (rows) => {
        await store.putInputs(run_id, batches++, rows);
      },
    );
    return { total_rows: read.total_rows, batches, header: read.header };
  }

  async function computeBatch(run_id: string, batch: number): Promise<void> {
    const rows = await store.inputs(run_id, batch);
    if (!rows) throw new Error(`portfolio run ${run_id}: batch ${batch} has no input`);
    const year = now().getUTCFullYear();
    for (let attempt = 0; ; attempt++) {
      try {
        const results = await computer.compute(rows, year);
        if (results.length !== rows.length) throw new Error(`batch ${batch}: ${results.length} results for ${rows.length} rows`);
        // Fenced: a replica that lost the lease without knowing it yet cannot commit behind its successor.
        const fence = leadership ? (tx: ReadStoreTx) => leadership.fence(tx) : undefined;
        await store.putResults(run_id, batch, results, summarise(results), now().toISOString(), fence);
        options.onBatch?.(run_id, batch);
        return;
      } catch (err) {
        if (attempt + 1 >= BATCH_ATTEMPTS || closed || !leading || err instanceof LeaseLostError) throw err;
        log.warn({ err, run_id, batch, attempt }, 'portfolio batch not computed; trying again');
        await sleep(backoff(attempt, 200, 5_000));
      }
    }
  }

  async function drive(run_id: string): Promise<void> {
    let doc = await store.run(run_id);
    if (!doc || (doc.run.status !== 'QUEUED' && doc.run.status !== 'RUNNING')) return;
    if (doc.run.status === 'QUEUED') {
      const started = await decide(run_id, { type: 'StartRun', now: now().toISOString() });
      if (started.position !== null) await options.waitFor(started.position);
    }
    const done = new Set((await store.progress(run_id)).map((p) => p.batch));
    const todo = Array.from({ length: doc.batches }, (_, b) => b).filter((b) => !done.has(b));
    let stopped = false;
    const lane = async () => {
      while (!stopped && !closed && leading) {
        const batch = todo.shift();
        if (batch === undefined) return;
        // A stop is read from the run itself (any replica may have taken it): one small read per batch of rows.
        const current = await store.run(run_id);
        if (current?.run.status !== 'RUNNING') {
          stopped = true;
          return;
        }
        await computeBatch(run_id, batch);
      }
    };
    try {
      await Promise.all(Array.from({ length: inFlight }, lane));
    } catch (err) {
      // Closing, or the lease gone (the fence refused the commit): the run is not failed, its next driver goes on.
      if (closed || !leading || err instanceof LeaseLostError) {
        log.warn({ err, run_id }, 'portfolio run left between batches; it resumes where it stopped');
        return;
      }
      log.error({ err, run_id }, 'portfolio run failed');
      await decide(run_id, {
        type: 'FailRun',
        now: now().toISOString(),
        error: { code: 'BATCH_FAILED', message: 'a batch could not be computed' },
      });
      return;
    }
    if (stopped || closed || !leading) return;
    const progress = await store.progress(run_id);
    const view = runView(doc, progress, now());
    const finished = await decide(run_id, {
      type: 'FinishRun',
      now: now().toISOString(),
      processed_rows: view.processed_rows,
      failed_rows: view.failed_rows,
    }).catch((err: unknown) => {
      // Stopped meanwhile (the decider appends nothing then) or a row count that does not add up (409: a bug, logged).
      if (err instanceof DomainError) log.error({ err, run_id }, 'portfolio run could not finish');
      else throw err;
      return null;
    });
    if (finished?.position != null) {
      await options.waitFor(finished.position);
      doc = (await store.run(run_id)) ?? doc;
      await options.onFinished?.(runView(doc, progress, now()), doc);
    }
  }

  return {
    ingest,
    decide,
    /**
     * Starts (or joins) the run's work in this process; resolves when it has ended here. On a replica
     * that does not lead it does nothing: the leader finds the run (LOOK_FOR_RUNS_MS).
     */
    kick(run_id: string): Promise<void> {
      if (!leading || closed) return Promise.resolve();
      const running = driving.get(run_id);
      if (running) return running;
      const run = drive(run_id)
        .catch((err: unknown) => log.error({ err, run_id }, 'portfolio run interrupted; it resumes on the next start'))
        .finally(() => driving.delete(run_id));
      driving.set(run_id, run);
      return run;
    },
    /**
     * Resumes every run that has work left (after a restart). With a lease, from each takeover on, and
     * then every LOOK_FOR_RUNS_MS for runs another replica took in; losing the lease stops the driving
     * between batches (a batch in flight commits only through the fence).
     */
    async resume(): Promise<void> {
      const kickAll = async () => {
        for (const doc of await store.unfinished()) void this.kick(doc.id);
      };
      if (!leadership) return kickAll();
      lookout = await leadership.whileLeading('portfolio runner', async () => {
        leading = true;
        await kickAll();
        const timer = setInterval(() => {
          kickAll().catch((err: unknown) => log.warn({ err }, 'could not look for portfolio runs; trying again'));
        }, LOOK_FOR_RUNS_MS);
        timer.unref();
        return {
          async close() {
            leading = false;
            clearInterval(timer);
            await Promise.allSettled([...driving.values()]);
          },
        };
      });
    },
    async close(): Promise<void> {
      closed = true;
      await lookout?.close();
      await Promise.allSettled([...driving.values()]);
    },
  };
}

export type PortfolioRunner = ReturnType<typeof portfolioRunner>;
