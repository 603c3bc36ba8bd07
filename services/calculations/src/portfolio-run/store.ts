import type { ReadStore, ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { PortfolioRunEvents, type PortfolioResultRow, type PortfolioRun, type PortfolioRunEvent } from '@renopath/contracts';
import type { RawRow } from './rows.ts';
import { mergePartials, type PartialSummary } from './summary.ts';

/**
 * Where a run's rows live (docs/portfolio-runs.md "Durability"). Three collections beside the run's
 * stream, one document per batch in each, so a run of 100,000 rows is a few hundred documents:
 * - inputs: the batch's rows as read from the file (written before the run is created);
 * - results: the batch's result rows;
 * - progress: the batch's counts and summary sums, the run's checkpoint.
 * A batch's results and its progress are written in one transaction: a process killed at any point
 * has either both (the batch is done) or neither (it is computed again), so every row is counted once.
 */
export const P = {
  runs: 'portfolio_runs',
  inputs: 'portfolio_inputs',
  results: 'portfolio_results',
  progress: 'portfolio_progress',
} as const;
export const PORTFOLIO_VIEWS_PROJECTION = 'portfolio-run-views';

const batchId = (run_id: string, batch: number) => `${run_id}:${String(batch).padStart(6, '0')}`;

export interface RunDoc {
  id: string;
  organization_id: string;
  user_id: string;
  client_id: string;
  created_position: number;
  batches: number;
  run: Omit<PortfolioRun, 'processed_rows' | 'failed_rows' | 'eta'>;
  started_at: string | null;
}

export interface InputDoc {
  id: string;
  run_id: string;
  batch: number;
  rows: RawRow[];
}

export interface ResultDoc {
  id: string;
  run_id: string;
  batch: number;
  rows: PortfolioResultRow[];
}

export interface ProgressDoc {
  id: string;
  run_id: string;
  batch: number;
  rows: number;
  failed: number;
  done_at: string;
  summary: PartialSummary;
}

/** The runs read model, from the run's events (the progress is read beside it, from the batches). */
export async function projectRunViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const e = event as unknown as PortfolioRunEvent & { position: bigint };
  if (!(e.type in PortfolioRunEvents)) return;
  if (e.type === 'PortfolioRunCreated') {
    const d = e.data;
    const doc: RunDoc = {
      id: d.run_id,
      organization_id: d.actor.organization_id,
      user_id: d.actor.user_id,
      client_id: d.actor.client_id,
      created_position: Number(event.position),
      batches: d.batches,
      started_at: null,
      run: {
        id: d.run_id,
        name: d.name,
        status: 'QUEUED',
        total_rows: d.total_rows,
        ignored_columns: d.ignored_columns,
        webhook_url: d.webhook_url,
        created_at: d.created_at,
        finished_at: null,
        error: null,
      },
    };
    await tx.put(P.runs, d.run_id, doc);
    return;
  }
  const doc = await tx.get<RunDoc>(P.runs, e.data.run_id);
  if (!doc) return;
  if (e.type === 'PortfolioRunStarted') {
    doc.run.status = 'RUNNING';
    doc.started_at = e.data.started_at;
  } else if (e.type === 'PortfolioRunStopped') {
    doc.run.status = 'STOPPED';
    doc.run.finished_at = e.data.stopped_at;
  } else if (e.type === 'PortfolioRunFinished') {
    doc.run.status = 'FINISHED';
    doc.run.finished_at = e.data.finished_at;
  } else if (e.type === 'PortfolioRunFailed') {
    doc.run.status = 'FAILED';
    doc.run.finished_at = e.data.failed_at;
    doc.run.error = e.data.error;
  }
  await tx.put(P.runs, doc.id, doc);
}

export class PortfolioStore {
  constructor(readonly reads: ReadStore) {}

  /** One transaction per batch of the file. */
  async putInputs(run_id: string, batch: number, rows: RawRow[]): Promise<void> {
    const doc: InputDoc = { id: batchId(run_id, batch), run_id, batch, rows };
    await this.reads.transaction((tx) => tx.put(P.inputs, doc.id, doc));
  }

  async inputs(run_id: string, batch: number): Promise<RawRow[] | null> {
    return (await this.reads.get<InputDoc>(P.inputs, batchId(run_id, batch)))?.rows ?? null;
  }

  /**
   * A batch's results and its checkpoint, together or not at all. Written again (a batch computed twice
   * after a crash between compute and commit, or by two coordinators), it replaces itself: the same
   * ids, the same rows, counted once.
   */
  async putResults(
    run_id: string,
    batch: number,
    rows: PortfolioResultRow[],
    summary: PartialSummary,
    now: string,
    fence?: (tx: ReadStoreTx) => Promise<void>,
  ): Promise<void> {
    const id = batchId(run_id, batch);
    const failed = rows.filter((r) => r.status === 'ERROR').length;
    await this.reads.transaction(async (tx) => {
      await fence?.(tx);
      await tx.put<ResultDoc>(P.results, id, { id, run_id, batch, rows });
      await tx.put<ProgressDoc>(P.progress, id, { id, run_id, batch, rows: rows.length, failed, done_at: now, summary });
    });
  }

  async results(run_id: string, batch: number): Promise<PortfolioResultRow[] | null> {
    return (await this.reads.get<ResultDoc>(P.results, batchId(run_id, batch)))?.rows ?? null;
  }

  async progress(run_id: string): Promise<ProgressDoc[]> {
    return (await this.reads.query<ProgressDoc>(P.progress, { filter: { run_id }, sort: [{ field: 'batch', order: 'ASC' }] })).items;
  }

  async run(run_id: string): Promise<RunDoc | null> {
    return this.reads.get<RunDoc>(P.runs, run_id);
  }

  /** Runs that still have work: after a restart, these are resumed. */
  async unfinished(): Promise<RunDoc[]> {
    const { items } = await this.reads.query<RunDoc>(P.runs, {
      filter: { 'run.status': { $in: ['QUEUED', 'RUNNING'] } },
      sort: [{ field: 'created_position', order: 'ASC' }],
    });
    return items;
  }
}

/** The run as the API shows it: its events' view, its batches' counts, and an ETA while it runs. */
export function runView(doc: RunDoc, progress: ProgressDoc[], now: Date): PortfolioRun {
  let processed = 0;
  let failed = 0;
  let last = 0;
  for (const p of progress) {
    processed += p.rows;
    failed += p.failed;
    last = Math.max(last, Date.parse(p.done_at));
  }
  let eta: string | null = null;
  if (doc.run.status === 'RUNNING' && doc.started_at && processed > 0 && processed < doc.run.total_rows) {
    const elapsed = Math.max(1, last - Date.parse(doc.started_at));
    eta = new Date(now.getTime() + ((doc.run.total_rows - processed) * elapsed) / processed).toISOString();
  }
  return { ...doc.run, processed_rows: processed, failed_rows: failed, eta };
}

export const summaryOf = (progress: ProgressDoc[]) => mergePartials(progress.map((p) => p.summary));
