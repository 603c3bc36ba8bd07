import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_STREAM } from '../ports/event-store.ts';
import { eventStoreContract } from '../testing/event-store.contract.ts';
import { newEvent } from '../testing/contract-helpers.ts';
import { openSqliteCheckpointStore, openSqliteEventStore } from './sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-event-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

eventStoreContract('sqlite', async (storage) => openSqliteEventStore({ file: join(dir, `${storage}.db`) }));

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

  it('works in memory', async () => {
    const store = openSqliteEventStore({ file: ':memory:' });
    await store.append('estate-1', [newEvent()], NO_STREAM);
    expect(await store.headPosition()).toBe(1n);
    await store.close();
  });
});
