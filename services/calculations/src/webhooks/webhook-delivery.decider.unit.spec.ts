import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import {
  deliveryView,
  webhookDeliveryDecider,
  type AttemptRecordedData,
  type DeliveryScheduledData,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
} from './webhook-delivery.decider.ts';

const spec = deciderSpec(webhookDeliveryDecider);
const ids = { webhook_id: 'msg_1', job_id: 'job-1' };
const T0 = '2026-01-01T00:00:00.000Z';
const delivery: Omit<DeliveryScheduledData, 'due_at'> = {
  ...ids,
  client_id: 'client-1',
  url: 'https://hooks.example/x',
  type: 'calculation_job.finished',
  body: '{"type":"calculation_job.finished"}',
  schedule_ms: [0, 5000, 60_000],
};
const scheduled: WebhookDeliveryEvent = { type: 'DeliveryScheduled', data: { ...delivery, due_at: T0 } };
const attempt = (n: number, status_code: number | null, at = T0, refused = false): WebhookDeliveryCommand => ({
  type: 'RecordAttempt',
  attempt: n,
  at,
  status_code,
  error: status_code !== null && status_code < 300 ? null : 'failed',
  duration_ms: 12,
  refused,
});
const recorded = (n: number, status_code: number | null, at = T0): WebhookDeliveryEvent => {
  const data: AttemptRecordedData = {
    ...ids,
    attempt: n,
    at,
    status_code,
    error: status_code !== null && status_code < 300 ? null : 'failed',
    duration_ms: 12,
  };
  return { type: 'AttemptRecorded', data };
};

describe('webhook delivery decider', () => {
  it('schedules the first attempt after the first delay', () => {
    spec
      .given([])
      .when({ type: 'ScheduleDelivery', now: T0, delivery: { ...delivery, schedule_ms: [250, 1000] } })
      .then([{ type: 'DeliveryScheduled', data: { ...delivery, schedule_ms: [250, 1000], due_at: '2026-01-01T00:00:00.250Z' } }]);
  });

  it('schedules once per job and type: a repeat keeps the first delivery and its webhook id', () => {
    spec
      .given([scheduled])
      .when({ type: 'ScheduleDelivery', now: T0, delivery: { ...delivery, webhook_id: 'msg_2' } })
      .then([]);
  });

  it('a 2xx answer delivers', () => {
    spec
      .given([scheduled])
      .when(attempt(1, 204))
      .then([recorded(1, 204), { type: 'Delivered', data: { ...ids, at: T0 } }]);
  });

  it('a failure records the attempt and makes the next due at the next delay', () => {
    spec
      .given([scheduled])
      .when(attempt(1, 500))
      .then([recorded(1, 500)]);
    const state = fold(webhookDeliveryDecider, [scheduled, recorded(1, 500)]);
    expect(state.status).toBe('PENDING');
    expect(state.due_at).toBe('2026-01-01T00:00:05.000Z');
  });

  it('gives up after the last attempt of the schedule', () => {
    spec
      .given([scheduled, recorded(1, 500), recorded(2, null)])
      .when(attempt(3, 503))
      .then([recorded(3, 503), { type: 'GaveUp', data: { ...ids, at: T0, reason: 'ATTEMPTS_EXHAUSTED' } }]);
  });

  it('gives up at once on a refused URL', () => {
    spec
      .given([scheduled])
      .when(attempt(1, null, T0, true))
      .then([recorded(1, null), { type: 'GaveUp', data: { ...ids, at: T0, reason: 'URL_REFUSED' } }]);
  });

  it('never delivers again once delivered, nor after giving up', () => {
    const delivered: WebhookDeliveryEvent = { type: 'Delivered', data: { ...ids, at: T0 } };
    spec
      .given([scheduled, recorded(1, 200), delivered])
      .when(attempt(2, 200))
      .then([]);
    const gaveUp: WebhookDeliveryEvent = { type: 'GaveUp', data: { ...ids, at: T0, reason: 'URL_REFUSED' } };
    spec
      .given([scheduled, recorded(1, null), gaveUp])
      .when(attempt(2, 200))
      .then([]);
  });

  it('ignores a repeated record of an attempt already recorded', () => {
    spec
      .given([scheduled, recorded(1, 500)])
      .when(attempt(1, 500))
      .then([]);
  });

  it('shows the attempts and the next one in the view', () => {
    const view = deliveryView(fold(webhookDeliveryDecider, [scheduled, recorded(1, 500, '2026-01-01T00:01:00.000Z')]));
    expect(view).toMatchObject({
      webhook_id: 'msg_1',
      status: 'PENDING',
      next_attempt_at: '2026-01-01T00:01:05.000Z',
      attempts: [{ attempt: 1, status_code: 500, error: 'failed', duration_ms: 12 }],
    });
    expect(deliveryView(fold(webhookDeliveryDecider, []))).toBeNull();
  });
});
