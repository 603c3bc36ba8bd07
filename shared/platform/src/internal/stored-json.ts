import type { EventEnvelope } from '../ports/bus.ts';

/**
 * The JSON text a stored event's `data` and `metadata` are held as, which a store puts on the events it
 * reads (SQLite, while neither has been read or set), and the relay on the envelope it makes of one.
 * A bus that sends events as text writes them as they are (`envelopeJson`) rather than parsing them
 * only to write them again: a job's result is tens of kilobytes, and every event goes on the bus.
 */
export const STORED_JSON: unique symbol = Symbol('renopath.storedJson');
export interface StoredJson {
  data: string;
  metadata: string;
}

export const storedJsonOf = (value: object): StoredJson | undefined => (value as { [STORED_JSON]?: StoredJson })[STORED_JSON];

/** `fields` with `data` and `metadata` parsed from `stored` on first read, and `stored` kept for `envelopeJson`. */
export function envelopeOfStored(fields: Omit<EventEnvelope, 'data' | 'metadata'>, stored: StoredJson): EventEnvelope {
  const envelope = { ...fields } as EventEnvelope;
  for (const key of ['data', 'metadata'] as const) {
    Object.defineProperty(envelope, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value: unknown = JSON.parse(stored[key]);
        Object.defineProperty(envelope, key, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
      set(value: unknown) {
        Object.defineProperty(envelope, key, { value, enumerable: true, writable: true, configurable: true });
      },
    });
  }
  // Not enumerable: a spread or a JSON of the envelope does not see it. Only while untouched, as in the store.
  Object.defineProperty(envelope, STORED_JSON, {
    get: () =>
      Object.getOwnPropertyDescriptor(envelope, 'data')?.get && Object.getOwnPropertyDescriptor(envelope, 'metadata')?.get
        ? stored
        : undefined,
  });
  return envelope;
}

/** `event` as JSON text: what `JSON.stringify` writes, with its stored `data` and `metadata` text where it has it. */
export function envelopeJson(event: EventEnvelope): string {
  const stored = storedJsonOf(event);
  if (!stored) return JSON.stringify(event);
  const { context, event_id, type, stream, revision, position, occurred_at } = event;
  const head = JSON.stringify({ context, event_id, type, stream, revision, position, occurred_at });
  return `${head.slice(0, -1)},"data":${stored.data},"metadata":${stored.metadata}}`;
}
