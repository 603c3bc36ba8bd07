import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { EventStore, EventMetadata } from '@renopath/platform';
import { currentState, handleCommand } from '@renopath/platform/service/decider.ts';
import { safeFetch, type SafeFetchOptions, type SafeFetchResponse } from '@renopath/platform/net/safe-fetch.ts';
import type { CalculationJob } from '@renopath/contracts';
import { webhookDeliveries, webhookDeliveryDuration } from '@renopath/platform/observability/metrics.ts';
import { currentTraceparent, inSpan, SpanKind, traceFields, type Trace } from '@renopath/platform/observability/tracing.ts';
import {
  DELIVERY_STREAM_PREFIX,
  WebhookEventType,
  deliveryStream,
  deliveryView,
  webhookDeliveryDecider,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  type WebhookDeliveryView,
  type WebhookPayload,
} from './webhook-delivery.decider.ts';
import type { WebhookSigner } from './webhook-signer.ts';

/** The guarded fetch's shape (safeFetch); tests and other transports inject their own. */
export type WebhookFetch = (url: string, options: SafeFetchOptions) => Promise<Pick<SafeFetchResponse, 'status'>>;

export interface WebhookDispatcherOptions {
  eventStore: EventStore;
  sign: WebhookSigner;
  fetch?: WebhookFetch;
  /** Delays in ms, one per attempt (parseRetrySchedule of RENOPATH_WEBHOOK_RETRY_SCHEDULE). */
  schedule: number[];
  /** RENOPATH_ALLOW_PRIVATE_NETWORK: without it, private, loopback and link-local receivers are refused. */
  allowPrivateNetwork: boolean;
  /** One attempt's limit (docs/webhooks.md: 10 s). */
  timeoutMs: number;
  now?: () => Date;
  log: Logger;
  /** The longest the dispatcher sleeps between looks at its due deliveries (default 1000 ms). */
  pollMs?: number;
}

export interface WebhookDispatcher {
  /** Records the delivery of a job's final state and sends it when due; once per job and type (a repeat changes nothing). */
  schedule(
    /** A job, or another resource with an id whose end is announced (a portfolio run, a signed passport): the payload's `data`. */
    job: CalculationJob | { id: string },
    client_id: string,
    webhook_url: string,
    type: WebhookEventType,
    cause?: Cause,
  ): Promise<void>;
  /** Every delivery of a job (one per type), with its attempts. */
  deliveriesOf(job_id: string): Promise<WebhookDeliveryView[]>;
  /** Stops the timer and waits for the attempts under way (each bounded by timeoutMs). */
  close(): Promise<void>;
}

/** The answer of a receiver is not read; a large one is cut off rather than held in memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const READ_PAGE = 1000;
const ERROR_TEXT_MAX = 500;

/**
 * A delivery's state, from its stream: folded once, then kept by this process with the commands it
 * records, so an attempt does not parse the stored body again (a job's JSON, tens of kilobytes).
 */
const loadDelivery = (eventStore: EventStore, stream: string): Promise<WebhookDeliveryState> =>
  currentState(eventStore, stream, webhookDeliveryDecider);

/** What a delivery is scheduled for: the event (or request) whose trace and correlation id it goes on in. */
export type Cause = { correlation_id?: string; causation_id?: string | null; traceparent?: string | undefined };
type Scheduled = NonNullable<WebhookDeliveryState['scheduled']>;

/** The metadata of what the dispatcher records: no user acts, the client is the webhook's. */
const systemMetadata = (client_id: string | null, cause?: Cause): EventMetadata => ({
  actor: { user_id: null, client_id },
  correlation_id: cause?.correlation_id ?? randomUUID(),
  causation_id: cause?.causation_id ?? null,
  ...(cause?.traceparent ? { traceparent: cause.traceparent } : {}),
});

/** The streams that hold a delivery: the log read once, page by page. */
async function deliveryStreams(eventStore: EventStore): Promise<Set<string>> {
  const streams = new Set<string>();
  for (let after = 0n; ; ) {
    const page = await eventStore.readAll({ after, maxCount: READ_PAGE });
    for (const e of page) if (e.type === 'DeliveryScheduled' && e.stream.startsWith(DELIVERY_STREAM_PREFIX)) streams.add(e.stream);
    if (page.length < READ_PAGE) return streams;
    after = page[page.length - 1]!.position;
  }
}

