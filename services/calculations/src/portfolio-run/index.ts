import type { Logger } from 'pino';
import { DomainError, notFound, type BlobStore, type Bus, type Closeable, type EventStore, type ReadStore } from '@renopath/platform';
import { runProjection, type ProjectionDefinition } from '@renopath/platform/projection-runner.ts';
import { withEventContracts } from '@renopath/platform/service/event-contracts.ts';
import type { Leadership } from '@renopath/platform/service/context-lease.ts';
import { actorOf, commandContext, newId, pageOf, parse, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import {
  CreatePortfolioRunBody,
  PortfolioResultsPageQuery,
  PortfolioRunEvents,
  PortfolioRunListQuery,
  PortfolioSubjects,
  type Actor,
  type PortfolioResultRow,
  type PortfolioRun,
  type ServiceRequest,
} from '@renopath/contracts';
import { z } from 'zod';
import type { BatchComputer } from './pool.ts';
import { PORTFOLIO_RUN_STREAM_PREFIX } from './portfolio-run.decider.ts';
import { portfolioRunner, type PortfolioRunner } from './runner.ts';
import { P, PORTFOLIO_VIEWS_PROJECTION, PortfolioStore, projectRunViews, runView, summaryOf, type RunDoc } from './store.ts';
import { finalSummary } from './summary.ts';
import { computeBatch } from './compute.ts';
import { resultsCsv } from './csv.ts';

export { threadComputer, inlineComputer, type BatchComputer } from './pool.ts';

/** The runs read model (its progress collections are written by the runner, not by events). */
export const PORTFOLIO_VIEWS: ProjectionDefinition = {
  name: PORTFOLIO_VIEWS_PROJECTION,
  collections: [P.runs],
  streamPrefixes: [PORTFOLIO_RUN_STREAM_PREFIX],
  handle: withEventContracts(PortfolioRunEvents, projectRunViews),
};

type Handler = (req: ServiceRequest) => Promise<unknown>;

export interface PortfolioDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  blobs: BlobStore;
  log: Logger;
  computer: BatchComputer;
  settleTimeoutMs: number;
  now?: () => Date;
  /** Whether the actor sees every run of its organization (a writer) or only its own. */
  isWriter: (actor: Actor) => Promise<boolean>;
  onFinished?: (run: PortfolioRun, doc: RunDoc) => Promise<void>;
  onBatch?: (run_id: string, batch: number) => void;
  inFlight?: number;
  /** Which replica drives runs (runner.ts); default the read store's context leadership. */
  leadership?: Leadership | null;
}

export interface PortfolioRuns {
  /** By name (create, get, list, stop, summary, results) and, in `bySubject`, by their bus subject. */
  handlers: Record<'create' | 'get' | 'list' | 'stop' | 'summary' | 'results', Handler>;
  bySubject: Record<string, Handler>;
  runner: PortfolioRunner;
  store: PortfolioStore;
  close(): Promise<void>;
}

const runIdOf = (req: ServiceRequest) => String(req.params?.['portfolio_run_id'] ?? '').toLowerCase();

/** What the runs' handlers share: the context's dependencies, the runs' store and runner, and read-your-writes. */
interface RunsContext {
  deps: PortfolioDeps;
  store: PortfolioStore;
  runner: PortfolioRunner;
  settled: ReturnType<typeof readYourWrites>;
  now: () => Date;
}

/**
 * Portfolio runs in the calculations context (docs/portfolio-runs.md): the runs' projection, the runner
 * (which resumes unfinished runs at once), and the handlers of their subjects.
 */
