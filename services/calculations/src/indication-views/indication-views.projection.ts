import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { IndicationEvents, type IndicationRecord } from '@renopath/contracts';

/** The indication records, one document each, newest first by position (docs/http-contract.md). */
export const INDICATION_STREAM_PREFIX = 'indication-';
export const INDICATION_VIEWS_PROJECTION = 'calculation-indication-views';
export const I = { indications: 'calculation_indications' } as const;

export interface IndicationDoc {
  id: string;
  organization_id: string;
  user_id: string;
  position: number;
  record: IndicationRecord;
}

export async function projectIndicationViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const parsed = IndicationEvents.IndicationCalculated.parse(event.data);
  await tx.put<IndicationDoc>(I.indications, parsed.record.id, {
    id: parsed.record.id,
    organization_id: parsed.actor.organization_id,
    user_id: parsed.actor.user_id,
    position: Number(event.position),
    record: parsed.record,
  });
}
