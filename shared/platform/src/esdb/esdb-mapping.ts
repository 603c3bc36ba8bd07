import { createHash } from 'node:crypto';
import type { CurrentStreamState, JSONEventData, Position } from '@kurrent/kurrentdb-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../ports/event-store.ts';
import { UUID_PATTERN } from '@renopath/contracts';

/**
 * Pure translation between the EventStore port and KurrentDB/EventStoreDB (no I/O here, so all of it
 * is unit-tested without a server). The adapter (esdb-event-store.ts) explains the design; the facts
 * these functions rely on are noted where they are used.
 */

// ---------------------------------------------------------------------------------------------
// Connection string

const SCHEMES = /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i;

export interface KeepAlive {
  /** gRPC keepalive ping interval (ms); the client warns below 10 000. */
  intervalMs: number;
  /** How long a ping may go unanswered before the connection is dropped (ms). */
  timeoutMs: number;
}

/**
 * The connection string the client gets: `esdb://` becomes `kurrentdb://` (same server protocol;
 * the old scheme only makes the client print a deprecation warning), and keepalives are set unless
 * the string sets them itself, so a half-open connection is noticed and a subscription can resubscribe.
 */
export function clientConnectionString(url: string, keepAlive: KeepAlive): string {
  const trimmed = url.trim();
  const scheme = SCHEMES.exec(trimmed);
  if (!scheme) {
    throw new Error(
      `EventStoreDB connection string must start with kurrentdb:// or esdb:// (e.g. kurrentdb://127.0.0.1:2113?tls=false), got "${redact(trimmed)}"`,
    );
  }
  for (const [name, value] of [
    ['intervalMs', keepAlive.intervalMs],
    ['timeoutMs', keepAlive.timeoutMs],
  ] as const) {
    if (!Number.isInteger(value) || value < -1) throw new Error(`keepAlive.${name} must be an integer >= -1 (-1 disables), got ${value}`);
  }
  let rest = trimmed.slice(scheme[0].length);
  const query = rest.indexOf('?');
  const params = query < 0 ? '' : rest.slice(query + 1);
  rest = query < 0 ? rest : rest.slice(0, query);
  const keys = new Set(
    params
      .split('&')
      .filter(Boolean)
      .map((pair) => pair.split('=')[0]!.toLowerCase()),
  );
  const added: string[] = [];
  if (!keys.has('keepaliveinterval')) added.push(`keepAliveInterval=${keepAlive.intervalMs}`);
  if (!keys.has('keepalivetimeout')) added.push(`keepAliveTimeout=${keepAlive.timeoutMs}`);
  const all = [params, ...added].filter(Boolean).join('&');
  return `kurrentdb${scheme[2] ?? ''}://${rest.replace(/\/+$/, '')}${all ? `?${all}` : ''}`;
}

/** A connection string without its password, for error messages. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:@/]+:)[^@/]*@/, '$1***@');
}

// ---------------------------------------------------------------------------------------------
// Stream names

const NAMESPACE = /^[A-Za-z0-9_]+$/;

/**
 * A namespace is the server-side prefix of one context's streams (`renopath_estates`). No `-`: the
 * prefix filter is `<namespace>-`, and with `-` allowed `a-` would also match the streams of `a-b`.
 * No `$`: system streams start with it.
 */
export function assertNamespace(namespace: string): string {
  if (!NAMESPACE.test(namespace) || namespace.length > 100) {
    throw new Error(`invalid EventStoreDB namespace "${namespace}": use letters, digits and _ only (e.g. renopath_estates)`);
  }
  return namespace;
}

/** `estate-1` of namespace `renopath_estates` is the server stream `renopath_estates-estate-1`. */
export function serverStream(namespace: string, stream: string): string {
  if (stream.length === 0) throw new Error('stream name must not be empty');
  return `${namespace}-${stream}`;
}

/** The port's stream name of a server stream, or null when it is not in the namespace. */
export function portStream(namespace: string, server: string): string | null {
  const prefix = `${namespace}-`;
  return server.startsWith(prefix) ? server.slice(prefix.length) : null;
}

/**
 * A consumer's checkpoint stream. The `.` cannot occur in a namespace, so no namespace's `<ns>-`
 * prefix matches it: checkpoints never show up in any context's global log.
 */
export function checkpointStream(namespace: string, consumer: string): string {
  if (consumer.length === 0) throw new Error('consumer name must not be empty');
  return `${namespace}.checkpoint-${consumer}`;
}

/**
 * The server-side stream-name filter of a subscription: the namespace, narrowed by the port's
 * `streamPrefixes` when given. An empty list means "no streams" to the port; the server has no such
 * filter, so the namespace is asked for and the subscription (`streamWanted`) drops everything.
 */
