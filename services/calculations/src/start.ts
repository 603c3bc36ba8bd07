import type { Logger } from 'pino';
import type { BlobStore, Bus, Closeable } from '@renopath/platform';
import { openBlobStore } from '@renopath/platform/service/adapters.ts';
import { PortfolioSubjects } from '@renopath/contracts';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
import { startCalculations, type CalculationsService } from './calculations.service.ts';
import { JOB_LIFETIME_MS, MAX_ATTEMPTS, type CalculationsServiceConfig } from './config.ts';
import { createJobRunner, type JobRunnerExtras } from './trajectory/run-job.ts';
import { inlinePlanner, threadPlanner } from './planner/planner-pool.ts';
import { busJobSource, startWorker } from './worker/worker.ts';
import { startJobWebhooks, type WebhookSigner } from './webhooks/job-webhooks.ts';
import { servePortfolioWorker, threadComputer } from './portfolio-run/index.ts';

export const CONTEXT = 'calculations';

export interface CalculationsContextOptions {
  /** Signs webhooks: identity's secret in this process (embedded), or identity over the bus. */
  signer: WebhookSigner;
  extras?: JobRunnerExtras;
  /** The shared blob store where the process holds one (embedded); else the context opens its own (portfolio uploads). */
  blobs?: BlobStore;
}

/** This process's portfolio threads, serving batches from the bus (none with RENOPATH_PORTFOLIO_THREADS=0). */
async function portfolioWorker(config: CalculationsServiceConfig, bus: Bus, log: Logger): Promise<Closeable> {
  if (config.portfolioThreads <= 0) return { close: async () => undefined };
  const computer = threadComputer(config.portfolioThreads, log);
  const served = await servePortfolioWorker(bus, computer, PortfolioSubjects.computeBatch);
  return {
    async close() {
      await served.close();
      await computer.close();
    },
  };
}

/**
 * The calculations context: in role `all`, its storage, relay (`evt.calculations.<EventType>`),
 * process managers, bus handlers, the webhook dispatcher and this process's workers; in role
 * `worker`, only workers, which take jobs over the bus from the process that holds the context.
 */
export async function startCalculationsContext(
  config: CalculationsServiceConfig,
  bus: Bus,
  log: Logger,
  options: CalculationsContextOptions,
) {
  const planner = options.extras?.planner ?? (config.plannerThreads > 0 ? threadPlanner(config.plannerThreads, log) : inlinePlanner());
  const run = createJobRunner(config, log, { ...options.extras, planner });
  const portfolio = await portfolioWorker(config, bus, log);
  if (config.role === 'worker') {
    const worker = startWorker({
      jobs: busJobSource(bus, config.busTimeoutMs),
      log,
      concurrency: Math.max(1, config.workers),
      run,
      busTimeoutMs: config.busTimeoutMs,
    });
    return {
      service: null,
      storage: null,
      worker,
      async close() {
        await worker.close();
        await portfolio.close();
        await planner.close();
      },
    };
  }
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage, settlement, relay } = runtime;
  const ownBlobs = options.blobs ? null : await openBlobStore(config.platform);
  const blobs = options.blobs ?? ownBlobs!;
  const webhooks = await startJobWebhooks({
    config,
    eventStore: storage.eventStore,
    log,
    signer: options.signer,
    leadership: runtime.leadership,
  });
  const service: CalculationsService = await startCalculations({
    // Its reactors run only on the replica that holds the context's lease.
    bus: runtime.bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    log,
    settlement,
    config: {
      settleTimeoutMs: config.settleTimeoutMs,
      busTimeoutMs: config.busTimeoutMs,
      leaseMs: config.leaseMs,
      maxAttempts: MAX_ATTEMPTS,
      jobLifetimeMs: JOB_LIFETIME_MS,
      sweepMs: Math.max(50, Math.min(1_000, Math.floor(config.leaseMs / 4))),
    },
    onFinal: webhooks.onFinal,
    onPassportSigned: webhooks.onPassportSigned,
    webhookDeliveries: webhooks.deliveriesOf,
    portfolio: { blobs, onFinished: webhooks.onPortfolioFinished },
  });
  await runtime.serve();
  // This process's workers take jobs from the context beside them, not over the bus: a claim and a
  // report each cost two crossings of the bus (four thread hops embedded) on every job's path.
  const worker =
    config.workers > 0
      ? startWorker({ jobs: service.jobs, log, concurrency: config.workers, run, busTimeoutMs: config.busTimeoutMs })
      : null;
  return {
    service,
    storage,
    relay,
    worker,
    async close() {
      const stopping = worker?.close();
      service.queue.close();
      await stopping;
      await portfolio.close();
      await planner.close();
      await runtime.close(service, webhooks);
      await ownBlobs?.close();
    },
  };
}
