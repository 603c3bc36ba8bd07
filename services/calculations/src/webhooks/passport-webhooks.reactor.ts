import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope } from '@renopath/platform';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { PassportEvents, eventConsumer, type PassportSignedWebhookData } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const PASSPORTS_CONSUMER = 'calculations-passports';

/** What the dispatcher is asked: one `renovation_passport.signed` delivery, signed for the drafter's API client. */
export type OnPassportSigned = (
  data: PassportSignedWebhookData,
  target: { url: string; client_id: string },
  cause: { correlation_id: string; causation_id: string },
) => Promise<void>;

/**
 * The reporting context's signed passports, announced by this context's webhook dispatcher
 * (docs/webhooks.md): one dispatcher, one retry schedule and one signing path for every webhook. The
 * event carries everything the announcement needs, so nothing of reporting is read or imported here.
 * A redelivered event schedules nothing twice: a delivery is once per passport and type.
 */
export function startPassportWebhooksReactor(options: {
  bus: Bus;
  log: Logger;
  settlement?: Settlement;
  onSigned: OnPassportSigned;
}): Promise<Closeable> {
  const { bus, log, onSigned } = options;
  const { subjects, origins } = eventConsumer(PASSPORTS_CONSUMER);
  const tracked = options.settlement?.reactor(PASSPORTS_CONSUMER, origins);
  return bus.consume(PASSPORTS_CONSUMER, { subjects }, async (envelope: EventEnvelope) => {
    const parsed = PassportEvents.RenovationPassportSigned.safeParse(envelope.data);
    if (!parsed.success) {
      log.error({ event_id: envelope.event_id, type: envelope.type }, 'reporting event does not match its contract; skipped');
    } else {
      const d = parsed.data;
      // Signed before passports took a webhook (no version or URL on the event): nothing to announce.
      if (d.webhook && d.version !== undefined && d.calculation_job_id && d.verification_url)
        await onSigned(
          {
            id: d.passport_id,
            version: d.version,
            estate_id: d.estate_id,
            calculation_job_id: d.calculation_job_id,
            signed_at: d.signed_at,
            content_sha256: d.content_sha256,
            verification_url: d.verification_url,
          },
          d.webhook,
          { correlation_id: envelope.metadata.correlation_id, causation_id: envelope.event_id },
        );
    }
    tracked?.handled(envelope);
  });
}
