import { describe, expect, it } from 'vitest';
import { newEvent } from '../testing/contract-helpers.ts';
import {
  actualRevision,
  assertNamespace,
  checkpointData,
  checkpointFromData,
  checkpointPosition,
  checkpointStream,
  clientConnectionString,
  describeFailure,
  esdbEventId,
  eventPosition,
  fromResolved,
  pinnedState,
  portStream,
  redact,
  serverPosition,
  serverPrefixes,
  serverStream,
  toEventData,
  type ServerRecord,
} from './esdb-mapping.ts';
import { streamWanted } from '../internal/serial-subscription.ts';

const keepAlive = { intervalMs: 10_000, timeoutMs: 10_000 };

/** A server record as the client hands it back for what `toEventData` wrote (the server keeps data and metadata as given). */
function recorded(streamId: string, written: ReturnType<typeof toEventData>, revision: bigint, offset: bigint): ServerRecord {
  return {
    streamId,
    id: written.id,
    type: written.type,
    isJson: true,
    revision,
    data: JSON.parse(JSON.stringify(written.data)),
    metadata: JSON.parse(JSON.stringify(written.metadata)),
    position: { commit: offset, prepare: offset },
  };
}

describe('esdb mapping', () => {
  describe('connection string', () => {
    it('sets keepalives unless the URL sets them, and maps esdb:// onto kurrentdb://', () => {
      expect(clientConnectionString('esdb://127.0.0.1:2113?tls=false', keepAlive)).toBe(
        'kurrentdb://127.0.0.1:2113?tls=false&keepAliveInterval=10000&keepAliveTimeout=10000',
      );
      expect(clientConnectionString('kurrentdb://h:2113', { intervalMs: 15_000, timeoutMs: 5_000 })).toBe(
        'kurrentdb://h:2113?keepAliveInterval=15000&keepAliveTimeout=5000',
      );
      expect(clientConnectionString('esdb+discover://a:2113,b:2113/?keepaliveinterval=20000', keepAlive)).toBe(
        'kurrentdb+discover://a:2113,b:2113?keepaliveinterval=20000&keepAliveTimeout=10000',
      );
    });

    it('refuses other schemes with a clear error that hides the password', () => {
      expect(() => clientConnectionString('postgres://u:secret@h/db', keepAlive)).toThrow(/must start with kurrentdb:\/\/.*u:\*\*\*@h/);
      expect(() => clientConnectionString('kurrentdb://h', { intervalMs: 1.5, timeoutMs: 1 })).toThrow(/keepAlive.intervalMs/);
      expect(redact('kurrentdb://admin:changeit@h:2113')).toBe('kurrentdb://admin:***@h:2113');
    });
  });

  describe('stream names', () => {
    it('puts a context in its own prefix and maps names both ways', () => {
      expect(serverStream('renopath_estates', 'estate-1')).toBe('renopath_estates-estate-1');
      expect(portStream('renopath_estates', 'renopath_estates-estate-1')).toBe('estate-1');
      expect(portStream('renopath_estates', 'renopath_identity-user-1')).toBeNull();
      expect(portStream('renopath_estates', '$$renopath_estates-estate-1')).toBeNull();
    });

    it('keeps namespaces from matching each other, and checkpoints out of every namespace', () => {
      expect(() => assertNamespace('renopath-estates')).toThrow(/invalid EventStoreDB namespace/);
      expect(() => assertNamespace('$all')).toThrow(/invalid EventStoreDB namespace/);
      expect(() => assertNamespace('')).toThrow(/invalid EventStoreDB namespace/);
      expect(assertNamespace('renopath_estates')).toBe('renopath_estates');
      const [estates] = serverPrefixes('renopath_est');
      expect('renopath_estates-estate-1'.startsWith(estates!)).toBe(false);
      const checkpoints = checkpointStream('renopath', 'relay');
      expect(checkpoints).toBe('renopath.checkpoint-relay');
      expect(portStream('renopath', checkpoints)).toBeNull();
    });

    it('narrows the server filter by the subscription prefixes', () => {
      expect(serverPrefixes('ns')).toEqual(['ns-']);
      expect(serverPrefixes('ns', ['organization-', 'user-'])).toEqual(['ns-organization-', 'ns-user-']);
      // No server filter matches nothing: the namespace is read and the client drops every event.
      expect(serverPrefixes('ns', [])).toEqual(['ns-']);
      expect(streamWanted([], 'user-1')).toBe(false);
      expect(streamWanted(undefined, 'user-1')).toBe(true);
      expect(streamWanted(['organization-', 'user-'], 'user-1')).toBe(true);
    });
  });

  describe('positions', () => {
    it('gives events of one append distinct, increasing positions that map back to their offsets', () => {
      const offsets = [1_000n, 1_180n, 1_360n];
      const positions = offsets.map((o) => eventPosition({ commit: o, prepare: o }));
      expect(positions).toEqual([2_001n, 2_361n, 2_721n]);
      for (const [i, p] of positions.entries()) expect(serverPosition(p)).toEqual({ commit: offsets[i], prepare: offsets[i] });
      expect(() => eventPosition({ commit: 500n, prepare: 400n })).toThrow(/explicit transaction/);
    });

    it('places a checkpoint between the events around it, so resuming after it misses none', () => {
      // "Everything before offset 1180 was read": the event at 1180 is still to come.
      const before = checkpointPosition({ commit: 1_180n, prepare: 0n });
      expect(before).toBeGreaterThan(eventPosition({ commit: 1_000n, prepare: 1_000n }));
      expect(before).toBeLessThan(eventPosition({ commit: 1_180n, prepare: 1_180n }));
      expect(serverPosition(before)).toEqual({ commit: 1_180n, prepare: 0n });
      // A checkpoint at an event's own position includes that event.
      expect(checkpointPosition({ commit: 1_180n, prepare: 1_180n })).toBe(eventPosition({ commit: 1_180n, prepare: 1_180n }));
      expect(serverPosition(0n)).toBe('start');
      expect(checkpointPosition({ commit: -1n, prepare: -1n })).toBe(0n);
    });
  });

  describe('revisions', () => {
    it('pins appends to the checked revision and reads the actual one from a conflict', () => {
      expect(pinnedState(null)).toBe('no_stream');
      expect(pinnedState(4n)).toBe(4n);
      expect(actualRevision('no_stream')).toBeNull();
      expect(actualRevision(-1n)).toBeNull();
      expect(actualRevision(7n)).toBe(7n);
    });
  });

  describe('events', () => {
    it('round-trips an event with its id, time stamp and metadata, never the server clock', () => {
      const event = newEvent('RoofUpdated', { area: 80.5, layers: ['a', 'b'], nested: { ok: true } });
      const written = toEventData('estate-1', event, 'client:key#Update');
      expect(written.id).toBe(event.event_id);
      expect(written.contentType).toBe('application/json');
      const converted = fromResolved('ns', { event: recorded('ns-estate-1', written, 3n, 5_000n) });
      expect(converted).toEqual({
        event: { ...event, stream: 'estate-1', revision: 3n, position: 10_001n },
        appendKey: 'client:key#Update',
      });
      expect(fromResolved('ns', { event: recorded('ns-estate-1', toEventData('estate-1', event), 3n, 5_000n) })).not.toHaveProperty(
        'appendKey',
      );
    });

    it('keeps ESDB conventions in the metadata for its UI and projections', () => {
      const event = newEvent();
      event.metadata.causation_id = 'cmd-1';
      const metadata = toEventData('s', event).metadata as Record<string, unknown>;
      expect(metadata['$correlationId']).toBe(event.metadata.correlation_id);
      expect(metadata['$causationId']).toBe('cmd-1');
    });

    it('maps ids that are not UUIDs onto stable UUIDs, and keeps the original', () => {
      const upper = 'A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D';
      expect(esdbEventId(upper)).toBe(upper.toLowerCase());
      const derived = esdbEventId('order-42:line-1');
      expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(esdbEventId('order-42:line-1')).toBe(derived);
      expect(esdbEventId('order-42:line-2')).not.toBe(derived);
      const event = { ...newEvent(), event_id: 'order-42:line-1' };
      const back = fromResolved('ns', { event: recorded('ns-s', toEventData('s', event), 0n, 10n) });
      expect(back?.event.event_id).toBe('order-42:line-1');
      expect(() => esdbEventId('')).toThrow(/must not be empty/);
    });

    it('refuses what the server or JSON cannot keep, naming the event', () => {
      const event = newEvent();
      expect(() => toEventData('s', { ...event, type: '$metadata' })).toThrow(/must not start with \$/);
      expect(() => toEventData('s', { ...event, type: '' })).toThrow(/must be non-empty/);
      expect(() => toEventData('s', { ...event, data: { amount: 1n } })).toThrow(new RegExp(`event ${event.event_id} data is not JSON`));
    });

    it('passes over links, system events and other namespaces, and refuses foreign events of its own', () => {
      const written = toEventData('s', newEvent());
      expect(fromResolved('ns', {})).toBeNull();
      expect(fromResolved('ns', { event: recorded('other-s', written, 0n, 10n) })).toBeNull();
      expect(fromResolved('ns', { event: { ...recorded('ns-s', written, 0n, 10n), type: '$>' } })).toBeNull();
      expect(() => fromResolved('ns', { event: { ...recorded('ns-s', written, 0n, 10n), metadata: { foo: 1 } } })).toThrow(
        /not written by the Renopath adapter/,
      );
      expect(() => fromResolved('ns', { event: { ...recorded('ns-s', written, 0n, 10n), isJson: false, data: new Uint8Array() } })).toThrow(
        /not written by the Renopath adapter/,
      );
      expect(() => fromResolved('ns', { event: { ...recorded('ns-s', written, 0n, 10n), position: undefined } })).toThrow(
        /without a log position/,
      );
    });
  });

  describe('checkpoints', () => {
    it('stores positions as decimal strings and refuses anything else', () => {
      const big = 2n ** 62n + 1n;
      expect(checkpointFromData('relay', JSON.parse(JSON.stringify(checkpointData(big))))).toBe(big);
      expect(() => checkpointData(-1n)).toThrow(/must not be negative/);
      expect(() => checkpointFromData('relay', { position: 12 })).toThrow(/checkpoint of relay is unreadable/);
      expect(() => checkpointFromData('relay', null)).toThrow(/unreadable/);
    });
  });

  describe('errors', () => {
    it('names the server and the operation when it cannot be reached, keeping the cause', () => {
      const server = 'kurrentdb://admin:changeit@db:2113?tls=false';
      const bridge = Object.assign(new Error('UnavailableError'), { type: 'unavailable' });
      const described = describeFailure(bridge, server, 'read estate-1') as Error;
      expect(described.message).toBe(
        'EventStoreDB at kurrentdb://admin:***@db:2113?tls=false is unavailable (read estate-1): UnavailableError',
      );
      expect(described.cause).toBe(bridge);
      const grpc = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
      expect((describeFailure(grpc, server, 'append to s') as Error).message).toMatch(/is unavailable \(append to s\)/);
      const slow = Object.assign(new Error('DeadlineExceededError'), { type: 'deadline-exceeded' });
      expect((describeFailure(slow, server, 'read $all') as Error).message).toMatch(/did not answer in time/);
      const conflict = Object.assign(new Error('Wrong expected version'), { type: 'wrong-expected-version' });
      expect(describeFailure(conflict, server, 'append to s')).toBe(conflict);
      expect(describeFailure('text', server, 'x')).toBe('text');
    });
  });
});
