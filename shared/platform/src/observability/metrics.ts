import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

/**
 * Every metric family Renopath exports, defined once (docs/operations.md lists them). Each thread of
 * a process has its own copy of this module and so its own registry: embedded mode's main thread
 * merges its context threads' figures into what it serves on /metrics (`mergedMetrics`).
 *
 * What the hot path pays: a histogram observation or a counter increment (a map look-up by label
 * values); lags are computed only when scraped.
 */
export const registry = new Registry();

/** Requests in seconds: sub-millisecond health checks up to the 30 s of a slow upload. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'renopath_http_request_duration_seconds',
  help: 'HTTP requests answered by the gateway, by route pattern, method and status code (the _count is the number of requests)',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const busRequestDuration = new Histogram({
  name: 'renopath_bus_request_duration_seconds',
  help: 'Bus requests (commands and queries) sent by this process, by subject and outcome (ok, domain_error, unavailable, error)',
  labelNames: ['subject', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const eventStoreAppendDuration = new Histogram({
  name: 'renopath_event_store_append_duration_seconds',
  help: "Appends to a context's event store, by context and outcome (ok, conflict, error)",
  labelNames: ['context', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobsTotal = new Counter({
  name: 'renopath_jobs_total',
  help: 'Calculation jobs that reached a status (NOT_STARTED when created, RUNNING for each attempt, then FINISHED, FAILED or STOPPED)',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'renopath_job_duration_seconds',
  help: 'From creation to the final status of a calculation job, by that status',
  labelNames: ['status'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
  registers: [registry],
});

export const jobAttempts = new Histogram({
  name: 'renopath_job_attempts',
  help: 'Attempts a calculation job took before its final status (0: stopped or failed before a worker took it)',
  labelNames: ['status'] as const,
  buckets: [0, 1, 2, 3],
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'renopath_webhook_deliveries_total',
  help: 'Webhook attempts by outcome: delivered, retrying (a failed attempt with another to come), gave_up',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'renopath_webhook_delivery_duration_seconds',
  help: "One webhook attempt, from sending to the receiver's answer (or the error)",
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** What a queue-depth gauge asks at scrape time. */
export interface QueueDepth {
  readonly depth: number;
}
const queues = new Set<QueueDepth>();
new Gauge({
  name: 'renopath_job_queue_depth',
  help: 'Calculation jobs waiting for a worker in this process',
  registers: [registry],
  collect() {
    let depth = 0;
    for (const queue of queues) depth += queue.depth;
    this.set(depth);
  },
});
/** Counts `queue` in renopath_job_queue_depth until the returned function is called. */
export function watchQueue(queue: QueueDepth): () => void {
  queues.add(queue);
  return () => queues.delete(queue);
}

/** A follower of a context's event log: how far it is behind the log's head, asked at scrape time. */
export interface LogFollower {
  context: string;
  /** `projection`, `process_manager` or `relay`. */
  kind: string;
  name: string;
  /** Events between the follower's position and the head (0 when caught up), or null when it cannot tell now. */
  lag(): Promise<number | null>;
}
const followers = new Set<LogFollower>();
new Gauge({
  name: 'renopath_projection_lag_events',
  help: "Events of a context's log not yet applied by one of its projections, process managers or its relay to the bus",
  labelNames: ['context', 'kind', 'name'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    await Promise.all(
      [...followers].map(async (f) => {
        const lag = await f.lag().catch(() => null);
        if (lag !== null) this.set({ context: f.context, kind: f.kind, name: f.name }, lag);
      }),
    );
  },
});
/** How far `processed` is behind the head of `store`'s log; null before the follower has read its checkpoint. */
export async function lagBehind(store: { headPosition(): Promise<bigint> }, processed: bigint): Promise<number | null> {
  if (processed < 0n) return null;
  const head = await store.headPosition();
  return head > processed ? Number(head - processed) : 0;
}

/** Reports `follower` in renopath_projection_lag_events until the returned function is called. */
export function watchFollower(follower: LogFollower): () => void {
  followers.add(follower);
  return () => followers.delete(follower);
}

export const reactorLag = new Gauge({
  name: 'renopath_reactor_lag_seconds',
  help: "Age of the last event a context's reactor (a durable bus consumer) took, when it took it: how far behind the events it follows",
  labelNames: ['context', 'consumer'] as const,
  registers: [registry],
});

let defaultsOn = false;
/** Process metrics (CPU, memory, event loop lag, handles, GC), once per process: the main thread's job. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry, prefix: 'renopath_' });
}

/** A thread's figures as `registry.getMetricsAsJSON()` gives them (structured-clonable, so they cross to the main thread). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];
/** Asks another thread for its figures. */
export type ThreadMetrics = () => Promise<MetricsJson>;

/** This thread's figures, for the main thread to merge. */
export const metricsOfThisThread = (): Promise<MetricsJson> => registry.getMetricsAsJSON();

/**
 * The text /metrics serves: this thread's registry merged with what `others` (context threads) report.
 * Families appear once; their series add up (each thread reports its own contexts' labels).
 */
export async function mergedMetrics(others: ThreadMetrics[] = []): Promise<{ contentType: string; text: string }> {
  if (others.length === 0) return { contentType: registry.contentType, text: await registry.metrics() };
  const all = await Promise.all([registry.getMetricsAsJSON(), ...others.map((other) => other())]);
  const merged = AggregatorRegistry.aggregate(all as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  return { contentType: registry.contentType, text: await merged.metrics() };
}
