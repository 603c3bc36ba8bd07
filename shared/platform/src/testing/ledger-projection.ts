import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadStoreTx } from '../ports/read-store.ts';

/** A projection for the crash test: per stream, a running sum that would drift if an event were applied twice. */
export const LEDGER_PROJECTION = 'ledger';
export const LEDGER_COLLECTION = 'ledger';

export interface LedgerEntry {
  stream: string;
  events: number;
  balance: number;
  last_revision: number;
}

export async function projectLedger(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const entry = (await tx.get<LedgerEntry>(LEDGER_COLLECTION, event.stream)) ?? {
    stream: event.stream,
    events: 0,
    balance: 0,
    last_revision: -1,
  };
  await tx.put<LedgerEntry>(LEDGER_COLLECTION, event.stream, {
    stream: event.stream,
    events: entry.events + 1,
    balance: entry.balance + Number(event.data.amount),
    last_revision: Number(event.revision),
  });
}
