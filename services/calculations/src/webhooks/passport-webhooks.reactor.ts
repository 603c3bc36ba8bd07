import type { Closeable, EventMetadata } from '@renopath/platform';
import { reactionMetadata } from '@renopath/platform/service/handler-kit.ts';
import { consumeParsedEvents, type ReactorOptions } from '@renopath/platform/service/reactor.ts';
import { PassportEvents, type PassportSignedWebhookData } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const PASSPORTS_CONSUMER = 'calculations-passports';

/** What the dispatcher is asked: one `renovation_passport.signed` delivery, signed for the drafter's API client. */
export type OnPassportSigned = (
  data: PassportSignedWebhookData,
  target: { url: string; client_id: string },
  /** The signing event's metadata: the delivery goes on in its trace, under its correlation id. */
  cause: EventMetadata,
) => Promise<void>;

/**
 * The reporting context's signed passports, announced by this context's webhook dispatcher
 * (docs/webhooks.md): one dispatcher, one retry schedule and one signing path for every webhook. The
 * event carries everything the announcement needs, so nothing of reporting is read or imported here.
 * A redelivered event schedules nothing twice: a delivery is once per passport and type.
 */
export function startPassportWebhooksReactor(options: ReactorOptions & { onSigned: OnPassportSigned }): Promise<Closeable> {
  const signed = { RenovationPassportSigned: PassportEvents.RenovationPassportSigned };
  return consumeParsedEvents(options, PASSPORTS_CONSUMER, signed, async ({ data: d }, envelope) => {
    // Signed before passports took a webhook (no version or URL on the event): nothing to announce.
    if (d.webhook && d.version !== undefined && d.calculation_job_id && d.verification_url)
      await options.onSigned(
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
        reactionMetadata(envelope),
      );
  });
}
