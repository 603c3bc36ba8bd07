import type { Logger } from 'pino';
import type { Closeable, EventStore } from '@renopath/platform';
import type { Leadership } from '@renopath/platform/service/context-lease.ts';
import { fold, type DomainEvent } from '@renopath/platform/service/decider.ts';
import type { CalculationJob, PassportSignedWebhookData, PortfolioRun } from '@renopath/contracts';
import type { CalculationsServiceConfig } from '../config.ts';
import type { JobDoc } from '../job-views/job-views.projection.ts';
import { parseRetrySchedule } from './retry-schedule.ts';
import { startWebhookDispatcher, type Cause, type WebhookDispatcher, type WebhookFetch } from './webhook-dispatcher.ts';
import {
  deliveryStream,
  deliveryView,
  WebhookEventType,
  webhookDeliveryDecider,
  type WebhookDeliveryEvent,
  type WebhookDeliveryView,
} from './webhook-delivery.decider.ts';
import { busWebhookSigner, embeddedWebhookSigner, type WebhookSigner } from './webhook-signer.ts';

export { busWebhookSigner, embeddedWebhookSigner as localWebhookSigner, type WebhookSigner };

/** docs/webhooks.md: one attempt waits at most 10 s for the receiver. */
const ATTEMPT_TIMEOUT_MS = 10_000;
const TYPE_OF: Partial<Record<CalculationJob['calculation_job_status'], WebhookEventType>> = {
  FINISHED: 'calculation_job.finished',
  FAILED: 'calculation_job.failed',
  STOPPED: 'calculation_job.stopped',
};

/**
 * The service's webhooks (docs/webhooks.md): each job that reaches FINISHED, FAILED or STOPPED with a
 * `webhook_url` gets one delivery, signed for the API client that created it; so does a finished
 * portfolio run, and a signed renovation passport (reporting's event) for the client that drafted it.
 */
export async function startJobWebhooks(options: {
  config: CalculationsServiceConfig;
  eventStore: EventStore;
  log: Logger;
  signer: WebhookSigner;
  fetch?: WebhookFetch;
  /** Replicas over shared stores: only the one that leads sends (two dispatchers would both send). */
  leadership?: Leadership;
}) {
  const start = () =>
    startWebhookDispatcher({
      eventStore: options.eventStore,
      sign: options.signer,
      schedule: parseRetrySchedule(options.config.webhookRetrySchedule),
      allowPrivateNetwork: options.config.allowPrivateNetwork,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      log: options.log.child({ part: 'webhooks' }),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  let dispatcher: WebhookDispatcher | null = null;
  const role: Closeable = options.leadership
    ? await options.leadership.whileLeading('webhook dispatcher', async () => {
        const running = await start();
        dispatcher = running;
        return {
          async close() {
            if (dispatcher === running) dispatcher = null;
            await running.close();
          },
        };
      })
    : await start().then((running) => ((dispatcher = running), running));
  return {
    /** A job's final state; `cause` is the event that tells it (its trace and correlation id go on with the delivery). */
    async onFinal(job: CalculationJob, doc: JobDoc, cause?: Cause): Promise<void> {
      const type = TYPE_OF[job.calculation_job_status];
      if (!type || !doc.webhook_url) return;
      // Final states reach here from a process manager of the replica that leads; between losing the
      // lease and that process stopping, throwing leaves the event to the next holder.
      if (!dispatcher) throw new Error('the webhook dispatcher runs on the replica holding the lease, not this one');
      await dispatcher.schedule(job, doc.client_id, doc.webhook_url, type, cause);
    },
    /** A FINISHED portfolio run with a `webhook_url`: one `portfolio_run.finished` delivery, signed for the client that made it. */
    async onPortfolioFinished(run: PortfolioRun, doc: { client_id: string }): Promise<void> {
      if (!run.webhook_url) return;
      if (!dispatcher) throw new Error('the webhook dispatcher runs on the replica holding the lease, not this one');
      await dispatcher.schedule(run, doc.client_id, run.webhook_url, 'portfolio_run.finished');
    },
    /**
     * A signed renovation passport whose drafter gave a `webhook_url` (reporting's event, through the
     * `calculations-passports` consumer): one `renovation_passport.signed` delivery, signed for that client.
     */
    async onPassportSigned(data: PassportSignedWebhookData, target: { url: string; client_id: string }, cause: Cause): Promise<void> {
      if (!dispatcher) throw new Error('the webhook dispatcher runs on the replica holding the lease, not this one');
      await dispatcher.schedule(data, target.client_id, target.url, 'renovation_passport.signed', cause);
    },
    /** Read from the event store: any replica answers it. */
    deliveriesOf: (job_id: string) => (dispatcher ? dispatcher.deliveriesOf(job_id) : deliveriesFromLog(options.eventStore, job_id)),
    close: () => role.close(),
  };
}

async function deliveriesFromLog(eventStore: EventStore, job_id: string): Promise<WebhookDeliveryView[]> {
  const views: WebhookDeliveryView[] = [];
  for (const type of WebhookEventType) {
    const events = await eventStore.readStream(deliveryStream(job_id, type));
    const view = deliveryView(
      fold(
        webhookDeliveryDecider,
        events.map((e) => ({ type: e.type, data: e.data }) as DomainEvent as WebhookDeliveryEvent),
      ),
    );
    if (view) views.push(view);
  }
  return views;
}
