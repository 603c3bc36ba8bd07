import type { EventEnvelope } from '../ports/bus.ts';

/**
 * The JSON text a stored event's `data` and `metadata` are held as. A store's events (SQLite) and the
 * relay's envelope of one carry it (`withStoredJson`) and parse each field on first read: a context's
 * log is tailed by several consumers and most of them skip most events by type without looking inside.
 * A bus that sends events as text writes them with it (`envelopeJson`) rather than parsing them only to
 * write them again: a job's result is tens of kilobytes, and every event goes on the bus.
 */
export interface StoredJson {
  data: string;
  metadata: string;
}

/** Where an object keeps its stored text (not enumerable: spreading and JSON do not see it). */
const TEXT = Symbol('renopath.storedText');
/** The stored text, while neither field has been read or set (see `storedJsonOf`). */
const STORED_JSON = Symbol('renopath.storedJson');

function lazyJson(key: keyof StoredJson): PropertyDescriptor {
  // The first read or write turns the accessor into a plain property holding the value.
  const settle = (target: object, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return {
    enumerable: true,
    configurable: true,
    get(this: { [TEXT]: StoredJson }) {
      const value: unknown = JSON.parse(this[TEXT][key]);
      // A frozen or sealed object cannot keep it: it is parsed again on each read instead.
      if (Object.isExtensible(this)) settle(this, value);
      return value;
    },
    set(this: object, next: unknown) {
      settle(this, next);
    },
  };
}
// The same accessors for every object, which find the text through the hidden property.
const LAZY_DATA = lazyJson('data');
const LAZY_METADATA = lazyJson('metadata');
const UNTOUCHED_TEXT: PropertyDescriptor = {
  get(this: { [TEXT]: StoredJson }): StoredJson | undefined {
    const untouched =
      Object.getOwnPropertyDescriptor(this, 'data')?.get === LAZY_DATA.get &&
      Object.getOwnPropertyDescriptor(this, 'metadata')?.get === LAZY_METADATA.get;
    return untouched ? this[TEXT] : undefined;
  },
};

/**
 * `target` with `data` and `metadata` parsed from `text` on first read: own enumerable properties, so
 * spreading, JSON and equality see them as plain fields.
 */
export function withStoredJson<T extends object>(target: T, text: StoredJson): T & { data: never; metadata: never } {
  Object.defineProperty(target, TEXT, { value: text });
  Object.defineProperty(target, 'data', LAZY_DATA);
  Object.defineProperty(target, 'metadata', LAZY_METADATA);
  Object.defineProperty(target, STORED_JSON, UNTOUCHED_TEXT);
  return target as T & { data: never; metadata: never };
}

/** The stored text of an object made by `withStoredJson`, while neither field has been read or set since. */
export const storedJsonOf = (value: object): StoredJson | undefined => (value as { [STORED_JSON]?: StoredJson })[STORED_JSON];

/** `event` as JSON text: what `JSON.stringify` writes, with its stored `data` and `metadata` text where it has it. */
export function envelopeJson(event: EventEnvelope): string {
  const stored = storedJsonOf(event);
  if (!stored) return JSON.stringify(event);
  const { context, event_id, type, stream, revision, position, occurred_at } = event;
  const head = JSON.stringify({ context, event_id, type, stream, revision, position, occurred_at });
  return `${head.slice(0, -1)},"data":${stored.data},"metadata":${stored.metadata}}`;
}
