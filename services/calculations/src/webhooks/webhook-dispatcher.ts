import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { EventStore, EventMetadata } from '@renopath/platform';
import { fold, handleCommand, type DomainEvent } from '@renopath/platform/service/decider.ts';
import { safeFetch, type SafeFetchOptions, type SafeFetchResponse } from '@renopath/platform/net/safe-fetch.ts';
import type { CalculationJob } from '@renopath/contracts';
import { webhookDeliveries, webhookDeliveryDuration } from '@renopath/platform/observability/metrics.ts';
import { currentCorrelation, currentTraceparent, inSpan, SpanKind, withCorrelation } from '@renopath/platform/observability/tracing.ts';
import {
  DELIVERY_STREAM_PREFIX,
  WebhookEventType,
  deliveryStream,
  deliveryView,
  webhookDeliveryDecider,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
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
    cause?: { correlation_id?: string; causation_id?: string | null },
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

const toDomain = (e: { type: string; data: Record<string, unknown> }) =>
  ({ type: e.type, data: e.data }) as DomainEvent as WebhookDeliveryEvent;

/**
 * Sends job webhooks (docs/webhooks.md) and records every attempt as an event of the delivery's stream.
 * Pending deliveries are rebuilt from the event store at start, so a restart resumes the retries;
 * a crash between sending and recording re-sends that attempt with the same `webhook-id` (at least
 * once, as Standard Webhooks receivers expect). One dispatcher per event store: two would both send.
 */
export async function startWebhookDispatcher(options: WebhookDispatcherOptions): Promise<WebhookDispatcher> {
  const { eventStore, sign, schedule: scheduleMs, allowPrivateNetwork, timeoutMs, log } = options;
  const send: WebhookFetch = options.fetch ?? safeFetch;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  if (scheduleMs.length === 0) throw new Error('the webhook retry schedule needs at least one attempt');

  /** Pending deliveries by stream: when each is due. */
  const due = new Map<string, number>();
  const inFlight = new Map<string, Promise<void>>();
  /**
   * The trace and correlation id each delivery was scheduled in (the job's), so its attempts and their
   * log lines join that trace. Kept in memory: deliveries resumed after a restart get traces of their own.
   */
  const origins = new Map<string, { traceparent?: string; correlation_id?: string }>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const system = (client_id: string | null, cause?: { correlation_id?: string; causation_id?: string | null }): EventMetadata => ({
    actor: { user_id: null, client_id },
    correlation_id: cause?.correlation_id ?? randomUUID(),
    causation_id: cause?.causation_id ?? null,
  });

  async function load(stream: string): Promise<WebhookDeliveryState> {
    return fold(webhookDeliveryDecider, (await eventStore.readStream(stream)).map(toDomain));
  }

  function track(stream: string, state: WebhookDeliveryState): void {
    if (state.status === 'PENDING' && state.due_at !== null) due.set(stream, Date.parse(state.due_at));
    else {
      due.delete(stream);
      origins.delete(stream);
    }
  }

  // Rebuild: the streams with a delivery, then each one's state (the log is read once, page by page).
  const streams = new Set<string>();
  for (let after = 0n; ; ) {
    const page = await eventStore.readAll({ after, maxCount: READ_PAGE });
    for (const e of page) if (e.type === 'DeliveryScheduled' && e.stream.startsWith(DELIVERY_STREAM_PREFIX)) streams.add(e.stream);
    if (page.length < READ_PAGE) break;
    after = page[page.length - 1]!.position;
  }
  for (const stream of streams) track(stream, await load(stream));
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
      const traced = () =>
        inSpan(
          'webhook delivery',
          { kind: SpanKind.CLIENT, traceparent: origin?.traceparent, attributes: { 'renopath.stream': stream } },
          () => attempt(stream),
        );
      const run = (origin?.correlation_id ? withCorrelation(origin.correlation_id, traced) : traced())
        .catch((err) => log.error({ err, stream }, 'webhook attempt could not be recorded; it is tried again'))
        .finally(() => {
          inFlight.delete(stream);
          wake();
        });
      inFlight.set(stream, run);
    }
    wake();
  }

  async function attempt(stream: string): Promise<void> {
    const state = await load(stream);
    const s = state.scheduled;
    if (state.status !== 'PENDING' || !s) {
      track(stream, state);
      return;
    }
    const number = state.attempts.length + 1;
    const started = now();
    const t0 = performance.now();
    let status_code: number | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      const timestamp = Math.floor(started.getTime() / 1000);
      const signature = await sign(s.client_id, { id: s.webhook_id, timestamp, body: s.body });
      const answer = await send(s.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Renopath-Webhooks/1',
          'webhook-id': s.webhook_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        body: s.body,
        timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        allowPrivateNetwork,
        // A redirected signed POST would arrive as a GET elsewhere: the receiver must answer at its URL.
        maxRedirects: 0,
      });
      status_code = answer.status;
      if (answer.status < 200 || answer.status >= 300) error = `the receiver answered ${answer.status}`;
    } catch (err) {
      // By name, so an injected fetch can refuse a URL too.
      refused = err instanceof Error && err.name === 'UnsafeUrlError';
      error = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_TEXT_MAX);
    }
    const elapsed = performance.now() - t0;
    webhookDeliveryDuration.observe(elapsed / 1000);
    const duration_ms = Math.round(elapsed);
    const command: WebhookDeliveryCommand = {
      type: 'RecordAttempt',
      attempt: number,
      at: started.toISOString(),
      status_code,
      error,
      duration_ms,
      refused,
    };
    const result = await handleCommand(eventStore, stream, webhookDeliveryDecider, command, {
      metadata: system(s.client_id),
      now: now().toISOString(),
    });
    track(stream, result.state);
    const outcome = result.state.status;
    webhookDeliveries.inc({ outcome: outcome === 'DELIVERED' ? 'delivered' : outcome === 'GAVE_UP' ? 'gave_up' : 'retrying' });
    if (outcome === 'DELIVERED') log.info({ job_id: s.job_id, type: s.type, attempt: number }, 'webhook delivered');
    else if (outcome === 'GAVE_UP')
      log.warn({ job_id: s.job_id, type: s.type, attempt: number, error, reason: result.state.gave_up_reason }, 'webhook given up');
    else
      log.info(
        { job_id: s.job_id, type: s.type, attempt: number, error, next_attempt_at: result.state.due_at },
        'webhook attempt failed; retrying',
      );
  }

  wake();

  return {
    async schedule(job, client_id, webhook_url, type, cause) {
      if (!WebhookEventType.includes(type)) throw new Error(`unknown webhook type ${type}`);
      const stream = deliveryStream(job.id, type);
      const at = now().toISOString();
      const payload: WebhookPayload = { type, timestamp: at, data: job as unknown as Record<string, unknown> };
      const result = await handleCommand(
        eventStore,
        stream,
        webhookDeliveryDecider,
        {
          type: 'ScheduleDelivery',
          now: at,
          delivery: {
            webhook_id: `msg_${randomUUID()}`,
            job_id: job.id,
            client_id,
            url: webhook_url,
            type,
            payload,
            body: JSON.stringify(payload),
            schedule_ms: scheduleMs,
          },
        },
        { metadata: system(client_id, cause), now: at },
      );
      const traceparent = currentTraceparent();
      const correlation_id = cause?.correlation_id ?? currentCorrelation();
      origins.set(stream, { ...(traceparent ? { traceparent } : {}), ...(correlation_id ? { correlation_id } : {}) });
      if (!inFlight.has(stream)) track(stream, result.state);
      wake();
    },

    async deliveriesOf(job_id) {
      const views: WebhookDeliveryView[] = [];
      for (const type of WebhookEventType) {
        const view = deliveryView(await load(deliveryStream(job_id, type)));
        if (view) views.push(view);
      }
      return views;
    },

    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
