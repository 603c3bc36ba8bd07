import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exact, NO_STREAM } from '../../ports/event-store.ts';
import { eventStoreContract } from '../../testing/event-store.contract.ts';
import { newEvent } from '../../testing/contract-helpers.ts';
import { envelopeJson, storedJsonOf } from '../../internal/stored-json.ts';
import { toEnvelope } from '../../service/relay.ts';
import { openSqliteCheckpointStore, openSqliteEventStore } from './sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-event-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

eventStoreContract('sqlite', async (storage) => openSqliteEventStore({ file: join(dir, `${storage}.db`) }));

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5_000) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('SqliteEventStore', () => {
  it('keeps consumer checkpoints in its own file', async () => {
    const file = join(dir, 'checkpoints.db');
    const store = openSqliteEventStore({ file });
    expect(await store.checkpoints.load('relay')).toBe(0n);
    await store.checkpoints.save('relay', 42n);
    await store.close();
    const reopened = openSqliteEventStore({ file });
    expect(await reopened.checkpoints.load('relay')).toBe(42n);
    await reopened.close();
  });

  it('opens checkpoints on their own connection to the same file', async () => {
    const file = join(dir, 'shared-file.db');
    const store = openSqliteEventStore({ file });
    const checkpoints = openSqliteCheckpointStore({ file });
    await checkpoints.save('relay', 7n);
    expect(await store.checkpoints.load('relay')).toBe(7n);
    await checkpoints.close();
    await store.close();
  });

  it("sees another connection's appends through polling", async () => {
    const file = join(dir, 'two-connections.db');
    const reader = openSqliteEventStore({ file, pollIntervalMs: 20 });
    const writer = openSqliteEventStore({ file });
    const subscription = reader.subscribeToAll();
    const next = subscription[Symbol.asyncIterator]().next();
    const event = newEvent();
    await writer.append('estate-1', [event], NO_STREAM);
    expect((await next).value?.event_id).toBe(event.event_id);
    await Promise.all([reader.close(), writer.close()]);
  });

  it('commits appends made together in one commit, and answers each only once another connection reads it', async () => {
    const file = join(dir, 'group-commit.db');
    const store = openSqliteEventStore({ file });
    const other = openSqliteEventStore({ file });
    const events = Array.from({ length: 8 }, () => newEvent());
    const appends = events.map((event, i) => store.append(`estate-${i}`, [event], NO_STREAM));
    // Nothing is committed before the group is: another connection sees none of them yet.
    expect(await other.headPosition()).toBe(0n);
    const results = await Promise.all(appends);
    expect(await other.headPosition()).toBe(8n);
    expect(results.map((r) => r.position)).toEqual(events.map((_, i) => BigInt(i + 1)));
    expect((await other.readAll()).map((e) => e.event_id)).toEqual(events.map((e) => e.event_id));
    await Promise.all([store.close(), other.close()]);
  });

  it('applies the appends of one group in the order they were made', async () => {
    const store = openSqliteEventStore({ file: join(dir, 'group-order.db') });
    const events = [newEvent(), newEvent(), newEvent()];
    // Each expects the revision the previous one makes: only in-order application lets all three pass.
    const results = await Promise.all(events.map((e, i) => store.append('job-1', [e], i === 0 ? NO_STREAM : exact(BigInt(i - 1)))));
    expect(results.map((r) => r.next_revision)).toEqual([0n, 1n, 2n]);
    expect((await store.readStream('job-1')).map((e) => e.event_id)).toEqual(events.map((e) => e.event_id));
    await store.close();
  });

  it('commits a checkpoint with the appends made with it, and keeps queued writes on close', async () => {
    const file = join(dir, 'group-close.db');
    const store = openSqliteEventStore({ file });
    const appended = store.append('estate-1', [newEvent()], NO_STREAM);
    const saved = store.checkpoints.save('relay', 1n);
    await store.close();
    expect((await appended).position).toBe(1n);
    await saved;
    const reopened = openSqliteEventStore({ file });
    expect(await reopened.headPosition()).toBe(1n);
    expect(await reopened.checkpoints.load('relay')).toBe(1n);
    await reopened.close();
  });

  it('at FULL, answers an append and wakes its subscribers only once an fsync of the WAL begun after its commit returned', async () => {
    const held: Array<(error: Error | null) => void> = [];
    const store = openSqliteEventStore({ file: join(dir, 'wal-sync.db'), syncFile: (_fd, done) => held.push(done) });
    const seen: string[] = [];
    const subscription = store.subscribeToAll();
    void (async () => {
      for await (const event of subscription) seen.push(event.event_id);
    })();
    let answered = 0;
    const first = newEvent();
    void store.append('estate-1', [first], NO_STREAM).then(() => (answered += 1));
    await until(() => held.length === 1);
    // Committed (the next append is decided on it) but not yet on disk: nobody has heard of it.
    const second = newEvent();
    void store.append('estate-1', [second], exact(0n)).then(() => (answered += 1));
    const third = newEvent();
    void store.append('estate-2', [third], NO_STREAM).then(() => (answered += 1));
    // A read returning an event not yet on disk waits for its fsync.
    let read: string[] | null = null;
    void store.readStream('estate-1').then((events) => (read = events.map((e) => e.event_id)));
    await new Promise((r) => setTimeout(r, 30));
    expect(answered).toBe(0);
    expect(seen).toEqual([]);
    expect(read).toBeNull();
    held.shift()!(null);
    await until(() => answered === 1 && seen.length === 1);
    expect(seen).toEqual([first.event_id]);
    expect(read).toBeNull();
    // The two appends made while the first fsync ran share the next one.
    await until(() => held.length === 1);
    held.shift()!(null);
    await until(() => answered === 3 && seen.length === 3);
    expect(read).toEqual([first.event_id, second.event_id]);
    expect(seen).toEqual([first.event_id, second.event_id, third.event_id]);
    expect(held).toHaveLength(0);
    // A checkpoint is as durable as an append: answered once its own group's fsync returned.
    let saved = false;
    void store.checkpoints.save('relay', 3n).then(() => (saved = true));
    await until(() => held.length === 1);
    expect(saved).toBe(false);
    held.shift()!(null);
    await until(() => saved);
    await subscription.close();
    await store.close();
  });

  it('at FULL, fails the appends whose fsync failed, and does not keep readers waiting for it', async () => {
    let fails = true;
    const store = openSqliteEventStore({
      file: join(dir, 'wal-sync-fails.db'),
      syncFile: (_fd, done) => done(fails ? new Error('EIO: the disk failed') : null),
    });
    const event = newEvent();
    await expect(store.append('estate-1', [event], NO_STREAM)).rejects.toThrow(/EIO/);
    // Stored all the same, with its durability unknown: readers are not left waiting for it.
    expect((await store.readStream('estate-1')).map((e) => e.event_id)).toEqual([event.event_id]);
    fails = false;
    await store.append('estate-1', [newEvent()], exact(0n));
    await store.close();
  });

  it('at FULL, answers every append and has them all after reopening', async () => {
    const file = join(dir, 'wal-sync-real.db');
    const store = openSqliteEventStore({ file });
    const appends = Array.from({ length: 20 }, (_, i) => store.append(`estate-${i}`, [newEvent()], NO_STREAM));
    const results = await Promise.all(appends);
    await store.checkpoints.save('relay', 20n);
    await store.close();
    const reopened = openSqliteEventStore({ file });
    expect(await reopened.headPosition()).toBe(results.reduce((max, r) => (r.position > max ? r.position : max), 0n));
    expect(await reopened.checkpoints.load('relay')).toBe(20n);
    await reopened.close();
  });

  it('hands out events whose data and metadata read, spread, serialise and compare like plain fields', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    const event = newEvent('RoofAdded', { roof: { kind: 'FLAT', area: 12.5 } });
    await store.append('estate-1', [event], NO_STREAM);
    const [read] = await store.readAll();
    const plain = { ...read! };
    expect(plain.data).toEqual(event.data);
    expect(JSON.parse(JSON.stringify({ ...read, revision: 0, position: 0 }))).toMatchObject({ data: event.data, metadata: event.metadata });
    expect(read).toEqual({ ...plain });
    expect(read!.data).toBe(read!.data);
    read!.data = { replaced: true };
    expect(read!.data).toEqual({ replaced: true });
    // what it is read from stays out of sight, and a frozen event still reads
    expect(Object.getOwnPropertySymbols(plain)).toEqual([]);
    const [frozen] = await store.readAll();
    Object.freeze(frozen);
    expect(frozen!.metadata).toEqual(event.metadata);
    expect(frozen!.data).toEqual(event.data);
    await store.close();
  });

  it('hands the relay its stored text while nothing has read it, and the envelope is written as the parsed one would be', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    const event = newEvent('RoofAdded', { roof: { kind: 'FLAT', area: 12.5, note: 'a "quoted"\nline' } });
    await store.append('estate-1', [event], NO_STREAM);
    const [untouched] = await store.readAll();
    expect(storedJsonOf(untouched!)).toBeDefined();
    const envelope = toEnvelope('estates', untouched!);
    const [read] = await store.readAll();
    const parsed = toEnvelope('estates', { ...read! });
    expect(storedJsonOf(parsed)).toBeUndefined();
    expect(envelopeJson(envelope)).toBe(JSON.stringify(parsed));
    // read once, its text is no longer handed out: it may have been changed since
    expect(read!.data).toEqual(event.data);
    expect(storedJsonOf(read!)).toBeUndefined();
    await store.close();
  });

  it("reads a stream it wrote and read before with another connection's appends to it, and decides on them", async () => {
    const file = join(dir, 'stream-rows.db');
    const store = openSqliteEventStore({ file });
    const other = openSqliteEventStore({ file });
    const [a, b, c] = [newEvent(), newEvent(), newEvent()];
    await store.append('estate-1', [a], NO_STREAM);
    expect((await store.readStream('estate-1')).map((e) => e.event_id)).toEqual([a.event_id]);
    await other.append('estate-1', [b], exact(0n));
    // The rows this store holds of the stream are stale now: it must read the other's event.
    expect((await store.readStream('estate-1')).map((e) => e.event_id)).toEqual([a.event_id, b.event_id]);
    expect((await store.readStream('estate-1', { fromRevision: 1n })).map((e) => e.event_id)).toEqual([b.event_id]);
    await expect(store.append('estate-1', [c], exact(0n))).rejects.toThrow(/expected 0, actual 1/);
    await store.append('estate-1', [c], exact(1n));
    expect((await other.readStream('estate-1')).map((e) => e.event_id)).toEqual([a.event_id, b.event_id, c.event_id]);
    await other.close();
    await store.close();
  });

  it('works in memory', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    await store.append('estate-1', [newEvent()], NO_STREAM);
    expect(await store.headPosition()).toBe(1n);
    await store.close();
  });
});
