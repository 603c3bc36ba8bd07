import { EventIdConflictError, type AppendResult, type ExpectedRevision } from '../ports/event-store.ts';

/** The rules of an append every event store adapter keeps alike (ports/event-store.ts). */

export function revisionMatches(expected: ExpectedRevision, current: bigint | null): boolean {
  if (expected.kind === 'any') return true;
  if (expected.kind === 'no_stream') return current === null;
  return current === expected.revision;
}

/** Revision the stream had just before an append that wrote its first event at `firstRevision`. */
export function revisionMatchesBefore(expected: ExpectedRevision, firstRevision: bigint): boolean {
  return revisionMatches(expected, firstRevision === 0n ? null : firstRevision - 1n);
}

export interface StoredEventId {
  event_id: string;
  stream: string;
  revision: bigint;
  position: bigint;
}

/**
 * An append whose ids are (partly) stored: it succeeds, writing nothing, only if it repeats an
 * earlier append exactly: the same ids, in the same stream and order, with the same expected
 * revision. `positions` says what the store guarantees of one append's positions: `consecutive`
 * (SQLite) or only `increasing` (PostgreSQL, where a sequence may skip a number).
 */
export function repeatedAppend(
  stream: string,
  ids: string[],
  expected: ExpectedRevision,
  stored: StoredEventId[],
  positions: 'consecutive' | 'increasing',
): AppendResult {
  if (stored.length !== ids.length) {
    throw new EventIdConflictError(stream, ids, 'only some of these event ids were appended before');
  }
  const byId = new Map(stored.map((row) => [row.event_id, row]));
  const first = byId.get(ids[0]!)!;
  let previous = first.position - 1n;
  const sameAppend = ids.every((id, i) => {
    const row = byId.get(id)!;
    const inOrder = positions === 'consecutive' ? row.position === first.position + BigInt(i) : row.position > previous;
    previous = row.position;
    return row.stream === stream && row.revision === first.revision + BigInt(i) && inOrder;
  });
  if (!sameAppend) {
    throw new EventIdConflictError(stream, ids, 'these event ids were appended before, in another stream or order');
  }
  if (!revisionMatchesBefore(expected, first.revision)) {
    throw new EventIdConflictError(stream, ids, 'these event ids were appended before with another expected revision');
  }
  return { next_revision: first.revision + BigInt(ids.length) - 1n, position: previous };
}