export async function startPortfolioRuns(deps: PortfolioDeps): Promise<PortfolioRuns> {
  const now = deps.now ?? (() => new Date());
  const store = new PortfolioStore(deps.readStore);
  const projection = runProjection({
    ...PORTFOLIO_VIEWS,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    onError: (err, event) => deps.log.error({ err, event_id: event?.event_id }, 'portfolio views projection failed; retrying'),
  });
  const settled = readYourWrites(projection, deps.settleTimeoutMs);
  const runner = portfolioRunner({
    store,
    eventStore: deps.eventStore,
    computer: deps.computer,
    log: deps.log.child({ part: 'portfolio' }),
    now,
    waitFor: settled,
    ...(deps.onFinished ? { onFinished: deps.onFinished } : {}),
    ...(deps.onBatch ? { onBatch: deps.onBatch } : {}),
    ...(deps.inFlight ? { inFlight: deps.inFlight } : {}),
    ...(deps.leadership !== undefined ? { leadership: deps.leadership } : {}),
  });
  const handlers = portfolioHandlers({ deps, store, runner, settled, now });
  await runner.resume();
  return {
    handlers,
    bySubject: {
      [PortfolioSubjects.createRun]: handlers.create,
      [PortfolioSubjects.getRun]: handlers.get,
      [PortfolioSubjects.listRuns]: handlers.list,
      [PortfolioSubjects.stopRun]: handlers.stop,
      [PortfolioSubjects.summary]: handlers.summary,
      [PortfolioSubjects.resultsPage]: handlers.results,
    },
    runner,
    store,
    async close() {
      await runner.close();
      await projection.close();
    },
  };
}

function portfolioHandlers(ctx: RunsContext): PortfolioRuns['handlers'] {
  const { store, runner, settled, now } = ctx;
  return {
    create: (req: ServiceRequest) => createRun(ctx, req),

    async get(req: ServiceRequest) {
      return view(ctx, await visible(ctx, req));
    },

    list: (req: ServiceRequest) => listRuns(ctx, req),

    async stop(req: ServiceRequest) {
      const doc = await visible(ctx, req);
      const { position } = await runner.decide(doc.id, { type: 'StopRun', now: now().toISOString() }, commandContext(req, now()));
      await settled(position);
      return view(ctx, (await store.run(doc.id)) ?? doc);
    },

    async summary(req: ServiceRequest) {
      const doc = await visible(ctx, req);
      return finalSummary(doc.id, doc.run.status, summaryOf(await store.progress(doc.id)));
    },

    async results(req: ServiceRequest) {
      const doc = await visible(ctx, req);
      const { batch, format } = parse(PortfolioResultsPageQuery, req.query ?? {});
      const rows = batch < doc.batches ? await store.results(doc.id, batch) : [];
      const page = { batch, batches: doc.batches, done: rows !== null };
      if (format === 'json') return { ...page, rows: rows ?? [] };
      // The CSV's header comes with the first batch, even when that batch is not computed yet.
      if (format === 'csv') return { ...page, text: resultsCsv(rows ?? [], batch === 0) };
      return { ...page, text: (rows ?? []).map((r) => `${JSON.stringify(r)}\n`).join('') };
    },
  };
}

/** The run the request names, if the actor may see it: its organization's, and its own unless a writer. */
async function visible({ deps, store }: RunsContext, req: ServiceRequest): Promise<RunDoc> {
  const actor = actorOf(req);
  const doc = await store.run(runIdOf(req));
  if (!doc || doc.organization_id !== actor.organization_id) throw notFound('portfolio run');
  if (doc.user_id !== actor.user_id && !(await deps.isWriter(actor))) throw notFound('portfolio run');
  return doc;
}

const view = async ({ store, now }: RunsContext, doc: RunDoc) => runView(doc, await store.progress(doc.id), now());

