import { afterEach, describe, expect, it } from 'vitest';
import { ANY, type RecordedEvent } from './ports/event-store.ts';
import type { ReadStoreTx } from './ports/read-store.ts';
import { runProjection, ProjectionTimeoutError, type Projection } from './projection-runner.ts';
import { openSqliteEventStore } from './sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from './sqlite/sqlite-read-store.ts';
import { newEvent, rejection } from './testing/contract-helpers.ts';

interface StreamCount {
  stream: string;
  count: number;
  last_revision: number;
}

/** Not idempotent on purpose: applying an event twice would show as a wrong count. */
async function countPerStream(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const current = (await tx.get<StreamCount>('counts', event.stream)) ?? { stream: event.stream, count: 0, last_revision: -1 };
  await tx.put('counts', event.stream, { ...current, count: current.count + 1, last_revision: Number(event.revision) });
}

const retry = { initialDelayMs: 5, maxDelayMs: 20 };

describe('runProjection', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  function stores() {
    const eventStore = openSqliteEventStore({ file: ':memory:' });
    const readStore = openSqliteReadStore({ file: ':memory:' });
    cleanup.push(
      () => eventStore.close(),
      () => readStore.close(),
    );
    return { eventStore, readStore };
  }

  function start(options: Parameters<typeof runProjection>[0]): Projection {
    const projection = runProjection(options);
    cleanup.push(() => projection.close());
    return projection;
  }

  it('applies each event with its checkpoint, and waitFor gives read-your-writes', async () => {
    const { eventStore, readStore } = stores();
    const projection = start({ name: 'counts', eventStore, readStore, collections: ['counts'], handle: countPerStream, retry });
    await eventStore.append('estate-1', [newEvent(), newEvent()], ANY);
    const { position } = await eventStore.append('estate-2', [newEvent()], ANY);
    await projection.waitFor(position, 5000);
    expect(await readStore.get('counts', 'estate-1')).toEqual({ stream: 'estate-1', count: 2, last_revision: 1 });
    expect(await readStore.get('counts', 'estate-2')).toEqual({ stream: 'estate-2', count: 1, last_revision: 0 });
    expect(await readStore.loadCheckpoint('counts')).toBe(position);
  });

  it('resumes from its checkpoint after a restart without applying an event twice', async () => {
    const { eventStore, readStore } = stores();
    const options = { name: 'counts', eventStore, readStore, collections: ['counts'], handle: countPerStream, retry };
    const first = runProjection(options);
    const { position } = await eventStore.append('estate-1', [newEvent(), newEvent()], ANY);
    await first.waitFor(position, 5000);
    await first.close();

    const later = await eventStore.append('estate-1', [newEvent()], ANY);
    const second = start(options);
    await second.waitFor(later.position, 5000);
    expect(await readStore.get('counts', 'estate-1')).toMatchObject({ count: 3, last_revision: 2 });
  });

  it('rolls back a failed event, retries it from the checkpoint, and reports the failure', async () => {
    const { eventStore, readStore } = stores();
    const failures: Array<string | undefined> = [];
    let failOnce = true;
    const projection = start({
      name: 'counts',
      eventStore,
      readStore,
      collections: ['counts'],
      retry,
      onError: (_, event) => failures.push(event?.event_id),
      handle: async (event, tx) => {
        await countPerStream(event, tx);
        if (event.revision === 1n && failOnce) {
          failOnce = false;
          throw new Error('read model hiccup');
        }
      },
    });
    const events = [newEvent(), newEvent(), newEvent()];
    const { position } = await eventStore.append('estate-1', events, ANY);
    await projection.waitFor(position, 5000);
    expect(await readStore.get('counts', 'estate-1')).toMatchObject({ count: 3, last_revision: 2 });
    expect(failures).toEqual([events[1]!.event_id]);
  });

  it('rebuild empties its collections and replays the log', async () => {
    const { eventStore, readStore } = stores();
    const projection = start({ name: 'counts', eventStore, readStore, collections: ['counts'], handle: countPerStream, retry });
    const { position } = await eventStore.append('estate-1', [newEvent(), newEvent()], ANY);
    await projection.waitFor(position, 5000);
    await readStore.transaction(async (tx) => {
      await tx.put('counts', 'estate-1', { stream: 'estate-1', count: 99, last_revision: 99 });
      await tx.put('counts', 'stale', { stream: 'stale', count: 1, last_revision: 0 });
    });

    await projection.rebuild();
    expect((await readStore.query('counts')).items).toEqual([{ stream: 'estate-1', count: 2, last_revision: 1 }]);
    const next = await eventStore.append('estate-1', [newEvent()], ANY);
    await projection.waitFor(next.position, 5000);
    expect(await readStore.get('counts', 'estate-1')).toMatchObject({ count: 3 });
  });

  it('counts skipped streams as reached, so waitFor does not hang on them', async () => {
    const { eventStore, readStore } = stores();
    const projection = start({
      name: 'counts',
      eventStore,
      readStore,
      collections: ['counts'],
      handle: countPerStream,
      streamPrefixes: ['estate-'],
      retry,
    });
    await eventStore.append('estate-1', [newEvent()], ANY);
    const { position } = await eventStore.append('organization-1', [newEvent()], ANY);
    await projection.waitFor(position, 5000);
    expect((await readStore.query('counts')).items.map((d) => (d as StreamCount).stream)).toEqual(['estate-1']);
  });

  it('times out a waitFor the log never reaches, and rejects waiters on close', async () => {
    const { eventStore, readStore } = stores();
    const projection = runProjection({ name: 'counts', eventStore, readStore, collections: ['counts'], handle: countPerStream, retry });
    expect(await rejection(projection.waitFor(10n, 50))).toBeInstanceOf(ProjectionTimeoutError);
    const pending = rejection(projection.waitFor(10n));
    await projection.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
