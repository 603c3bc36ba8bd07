import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ANY, NO_STREAM, type RecordedEvent } from '../ports/event-store.ts';
import { eventStoreContract } from '../testing/event-store.contract.ts';
import { newEvent, uniqueName } from '../testing/contract-helpers.ts';
import { openPostgresCheckpointStore, openPostgresEventStore, type PostgresEventStore } from './postgres-event-store.ts';
import { postgresListening, testPostgresUrl, testSchemas } from './test-database.ts';

const reachable = await postgresListening();
if (!reachable)
  console.warn(`[skip] EventStore contract: postgres — nothing listens on ${testPostgresUrl} (set RENOPATH_TEST_POSTGRES_URL)`);

const schemas = testSchemas('es');
const open = (storage: string, pollIntervalMs?: number) =>
  openPostgresEventStore({
    connectionString: testPostgresUrl,
    schema: schemas.schemaOf(storage),
    ...(pollIntervalMs ? { pollIntervalMs } : {}),
  });

describe.skipIf(!reachable)('PostgresEventStore', () => {
  const opened: PostgresEventStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(() => schemas.drop());

  eventStoreContract('postgres', (storage) => open(storage));

  it('keeps consumer checkpoints in its schema, also on their own connection', async () => {
    const storage = uniqueName('checkpoints');
    const store = await open(storage);
    expect(await store.checkpoints.load('relay')).toBe(0n);
    await store.checkpoints.save('relay', 42n);
    await store.close();
    const checkpoints = await openPostgresCheckpointStore({ connectionString: testPostgresUrl, schema: schemas.schemaOf(storage) });
    expect(await checkpoints.load('relay')).toBe(42n);
    await checkpoints.save('relay', 43n);
    const reopened = await open(storage);
    expect(await reopened.checkpoints.load('relay')).toBe(43n);
    await Promise.all([checkpoints.close(), reopened.close()]);
  });

  it("wakes a subscription on another connection's append", async () => {
    const storage = uniqueName('two-connections');
    // A poll far longer than the test's own timeout: only the notification can deliver in time.
    const reader = await open(storage, 60_000);
    const writer = await open(storage);
    const subscription = reader.subscribeToAll();
    const iterator = subscription[Symbol.asyncIterator]();
    const event = newEvent();
    await writer.append('estate-1', [event], NO_STREAM);
    expect((await iterator.next()).value?.event_id).toBe(event.event_id);
    await Promise.all([reader.close(), writer.close()]);
  });

  it('never lets a subscription skip an event while several connections append at once', async () => {
    const storage = uniqueName('gap-free');
    const writers: PostgresEventStore[] = await Promise.all(Array.from({ length: 6 }, () => open(storage)));
    const reader = await open(storage, 5);
    // Closed in afterEach even when an assertion fails, so the run's schemas can be dropped.
    opened.push(...writers, reader);
    const subscription = reader.subscribeToAll();
    const received: RecordedEvent[] = [];
    const sentinel = newEvent('Done');
    const reading = (async () => {
      for await (const event of subscription) {
        received.push(event);
        if (event.event_id === sentinel.event_id) break;
      }
    })();
    // Each writer appends batches of varying size to its own streams, so transactions of different
    // lengths overlap and, were they not ordered, would commit out of the order they drew positions in.
    await Promise.all(
      writers.map(async (writer, w) => {
        for (let i = 0; i < 40; i++) {
          const batch = Array.from({ length: 1 + ((i + w) % 4) }, () => newEvent());
          await writer.append(`writer-${w}-${i % 5}`, batch, ANY);
        }
      }),
    );
    await writers[0]!.append('done-1', [sentinel], NO_STREAM);
    await reading;
    const stored = await reader.readAll();
    expect(received.map((e) => e.event_id)).toEqual(stored.map((e) => e.event_id));
    for (let i = 1; i < received.length; i++) expect(received[i]!.position).toBeGreaterThan(received[i - 1]!.position);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openPostgresEventStore({ connectionString: testPostgresUrl, schema: 'Bad"; DROP' })).rejects.toThrow(
      /invalid PostgreSQL schema/,
    );
  });
});
