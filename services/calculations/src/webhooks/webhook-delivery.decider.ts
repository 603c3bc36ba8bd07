import { type WebhookDeliveryView as ContractDeliveryView, WebhookDeliveryType } from '@renopath/contracts';
import type { Decider, DomainEvent } from '@renopath/platform/service/decider.ts';

/**
 * One webhook delivery (docs/webhooks.md): a job's final state sent to its client's `webhook_url`, retried
 * on the schedule until a 2xx answer (Delivered) or the last attempt (GaveUp). Pure: the dispatcher
 * sends, this decides what an attempt's outcome means.
 */

// docs/portfolio-runs.md: a portfolio run's end carries the run as `data` (the delivery's `job_id` is the run's id).
export const WebhookEventType = WebhookDeliveryType.options;
export type WebhookEventType = (typeof WebhookEventType)[number];

export const DELIVERY_STREAM_PREFIX = 'webhook-delivery-';
export const deliveryStream = (job_id: string, type: WebhookEventType) => `${DELIVERY_STREAM_PREFIX}${job_id}-${type}`;

export type WebhookPayload = {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
};

export type DeliveryScheduledData = {
  /** The `webhook-id` header: the same on every attempt, so the receiver can drop a repeat. */
  webhook_id: string;
  job_id: string;
  client_id: string;
  url: string;
  type: WebhookEventType;
  /**
   * The payload (`WebhookPayload`) serialised once: every attempt signs and sends exactly these bytes.
   * Only the bytes are recorded: the payload is a job's whole result, and a second copy of it as an
   * object doubled what each job's delivery wrote and what every reader of the log read.
   */
  body: string;
  /** Delays (ms) of the schedule in force when the delivery was made; a later change of configuration applies to new deliveries. */
  schedule_ms: number[];
  due_at: string;
};

export type AttemptRecordedData = {
  webhook_id: string;
  job_id: string;
  /** 1-based. */
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
};

export type GaveUpReason = 'ATTEMPTS_EXHAUSTED' | 'URL_REFUSED';

export type WebhookDeliveryEvent =
  | DomainEvent<'DeliveryScheduled', DeliveryScheduledData>
  | DomainEvent<'AttemptRecorded', AttemptRecordedData>
  | DomainEvent<'Delivered', { webhook_id: string; job_id: string; at: string }>
  | DomainEvent<'GaveUp', { webhook_id: string; job_id: string; at: string; reason: GaveUpReason }>;

export type WebhookDeliveryCommand =
  | { type: 'ScheduleDelivery'; now: string; delivery: Omit<DeliveryScheduledData, 'due_at'> }
  | {
      type: 'RecordAttempt';
      attempt: number;
      at: string;
      status_code: number | null;
      error: string | null;
      duration_ms: number;
      /** The URL was refused before any request (private address, bad scheme): retrying cannot help. */
      refused: boolean;
    };

export type DeliveryStatus = 'NONE' | 'PENDING' | 'DELIVERED' | 'GAVE_UP';

export interface WebhookDeliveryState {
  status: DeliveryStatus;
  scheduled: DeliveryScheduledData | null;
  attempts: AttemptRecordedData[];
  /** When the next attempt is due; null unless PENDING. */
  due_at: string | null;
  delivered_at: string | null;
  gave_up_at: string | null;
  gave_up_reason: GaveUpReason | null;
}

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState: () => ({
    status: 'NONE',
    scheduled: null,
    attempts: [],
    due_at: null,
    delivered_at: null,
    gave_up_at: null,
    gave_up_reason: null,
  }),

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleDelivery': {
        // Once per job and type: a repeated request (a worker retrying its last step) keeps the first delivery and its id.
        if (state.status !== 'NONE') return [];
        const { now, delivery } = command;
        if (delivery.schedule_ms.length === 0) throw new Error('a webhook schedule needs at least one attempt');
        return [{ type: 'DeliveryScheduled', data: { ...delivery, due_at: plus(now, delivery.schedule_ms[0]!) } }];
      }
      case 'RecordAttempt': {
        const s = state.scheduled;
        // Never again once Delivered or given up; a repeated record of the same attempt changes nothing.
        if (state.status !== 'PENDING' || !s || command.attempt !== state.attempts.length + 1) return [];
        const ids = { webhook_id: s.webhook_id, job_id: s.job_id };
        const recorded: WebhookDeliveryEvent = {
          type: 'AttemptRecorded',
          data: {
            ...ids,
            attempt: command.attempt,
            at: command.at,
            status_code: command.status_code,
            error: command.error,
            duration_ms: command.duration_ms,
          },
        };
        if (isSuccess(command.status_code) && command.error === null)
          return [recorded, { type: 'Delivered', data: { ...ids, at: command.at } }];
        if (command.refused) return [recorded, { type: 'GaveUp', data: { ...ids, at: command.at, reason: 'URL_REFUSED' } }];
        if (command.attempt >= s.schedule_ms.length)
          return [recorded, { type: 'GaveUp', data: { ...ids, at: command.at, reason: 'ATTEMPTS_EXHAUSTED' } }];
        return [recorded];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DeliveryScheduled':
        return { ...state, status: 'PENDING', scheduled: event.data, due_at: event.data.due_at };
      case 'AttemptRecorded': {
        const attempts = [...state.attempts, event.data];
        const delay = state.scheduled?.schedule_ms[event.data.attempt];
        return { ...state, attempts, due_at: delay === undefined ? null : plus(event.data.at, delay) };
      }
      case 'Delivered':
        return { ...state, status: 'DELIVERED', due_at: null, delivered_at: event.data.at };
      case 'GaveUp':
        return { ...state, status: 'GAVE_UP', due_at: null, gave_up_at: event.data.at, gave_up_reason: event.data.reason };
      default:
        return state;
    }
  },
};

/**
 * What a reader of a job's deliveries sees (support, the job's detail, tests): the contract's view, so a
 * field written here and missing from the published schema fails the type check.
 */
export type WebhookDeliveryView = ContractDeliveryView;

export function deliveryView(state: WebhookDeliveryState): WebhookDeliveryView | null {
  const s = state.scheduled;
  if (state.status === 'NONE' || !s) return null;
  return {
    webhook_id: s.webhook_id,
    job_id: s.job_id,
    type: s.type,
    url: s.url,
    status: state.status,
    attempts: state.attempts.map(({ webhook_id: _w, job_id: _j, ...a }) => a),
    next_attempt_at: state.due_at,
    delivered_at: state.delivered_at,
    gave_up_at: state.gave_up_at,
    gave_up_reason: state.gave_up_reason,
  };
}
