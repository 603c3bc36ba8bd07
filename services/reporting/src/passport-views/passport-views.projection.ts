import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { PassportEvents, type RenovationPassportContent } from '@renopath/contracts';

export const PASSPORT_COLLECTIONS = { passports: 'reporting_passports' } as const;
const C = PASSPORT_COLLECTIONS;

/** One passport as it reads (`organization_id` decides who sees it; the service leaves it out of answers). */
export interface PassportDoc {
  id: string;
  version: number;
  status: 'DRAFT' | 'SIGNED';
  estate_id: string;
  organization_id: string;
  calculation_job_id: string;
  created_at: string;
  updated_at: string;
  signed_at: string | null;
  signed_by: { advisor_name: string; accreditation_number: string } | null;
  content_sha256: string | null;
  signature: string | null;
  /** Absent on documents projected before passports took one. */
  webhook_url?: string | null;
  content: RenovationPassportContent;
}

/** The passports read model: one document per passport, kept current by its estate's stream. */
export async function projectPassportViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  switch (event.type) {
    case 'RenovationPassportDrafted': {
      const d = PassportEvents.RenovationPassportDrafted.parse(event.data);
      await tx.put<PassportDoc>(C.passports, d.passport_id, {
        id: d.passport_id,
        version: d.version,
        status: 'DRAFT',
        estate_id: d.estate_id,
        organization_id: d.organization_id,
        calculation_job_id: d.calculation_job_id,
        created_at: d.created_at,
        updated_at: d.created_at,
        signed_at: null,
        signed_by: null,
        content_sha256: null,
        signature: null,
        webhook_url: d.webhook_url ?? null,
        content: d.content,
      });
      return;
    }
    case 'RenovationPassportAmended': {
      const d = PassportEvents.RenovationPassportAmended.parse(event.data);
      const doc = await tx.get<PassportDoc>(C.passports, d.passport_id);
      if (doc) await tx.put<PassportDoc>(C.passports, d.passport_id, { ...doc, content: d.content, updated_at: d.updated_at });
      return;
    }
    case 'RenovationPassportSigned': {
      const d = PassportEvents.RenovationPassportSigned.parse(event.data);
      const doc = await tx.get<PassportDoc>(C.passports, d.passport_id);
      if (doc)
        await tx.put<PassportDoc>(C.passports, d.passport_id, {
          ...doc,
          status: 'SIGNED',
          updated_at: d.signed_at,
          signed_at: d.signed_at,
          signed_by: d.signed_by,
          content_sha256: d.content_sha256,
          signature: d.signature,
        });
      return;
    }
  }
}