/** The command that records the delivery of `job`'s end of `type` to the client's URL, sent by `scheduleMs`. */
function scheduleCommand(
  job: { id: string },
  client_id: string,
  url: string,
  type: WebhookEventType,
  at: string,
  scheduleMs: number[],
): WebhookDeliveryCommand {
  const payload: WebhookPayload = { type, timestamp: at, data: job as unknown as Record<string, unknown> };
  const body = JSON.stringify(payload);
  const delivery = { webhook_id: `msg_${randomUUID()}`, job_id: job.id, client_id, url, type, body, schedule_ms: scheduleMs };
  return { type: 'ScheduleDelivery', now: at, delivery };
}

/** The trace and correlation id a delivery was scheduled in. */
type Origin = Partial<Trace>;

/** Where a delivery is scheduled: the span under way when spans are recorded, else the cause's trace; the cause's correlation id. */
function originOf(cause?: Cause): Origin {
  const traceparent = currentTraceparent() ?? cause?.traceparent;
  const correlation_id = cause?.correlation_id;
  return { ...(traceparent ? { traceparent } : {}), ...(correlation_id ? { correlation_id } : {}) };
}

/** Runs a delivery's attempt in a span of the trace it was scheduled in (when spans are recorded). */
function inTraceOf(origin: Origin | undefined, stream: string, attempt: () => Promise<void>): Promise<void> {
  return inSpan(
    'webhook delivery',
    { kind: SpanKind.CLIENT, traceparent: origin?.traceparent, attributes: { 'renopath.stream': stream } },
    attempt,
  );
}

/** What an attempt needs besides its delivery: how it is signed and sent, and within what limits. */
interface Sender {
  sign: WebhookSigner;
  send: WebhookFetch;
  timeoutMs: number;
  allowPrivateNetwork: boolean;
}

