import type { Logger } from 'pino';
import type { EventStore } from '@renopath/platform';
import type { CalculationJob } from '@renopath/contracts';
import type { CalculationsServiceConfig } from '../config.ts';
import type { JobDoc } from '../job-views/job-views.projection.ts';
import { parseRetrySchedule } from './retry-schedule.ts';
import { startWebhookDispatcher, type WebhookFetch } from './webhook-dispatcher.ts';
import type { WebhookEventType } from './webhook-delivery.decider.ts';
import { busWebhookSigner, embeddedWebhookSigner, type WebhookSigner } from './webhook-signer.ts';

export { busWebhookSigner, embeddedWebhookSigner as localWebhookSigner, type WebhookSigner };

/** API.md 5.4: one attempt waits at most 10 s for the receiver. */
const ATTEMPT_TIMEOUT_MS = 10_000;
const TYPE_OF: Partial<Record<CalculationJob['calculation_job_status'], WebhookEventType>> = {
  FINISHED: 'calculation_job.finished',
  FAILED: 'calculation_job.failed',
  STOPPED: 'calculation_job.stopped',
};

/**
 * The jobs' webhooks: each job that reaches FINISHED, FAILED or STOPPED with a `webhook_url` gets one
 * delivery, signed for the API client that created it (API.md 5.4).
 */
export async function startJobWebhooks(options: { config: CalculationsServiceConfig; eventStore: EventStore; log: Logger; signer: WebhookSigner; fetch?: WebhookFetch }) {
  const dispatcher = await startWebhookDispatcher({
    eventStore: options.eventStore,
    sign: options.signer,
    schedule: parseRetrySchedule(options.config.webhookRetrySchedule),
    allowPrivateNetwork: options.config.allowPrivateNetwork,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    log: options.log.child({ part: 'webhooks' }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    async onFinal(job: CalculationJob, doc: JobDoc): Promise<void> {
      const type = TYPE_OF[job.calculation_job_status];
      if (!type || !doc.webhook_url) return;
      await dispatcher.schedule(job, doc.client_id, doc.webhook_url, type);
    },
    deliveriesOf: (job_id: string) => dispatcher.deliveriesOf(job_id),
    close: () => dispatcher.close(),
  };
}
