import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import type { RenovationEvent, RenovationValuation } from '@renopath/contracts';
import { itemOf, RENOVATION_STREAM_PREFIX, type ItemState } from '../renovation/renovation.decider.ts';

/**
 * The renovations read model: one document per renovation with its items, its figures and the
 * columns the search sorts and filters on. Fed by the renovation streams only; the same fold
 * replays a renovation to a moment for `?as_of=`.
 */
export const RENOVATION_VIEWS_PROJECTION = 'renovation-views';
export const C = { renovations: 'renovations_views' } as const;
export { RENOVATION_STREAM_PREFIX };

export interface RenovationDoc {
  id: string;
  estate_id: string;
  organization_id: string;
  renovation_name: string | null;
  created_at: string;
  updated_at: string;
  /** Soft delete (docs/http-contract.md `renovation_deleted_at`); null while the renovation is live. */
  deleted_at: string | null;
  /** Stream revision of the last applied event: a redelivered event is skipped. */
  revision: number;
  /** Global positions of the creation and of the last change: they order renovations whose timestamps tie. */
  created_position: number;
  updated_position: number;
  items: ItemState[];
  valuation: RenovationValuation | null;
}

type Applied = Pick<RecordedEvent, 'type' | 'data' | 'occurred_at' | 'revision' | 'position'>;

/** The document after one event of its stream (pure); events it does not know leave it as it was. */
export function applyRenovationEvent(doc: RenovationDoc | null, e: Applied): RenovationDoc | null {
  const event = { type: e.type, data: e.data } as RenovationEvent;
  const revision = Number(e.revision);
  const position = Number(e.position);
  if (event.type === 'RenovationCreated') {
    const { renovation_id, estate_id, organization_id, renovation_name, items } = event.data;
    return {
      id: renovation_id,
      estate_id,
      organization_id,
      renovation_name,
      created_at: e.occurred_at,
      updated_at: e.occurred_at,
      deleted_at: null,
      revision,
      created_position: position,
      updated_position: position,
      items: (items ?? []).map(itemOf),
      valuation: null,
    };
  }
  if (!doc) return doc;
  const next = { ...doc, updated_at: e.occurred_at, updated_position: position, revision };
  switch (event.type) {
    case 'RenovationItemAdded':
      return { ...next, items: [...doc.items, itemOf(event.data)] };
    case 'RenovationItemUpdated':
      return { ...next, items: doc.items.map((i) => (i.item_id === event.data.item_id ? { ...i, ...event.data.changes } : i)) };
    case 'RenovationItemRemoved':
      return { ...next, items: doc.items.filter((i) => i.item_id !== event.data.item_id) };
    case 'RenovationValued':
      return { ...next, valuation: event.data.valuation };
    case 'RenovationDeleted':
      return { ...next, deleted_at: e.occurred_at };
    default:
      return doc;
  }
}

/** A renovation as it was after these events (`?as_of=`). */
export function replayRenovation(events: readonly Applied[]): RenovationDoc | null {
  return events.reduce<RenovationDoc | null>((doc, e) => applyRenovationEvent(doc, e), null);
}

export async function projectRenovationViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const id = event.stream.slice(RENOVATION_STREAM_PREFIX.length);
  const current = await tx.get<RenovationDoc>(C.renovations, id);
  if (current && current.revision >= Number(event.revision)) return;
  const next = applyRenovationEvent(current, event);
  if (next) await tx.put(C.renovations, id, next);
}