/** A run made from an upload: its rows stored as input batches, the run created, then driven. */
async function createRun(ctx: RunsContext, req: ServiceRequest) {
  const { deps, store, runner, settled, now } = ctx;
  const actor = actorOf(req);
  const body = parse(CreatePortfolioRunBody, req.body);
  const run_id = newId(req, 'portfolio-run');
  const existing = await store.run(run_id);
  if (existing) {
    // A keyed retry of a create that was made: the retry's own copy of the file is not needed.
    // (The first attempt's copy went once its rows were stored.)
    await deps.blobs.delete(body.blob_key).catch(() => undefined);
    return view(ctx, existing);
  }
  // Read as it comes from the store: the file is never held whole, only the batch being written.
  const blob = await deps.blobs.getStream(body.blob_key);
  if (!blob) throw new DomainError(400, ['file: the upload is no longer stored; upload it again']);
  const read = await runner.ingest(run_id, blob.body);
  const { position } = await runner.decide(
    run_id,
    {
      type: 'CreateRun',
      run_id,
      actor: { user_id: actor.user_id!, organization_id: actor.organization_id!, client_id: actor.client_id! },
      name: body.name,
      webhook_url: body.webhook_url ?? null,
      total_rows: read.total_rows,
      batches: read.batches,
      ignored_columns: read.header.ignored_columns,
      created_at: now().toISOString(),
    },
    commandContext(req, now()),
  );
  await settled(position);
  // The file's rows are stored as input batches: the upload itself is no longer needed.
  await deps.blobs.delete(body.blob_key).catch(() => undefined);
  void runner.kick(run_id);
  const doc = await store.run(run_id);
  if (!doc) throw new DomainError(503, ['the run is stored but not yet readable; read it again shortly']);
  return view(ctx, doc);
}

/** A page of the runs the actor may see (a writer: its organization's; else its own), newest first. */
async function listRuns(ctx: RunsContext, req: ServiceRequest) {
  const actor = actorOf(req);
  const q = parse(PortfolioRunListQuery, req.query ?? {});
  const writer = await ctx.deps.isWriter(actor);
  const filter = { organization_id: actor.organization_id, ...(writer ? {} : { user_id: actor.user_id }) };
  const { items, total } = await ctx.deps.readStore.query<RunDoc>(P.runs, {
    filter: filter as Record<string, string>,
    sort: [{ field: 'created_position', order: 'DESC' }],
    page: q.page,
    pageSize: q.page_size,
  });
  return pageOf(q, total, await Promise.all(items.map((doc) => view(ctx, doc))));
}

const ComputeBatchBody = z.object({ rows: z.array(z.unknown()).max(10_000), year: z.number().int() });

/**
 * A portfolio worker on the bus: computes the batches any coordinator sends (`compute-portfolio-batch`);
 * several processes serving the subject share the batches (a queue group), so more worker processes
 * give more homes a second. It holds nothing: a batch whose worker dies is sent again.
 */
export async function servePortfolioWorker(bus: Bus, computer: BatchComputer, subject: string): Promise<Closeable> {
  return bus.handle(subject, async (payload) => {
    const body = ComputeBatchBody.parse((payload as { body?: unknown }).body ?? payload);
    return computer.compute(body.rows as never, body.year);
  });
}

/**
 * The reply of a portfolio worker (this code, in this or another calculations process): checked for
 * its shape row by row, cheaply. A full contract parse of every row cost as much CPU here as reading
 * the rows from the file; the rows' contract is checked where they are made (compute.unit.spec.ts).
 */
function resultRowsOf(reply: unknown, asked: number): PortfolioResultRow[] {
  if (!Array.isArray(reply) || reply.length !== asked) throw new Error(`a portfolio worker answered ${typeof reply} for ${asked} rows`);
  for (const row of reply as Array<Partial<PortfolioResultRow> | null>) {
    if (typeof row?.row_number !== 'number' || (row.status !== 'OK' && row.status !== 'ERROR')) {
      throw new Error('a portfolio worker answered a row that is not a result row');
    }
  }
  return reply as PortfolioResultRow[];
}

/** Batches sent over the bus to whichever worker process takes them. */
export function busComputer(bus: Bus, subject: string, timeoutMs: number): BatchComputer {
  return {
    async compute(rows, year) {
      return resultRowsOf(await bus.request(subject, { body: { rows, year } }, { timeoutMs }), rows.length);
    },
    computeCpuUs: 0,
    async close() {},
  };
}

export { computeBatch };
