import type { Logger } from 'pino';
import type { BlobStore, Bus, Closeable, EventStore, ReadStore } from '@renopath/platform';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { watchQueue } from '@renopath/platform/observability/metrics.ts';
import { CalculationsSubjects as S, PortfolioSubjects, type PortfolioRun } from '@renopath/contracts';
import { startRolesReactor } from './access/roles.reactor.ts';
import { startPassportWebhooksReactor, type OnPassportSigned } from './webhooks/passport-webhooks.reactor.ts';
import { startEstateDirectoryReactor } from './estate-directory/estate-directory.reactor.ts';
import { startFinalStates, type OnFinal } from './final-states/final-states.process.ts';
import { startIndications } from './indication/indication.handlers.ts';
import { startJobRenovationsReactor } from './final-states/job-renovations.reactor.ts';
import { isFinal } from './job/job.decider.ts';
import { jobHandlers } from './job/job.handlers.ts';
import { jobQueries } from './job-views/job.queries.ts';
import { calculationsKit, type CalculationsConfig, type Handler } from './kit/calculations-kit.ts';
import { busComputer, startPortfolioRuns } from './portfolio-run/index.ts';
import type { RunDoc } from './portfolio-run/store.ts';
import { JOB_VIEWS } from './projections.ts';
import { startSweep } from './work-queue/sweep.ts';
import { WorkQueue } from './work-queue/work-queue.ts';
import type { JobSource } from './worker/worker.ts';

export type { CalculationsConfig } from './kit/calculations-kit.ts';
export { childJobIdOf } from './job/job.handlers.ts';

export interface CalculationsDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  config: CalculationsConfig;
  log: Logger;
  settlement?: Settlement;
  now?: () => Date;
  /** Called for each job that reaches FINISHED, FAILED or STOPPED (the webhook dispatcher). */
  onFinal?: OnFinal;
  /** Called for each renovation passport signed in the reporting context (its webhook). Without it, none is followed. */
  onPassportSigned?: OnPassportSigned;
  /** The webhook attempts of a job (extension endpoint). */
  webhookDeliveries?: (job_id: string) => Promise<unknown[]>;
  /** Portfolio runs: where uploads are read, and what a FINISHED run calls (its webhook). Without it, none. */
  portfolio?: {
    blobs: BlobStore;
    onFinished?: (run: PortfolioRun, doc: RunDoc) => Promise<void>;
  };
}

export interface CalculationsService {
  projection: Projection;
  queue: WorkQueue;
  /** What `claim-job` and `complete-job` do, for a worker in this process (start.ts): no bus between them. */
  jobs: JobSource;
  close(): Promise<void>;
}

/**
 * The calculations context: starts its projection, process managers, reactors and the sweep, and
 * wires each bus subject to its handler. The handlers live with their aggregate or read model.
 */
export async function startCalculations(deps: CalculationsDeps): Promise<CalculationsService> {
  const { bus, eventStore: store, readStore: reads, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const queue = new WorkQueue(reads);
  const unwatchQueue = watchQueue(queue);
  const projection = runProjection({
    ...JOB_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'job views projection failed; retrying'),
  });
  const kit = calculationsKit({
    bus,
    store,
    reads,
    projection,
    queue,
    config,
    log,
    now,
    ...(deps.webhookDeliveries ? { webhookDeliveries: deps.webhookDeliveries } : {}),
  });

  const finals = deps.onFinal ? startFinalStates(kit, deps.onFinal) : null;

  const job = jobHandlers(kit);
  const queries = jobQueries(kit);
  const indications = startIndications({
    eventStore: store,
    readStore: reads,
    log,
    now,
    settleTimeoutMs: config.settleTimeoutMs,
    isWriter: kit.isWriter,
  });
  const handlers: Record<string, Handler> = {
    [S.createTrajectoryJob]: job.handlers.create,
    [S.stopJob]: job.handlers.stop,
    [S.getJob]: queries.get,
    [S.listJobs]: queries.list,
    [S.webhookDeliveries]: queries.webhookDeliveries,
    // Workers (internal): their bodies are this context's own.
    [S.claimJob]: job.handlers.claim,
    [S.completeJob]: job.handlers.complete,
    [S.renewLease]: job.handlers.renewLease,
    [S.childDocumentJob]: job.handlers.childDocumentJob,
    ...indications.handlers,
  };

  // Portfolio runs: their batches go out on the bus to every calculations process's portfolio threads (this one's too).
  const portfolio = deps.portfolio
    ? await startPortfolioRuns({
        eventStore: store,
        readStore: reads,
        blobs: deps.portfolio.blobs,
        log,
        computer: busComputer(bus, PortfolioSubjects.computeBatch, Math.max(config.busTimeoutMs, 60_000)),
        settleTimeoutMs: config.settleTimeoutMs,
        now,
        isWriter: kit.isWriter,
        inFlight: 4,
        ...(deps.portfolio.onFinished ? { onFinished: deps.portfolio.onFinished } : {}),
      })
    : null;
  if (portfolio) Object.assign(handlers, portfolio.bySubject);

  const withSettlement = deps.settlement ? { settlement: deps.settlement } : {};
  const estateDirectory = await startEstateDirectoryReactor({ bus, readStore: reads, log, ...withSettlement });
  const roles = await startRolesReactor({ bus, readStore: reads, log, ...withSettlement });
  const jobRenovations = deps.onFinal ? await startJobRenovationsReactor(kit, { bus, onFinal: deps.onFinal, ...withSettlement }) : null;
  const passportWebhooks = deps.onPassportSigned
    ? await startPassportWebhooksReactor({ bus, log, onSigned: deps.onPassportSigned, ...withSettlement })
    : null;
  const sweep = startSweep(kit);
  const served: Closeable[] = await serveMessages(bus, handlers);

  return {
    projection,
    queue,
    jobs: job.jobs,
    async close() {
      const sweeping = sweep.close();
      unwatchQueue();
      queue.close();
      await sweeping;
      for (const s of served) await s.close();
      await estateDirectory.close();
      await roles.close();
      await jobRenovations?.close();
      await passportWebhooks?.close();
      await finals?.close();
      await indications.close();
      await portfolio?.close();
      await projection.close();
    },
  };
}

export { isFinal };