export function serverPrefixes(namespace: string, streamPrefixes?: string[]): string[] {
  if (!streamPrefixes || streamPrefixes.length === 0) return [`${namespace}-`];
  return streamPrefixes.map((prefix) => `${namespace}-${prefix}`);
}

// ---------------------------------------------------------------------------------------------
// Positions

/**
 * The port's position of a point in the log. An event written by an append (an implicit
 * transaction; the only kind gRPC clients can write) has commit == prepare == its own log offset,
 * distinct for every event, also within one append (KurrentDB's IndexCommitter and AllReader). Such
 * an event at offset L has position 2L + 1. Checkpoints of a filtered read are points *between*
 * records, `{commit: X, prepare: 0}` meaning "everything before offset X was read": they get the
 * even number 2X, so a consumer that stores one and later reads "after" it gets exactly the events
 * at offset >= X. With plain offsets a stored checkpoint X would skip an event starting at X, and
 * X - 1 is no record boundary the server could start from.
 */
export function eventPosition(position: Position): bigint {
  if (position.commit !== position.prepare) {
    throw new Error(
      `event at {commit: ${position.commit}, prepare: ${position.prepare}} was written in an explicit transaction; this adapter's streams are only written by appends`,
    );
  }
  if (position.commit < 0n) throw new Error(`invalid event position ${position.commit}`);
  return 2n * position.commit + 1n;
}

/** The port's position of a checkpoint: everything at or before it has been read. */
export function checkpointPosition(position: Position): bigint {
  if (position.commit < 0n) return 0n;
  return position.prepare >= position.commit ? 2n * position.commit + 1n : 2n * position.commit;
}

/**
 * The server position to read or subscribe from for "after `position`". Subscriptions start strictly
 * after it; reads of $all start at it (inclusive), so readers also drop events at or before it.
 */
export function serverPosition(position: bigint): Position | 'start' {
  if (position <= 0n) return 'start';
  const offset = position / 2n;
  return position % 2n === 1n ? { commit: offset, prepare: offset } : { commit: offset, prepare: 0n };
}

// ---------------------------------------------------------------------------------------------
// Revisions

/** The stream state the adapter pins an append to: the revision it has just checked. */
export function pinnedState(revision: bigint | null): 'no_stream' | bigint {
  return revision === null ? 'no_stream' : revision;
}

/** A WrongExpectedVersionError's actual state as the port's revision (null: no stream). */
export function actualRevision(state: CurrentStreamState): bigint | null {
  return typeof state === 'bigint' && state >= 0n ? state : null;
}

// ---------------------------------------------------------------------------------------------
// Events

/** What the adapter writes as an event's metadata: the port's metadata and what ESDB has no field for. */
export interface StoredMetadata {
  /** Marks events written by this adapter (others in the namespace are refused). */
  renopath: 1;
  /** The port's id, kept verbatim (the server's id is a UUID derived from it). */
  event_id: string;
  /** The caller's time stamp; the server's `created` is never used. */
  occurred_at: string;
  metadata: EventMetadata;
  /** On the last event of an append made under `AppendOptions.idempotencyKey`. */
  append_key?: string;
  /** ESDB's conventional fields, for its UI and projections. */
  $correlationId: string;
  $causationId?: string;
}

/**
 * The server's event id: ESDB ids are UUIDs, and the server dedupes a retried append by them. A
 * port id that is a UUID is used as is; any other string maps to a UUID hashed from it (version 8,
 * RFC 9562), the same for every retry.
 */