/** One signed POST of a delivery: what the receiver answered, or why there was no answer (`refused`: an unsafe URL). */
async function post(
  sender: Sender,
  s: Scheduled,
  started: Date,
): Promise<{ status_code: number | null; error: string | null; refused: boolean }> {
  try {
    const timestamp = Math.floor(started.getTime() / 1000);
    const signature = await sender.sign(s.client_id, { id: s.webhook_id, timestamp, body: s.body });
    const answer = await sender.send(s.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Renopath-Webhooks/1',
        'webhook-id': s.webhook_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      body: s.body,
      timeoutMs: sender.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      allowPrivateNetwork: sender.allowPrivateNetwork,
      // A redirected signed POST would arrive as a GET elsewhere: the receiver must answer at its URL.
      maxRedirects: 0,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return { status_code: answer.status, error: ok ? null : `the receiver answered ${answer.status}`, refused: false };
  } catch (err) {
    return {
      status_code: null,
      error: (err instanceof Error ? err.message : String(err)).slice(0, ERROR_TEXT_MAX),
      // By name, so an injected fetch can refuse a URL too.
      refused: err instanceof Error && err.name === 'UnsafeUrlError',
    };
  }
}

/** Counts an attempt by what it led to, and logs it. */
function reportAttempt(log: Logger, s: Scheduled, attempt: number, error: string | null, state: WebhookDeliveryState): void {
  const outcome = state.status;
  webhookDeliveries.inc({ outcome: outcome === 'DELIVERED' ? 'delivered' : outcome === 'GAVE_UP' ? 'gave_up' : 'retrying' });
  const about = { job_id: s.job_id, type: s.type, attempt };
  if (outcome === 'DELIVERED') log.info(about, 'webhook delivered');
  else if (outcome === 'GAVE_UP') log.warn({ ...about, error, reason: state.gave_up_reason }, 'webhook given up');
  else log.info({ ...about, error, next_attempt_at: state.due_at }, 'webhook attempt failed; retrying');
}

/** The next attempt of a pending delivery: sent, then recorded as an event of its stream. Returns the delivery's state after it. */
async function attemptDelivery(
  deps: { eventStore: EventStore; sender: Sender; now: () => Date; log: Logger },
  stream: string,
  state: WebhookDeliveryState,
  s: Scheduled,
): Promise<WebhookDeliveryState> {
  const attempt = state.attempts.length + 1;
  const started = deps.now();
  const t0 = performance.now();
  const { status_code, error, refused } = await post(deps.sender, s, started);
  const elapsed = performance.now() - t0;
  webhookDeliveryDuration.observe(elapsed / 1000);
  const at = started.toISOString();
  const command: WebhookDeliveryCommand = {
    type: 'RecordAttempt',
    attempt,
    at,
    status_code,
    error,
    duration_ms: Math.round(elapsed),
    refused,
  };
  const result = await handleCommand(deps.eventStore, stream, webhookDeliveryDecider, command, {
    metadata: systemMetadata(s.client_id),
    now: deps.now().toISOString(),
  });
  reportAttempt(deps.log, s, attempt, error, result.state);
  return result.state;
}

/**
 * Sends job webhooks (docs/webhooks.md) and records every attempt as an event of the delivery's stream.
 * Pending deliveries are rebuilt from the event store at start, so a restart resumes the retries;
 * a crash between sending and recording re-sends that attempt with the same `webhook-id` (at least
 * once, as Standard Webhooks receivers expect). One dispatcher per event store: two would both send.
 */
export async function startWebhookDispatcher(options: WebhookDispatcherOptions): Promise<WebhookDispatcher> {
  const { eventStore, sign, schedule: scheduleMs, allowPrivateNetwork, timeoutMs, log } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  if (scheduleMs.length === 0) throw new Error('the webhook retry schedule needs at least one attempt');
  const deps = { eventStore, sender: { sign, send: options.fetch ?? safeFetch, timeoutMs, allowPrivateNetwork }, now, log };

  /** Pending deliveries by stream: when each is due. */
  const due = new Map<string, number>();
  const inFlight = new Map<string, Promise<void>>();
  /**
   * The trace and correlation id each delivery was scheduled in (the job's), so its attempts and their
   * log lines join that trace. Kept in memory: deliveries resumed after a restart get traces of their own.
   */
  const origins = new Map<string, Origin>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const load = (stream: string) => loadDelivery(eventStore, stream);

  function track(stream: string, state: WebhookDeliveryState): void {
    if (state.status === 'PENDING' && state.due_at !== null) due.set(stream, Date.parse(state.due_at));
    else {
      due.delete(stream);
      origins.delete(stream);
    }
  }

  // Rebuild: the state of every delivery in the log, so a restart resumes its retries.
  for (const stream of await deliveryStreams(eventStore)) track(stream, await load(stream));
  if (due.size > 0) log.info({ pending: due.size }, 'webhook deliveries resumed');

  function wake(): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    let next = Infinity;
    for (const [stream, at] of due) if (!inFlight.has(stream)) next = Math.min(next, at);
    const wait = Math.max(0, Math.min(pollMs, next - now().getTime()));
    timer = setTimeout(tick, wait);
    timer.unref();
  }

  function tick(): void {
    timer = null;
    if (closed) return;
    const t = now().getTime();
    for (const [stream, at] of due) {
      if (at > t || inFlight.has(stream)) continue;
      const origin = origins.get(stream);
      const run = inTraceOf(origin, stream, () => attempt(stream, origin))
        .catch((err) => log.error({ err, stream }, 'webhook attempt could not be recorded; it is tried again'))
        .finally(() => {
          inFlight.delete(stream);
          wake();
        });
      inFlight.set(stream, run);
    }
    wake();
  }

  async function attempt(stream: string, origin: Origin | undefined): Promise<void> {
    const state = await load(stream);
    const s = state.scheduled;
    // The attempt's log lines name the trace and correlation id it was scheduled in.
    const logged = origin ? { ...deps, log: log.child(traceFields(origin)) } : deps;
    track(stream, state.status === 'PENDING' && s ? await attemptDelivery(logged, stream, state, s) : state);
  }

  wake();

  return {
    async schedule(job, client_id, webhook_url, type, cause) {
      if (!WebhookEventType.includes(type)) throw new Error(`unknown webhook type ${type}`);
      const stream = deliveryStream(job.id, type);
      const at = now().toISOString();
      const command = scheduleCommand(job, client_id, webhook_url, type, at, scheduleMs);
      const result = await handleCommand(eventStore, stream, webhookDeliveryDecider, command, {
        metadata: systemMetadata(client_id, cause),
        now: at,
      });
      origins.set(stream, originOf(cause));
      if (!inFlight.has(stream)) track(stream, result.state);
      wake();
    },

    async deliveriesOf(job_id) {
      const views = await Promise.all(WebhookEventType.map(async (type) => deliveryView(await load(deliveryStream(job_id, type)))));
      return views.filter((view): view is WebhookDeliveryView => view !== null);
    },

    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
