import type { Closeable, EventEnvelope, ReadStore, ReadStoreTx } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { readShared } from '@renopath/platform/service/handler-kit.ts';
import { EstateEvents, RenovationEvents, type EstateEventType, type RenovationEventType } from '@renopath/contracts';

/** Durable consumer names: they must not change, or the bus would start new consumers from the beginning. */
export const RENOVATIONS_CONSUMER = 'reporting-renovations';

export const L = {
  /** `renovation:<id>` / `estate:<id>` -> when it last changed (`ChangeDoc`). */
  changes: 'reporting_changes',
} as const;

export interface ChangeDoc {
  id: string;
  last_changed_at: string;
}

/** Membership changes do not change what a report shows. */
const NOT_A_CHANGE = new Set(['EstateMemberAdded', 'EstateMemberActivated', 'EstateMemberDetailsUpdated', 'EstateMemberRemoved']);

/**
 * Records that a renovation or an estate changed at `at`. Keeping the latest moment (a maximum) makes
 * a redelivered event change nothing, and a report is outdated when it was made before that moment,
 * whether its own document was written before or after the event arrived.
 */
export async function recordChange(readStore: ReadStore, key: string, at: string): Promise<void> {
  // The events of one command share their moment: after the first, the rest change nothing, and a
  // read of what is committed (a maximum only grows) spares them a write transaction each.
  const known = await readShared<ChangeDoc>(readStore, L.changes, key);
  if (known && known.last_changed_at >= at) return;
  await readStore.transaction((tx) => recordChangeIn(tx, key, at));
}

/** `recordChange` inside a transaction the caller holds (one commit for the change and what goes with it). */
export async function recordChangeIn(tx: ReadStoreTx, key: string, at: string): Promise<void> {
  const doc = await tx.get<ChangeDoc>(L.changes, key);
  if (doc && doc.last_changed_at >= at) return;
  await tx.put<ChangeDoc>(L.changes, key, { id: key, last_changed_at: at });
}

/**
 * The change of a renovations or estates event (parsed with its contract), or null when it changes
 * nothing a report shows. `parsed`: the event's data as a caller already parsed it with the same
 * contract, so it is not parsed twice.
 */
export function changeOf(
  envelope: EventEnvelope,
  parsed?: { renovation_id: string } | { estate_id: string },
): { key: string; at: string } | null {
  if (envelope.type in RenovationEvents && envelope.stream.startsWith('renovation-')) {
    const data = parsed ?? RenovationEvents[envelope.type as RenovationEventType].safeParse(envelope.data).data;
    return data && 'renovation_id' in data ? { key: `renovation:${data.renovation_id}`, at: envelope.occurred_at } : null;
  }
  if (envelope.type in EstateEvents && !NOT_A_CHANGE.has(envelope.type)) {
    const data = parsed ?? EstateEvents[envelope.type as EstateEventType].safeParse(envelope.data).data;
    return data && 'estate_id' in data ? { key: `estate:${data.estate_id}`, at: envelope.occurred_at } : null;
  }
  return null;
}

export function startRenovationsChangeReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  return consumeParsedEvents(options, RENOVATIONS_CONSUMER, RenovationEvents, async ({ data }, envelope) => {
    const change = changeOf(envelope, data);
    if (change) await recordChange(options.readStore, change.key, change.at);
  });
}

/** Whether a report made at `created_at` predates a change of its renovation or its estate. */
export async function isOutdated(
  readStore: ReadStore,
  report: { renovation_id: string; estate_id: string; created_at: string },
): Promise<boolean> {
  const [renovation, estate] = await Promise.all([
    readStore.get<ChangeDoc>(L.changes, `renovation:${report.renovation_id}`),
    readStore.get<ChangeDoc>(L.changes, `estate:${report.estate_id}`),
  ]);
  const later = (doc: ChangeDoc | null) => doc !== null && Date.parse(doc.last_changed_at) > Date.parse(report.created_at);
  return later(renovation) || later(estate);
}