export function esdbEventId(eventId: string): string {
  if (eventId.length === 0) throw new Error('event_id must not be empty');
  if (UUID_PATTERN.test(eventId)) return eventId.toLowerCase();
  const bytes = createHash('sha256').update(`renopath-event\0${eventId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A port event as the client's JSON event; `appendKey` goes on the last event of a keyed append. */
export function toEventData(stream: string, event: NewEvent, appendKey?: string): JSONEventData {
  if (typeof event.type !== 'string' || event.type.length === 0 || event.type.startsWith('$')) {
    throw new Error(
      `stream ${stream}: event ${event.event_id} has type "${event.type}"; a type must be non-empty and must not start with $ (reserved by EventStoreDB)`,
    );
  }
  const stored: StoredMetadata = {
    renopath: 1,
    event_id: event.event_id,
    occurred_at: event.occurred_at,
    metadata: event.metadata,
    ...(appendKey === undefined ? {} : { append_key: appendKey }),
    $correlationId: event.metadata.correlation_id,
    ...(event.metadata.causation_id ? { $causationId: event.metadata.causation_id } : {}),
  };
  // The client would throw a bare TypeError deep in the gRPC write; say which event is at fault.
  for (const [part, value] of [
    ['data', event.data],
    ['metadata', stored],
  ] as const) {
    try {
      JSON.stringify(value);
    } catch (error) {
      throw new Error(`stream ${stream}: event ${event.event_id} ${part} is not JSON (${(error as Error).message})`);
    }
  }
  return {
    id: esdbEventId(event.event_id),
    contentType: 'application/json',
    type: event.type,
    data: event.data,
    metadata: stored as unknown as Record<string, unknown>,
  };
}

export interface ConvertedEvent {
  event: RecordedEvent;
  /** The append key this event carries, when it is the last event of a keyed append. */
  appendKey?: string;
}

/** The fields of the client's recorded event this adapter reads (stream reads and $all reads alike). */
export interface ServerRecord {
  streamId: string;
  id: string;
  type: string;
  isJson: boolean;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  position?: Position | undefined;
}

function isStoredMetadata(value: unknown): value is StoredMetadata {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<StoredMetadata>;
  return (
    m.renopath === 1 &&
    typeof m.event_id === 'string' &&
    typeof m.occurred_at === 'string' &&
    typeof m.metadata === 'object' &&
    m.metadata !== null
  );
}

/**
 * A server event as the port's event. Null for what is not the port's: another namespace, a link or
 * a system (`$`) event. Throws on an event of the namespace that this adapter did not write, rather
 * than inventing an id or a time stamp for it.
 */
export function fromResolved(namespace: string, resolved: { event?: ServerRecord | undefined }): ConvertedEvent | null {
  const recorded = resolved.event;
  if (!recorded) return null;
  const stream = portStream(namespace, recorded.streamId);
  if (stream === null || recorded.type.startsWith('$')) return null;
  if (!recorded.position) {
    throw new Error(
      `event ${recorded.id} of ${recorded.streamId} came without a log position (EventStoreDB older than 22.6 is not supported)`,
    );
  }
  const meta = recorded.metadata;
  if (
    !recorded.isJson ||
    !isStoredMetadata(meta) ||
    typeof recorded.data !== 'object' ||
    recorded.data === null ||
    Array.isArray(recorded.data)
  ) {
    throw new Error(
      `event ${recorded.id} (${recorded.type}) in ${recorded.streamId} was not written by the Renopath adapter: it lacks JSON data or the adapter's metadata`,
    );
  }
  const event: RecordedEvent = {
    event_id: meta.event_id,
    type: recorded.type,
    data: recorded.data as Record<string, unknown>,
    metadata: meta.metadata,
    occurred_at: meta.occurred_at,
    stream,
    revision: recorded.revision,
    position: eventPosition(recorded.position),
  };
  return meta.append_key === undefined ? { event } : { event, appendKey: meta.append_key };
}

// ---------------------------------------------------------------------------------------------
// Checkpoints

/** A checkpoint event's data: the position as a decimal string (JSON has no bigint). */
export function checkpointData(position: bigint): { position: string } {
  if (position < 0n) throw new Error(`checkpoint position must not be negative, got ${position}`);
  return { position: position.toString() };
}

export function checkpointFromData(consumer: string, data: unknown): bigint {
  const position = typeof data === 'object' && data !== null ? (data as { position?: unknown }).position : undefined;
  if (typeof position !== 'string' || !/^\d+$/.test(position)) {
    throw new Error(`checkpoint of ${consumer} is unreadable: expected {"position": "<digits>"}, got ${JSON.stringify(data)}`);
  }
  return BigInt(position);
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * A client error that says only "UnavailableError" (the Rust reader's) or "14 UNAVAILABLE" (gRPC)
 * becomes one that names the server and the operation; the original stays as `cause`. Other errors
 * (conflicts, access denied, bad input) pass unchanged.
 */
export function describeFailure(error: unknown, server: string, operation: string): unknown {
  if (!(error instanceof Error)) return error;
  const { type, code } = error as { type?: unknown; code?: unknown };
  const unreachable = type === 'unavailable' || code === 14 || /\bUNAVAILABLE\b|^UnavailableError$/.test(error.message);
  const slow = type === 'deadline-exceeded' || code === 4 || /\bDEADLINE_EXCEEDED\b|^DeadlineExceededError$/.test(error.message);
  if (!unreachable && !slow) return error;
  const what = unreachable ? 'is unavailable' : 'did not answer in time';
  return new Error(`EventStoreDB at ${redact(server)} ${what} (${operation}): ${error.message}`, { cause: error });
}
