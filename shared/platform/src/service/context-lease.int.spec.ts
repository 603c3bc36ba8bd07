import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ANY } from '../ports/event-store.ts';
import type { HeldLease } from '../ports/lease.ts';
import { createMemoryLeaseStore } from '../memory/memory-lease.ts';
import { runProjection } from '../projection-runner.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { newEvent, rejection } from '../testing/contract-helpers.ts';
import { runProcessManager } from './process-manager.ts';
import { LeaseLostError, openLeadership, type Leadership } from './context-lease.ts';
import { followerReached } from './lease-follower.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-lease-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = pino({ level: 'silent' });
let files = 0;
const stores = () => {
  files += 1;
  return {
    eventStore: openSqliteEventStore({ file: join(dir, `events-${files}.db`) }),
    readStore: openSqliteReadStore({ file: join(dir, `reads-${files}.db`) }),
  };
};
/** Two replicas in one process: leaderships over one holder table, as two processes over one server. */
const pair = async (holders = new Map<string, HeldLease>(), extra: { fenceStore?: ReturnType<typeof stores>['readStore'] } = {}) => {
  const open = () =>
    openLeadership({ leases: createMemoryLeaseStore(holders), name: 'ctx:background', shared: true, retryMs: 10, log, ...extra });
  return [await open(), await open()] as [Leadership, Leadership];
};

describe('leadership over a lease', () => {
  it('runs parts on the holder only, and starts them on the next one when it lets go', async () => {
    const [a, b] = await pair();
    const running: string[] = [];
    const part = (who: string) => () => (running.push(who), { close: async () => void running.splice(running.indexOf(who), 1) });
    await a.whileLeading('worker', part('a'));
    await b.whileLeading('worker', part('b'));
    expect([a.leading, b.leading]).toEqual([true, false]);
    expect(running).toEqual(['a']);
    await a.close();
    await vi.waitFor(() => expect(running).toEqual(['b']), { timeout: 2000, interval: 5 });
    expect(b.leading).toBe(true);
    await b.close();
    expect(running).toEqual([]);
  });

  it('fences a holder that was taken over: its commits throw instead of landing behind the new holder', async () => {
    const { readStore } = stores();
    // Separate holder tables: both believe they lead, as a holder cut off from the server would.
    const a = await openLeadership({
      leases: createMemoryLeaseStore(),
      name: 'ctx:background',
      shared: true,
      retryMs: 10,
      log,
      fenceStore: readStore,
    });
    await readStore.transaction((tx) => a.fence(tx));
    const b = await openLeadership({
      leases: createMemoryLeaseStore(),
      name: 'ctx:background',
      shared: true,
      retryMs: 10,
      log,
      fenceStore: readStore,
    });
    await readStore.transaction((tx) => b.fence(tx));
    const refused = await rejection(readStore.transaction((tx) => a.fence(tx)));
    expect(refused).toBeInstanceOf(LeaseLostError);
    expect(String(refused)).toMatch(/another replica took it over/);
    await a.close();
    await b.close();
    expect(await rejection(readStore.transaction((tx) => b.fence(tx)))).toBeInstanceOf(LeaseLostError);
    await readStore.close();
  });
});

describe('projections and process managers of replicas', () => {
  it('apply on the holder only; a follower reads its writes through the checkpoint, and takes over', async () => {
    const { eventStore, readStore } = stores();
    const [a, b] = await pair();
    const applied: string[] = [];
    const projection = (leadership: Leadership, who: string) =>
      runProjection({
        name: 'counts',
        eventStore,
        readStore,
        collections: ['counts'],
        streamPrefixes: ['counted-'],
        leadership,
        handle: async (event, tx) => {
          applied.push(who);
          const doc = (await tx.get<{ n: number }>('counts', event.stream)) ?? { n: 0 };
          await tx.put('counts', event.stream, { n: doc.n + 1 });
        },
      });
    const [pa, pb] = [projection(a, 'a'), projection(b, 'b')];
    for (let i = 1; i <= 5; i++) {
      const { position } = await eventStore.append('counted-1', [newEvent()], ANY);
      await eventStore.append('skipped-1', [newEvent()], ANY); // no checkpoint is saved for these
      await pb.waitFor(position + 1n, 2000); // past the skipped one too
      expect(await readStore.get('counts', 'counted-1')).toEqual({ n: i });
    }
    expect(new Set(applied)).toEqual(new Set(['a']));
    await pa.close();
    await a.close();
    await vi.waitFor(() => expect(b.leading).toBe(true), { timeout: 2000, interval: 5 });
    const { position } = await eventStore.append('counted-1', [newEvent()], ANY);
    await pb.waitFor(position, 2000);
    expect(await readStore.get('counts', 'counted-1')).toEqual({ n: 6 });
    expect(applied).toEqual(['a', 'a', 'a', 'a', 'a', 'b']);
    await pb.close();
    await b.close();
  });

  it("a process manager acts on the holder only, and a follower waits on the holder's progress", async () => {
    const { eventStore, readStore } = stores();
    const [a, b] = await pair();
    const handled: string[] = [];
    const manager = (leadership: Leadership, who: string) =>
      runProcessManager({
        name: 'pm',
        eventStore,
        readStore,
        eventTypes: ['Wanted'],
        leadership,
        handle: async () => void handled.push(who),
      });
    const [ma, mb] = [manager(a, 'a'), manager(b, 'b')];
    await eventStore.append('s-1', [newEvent('Wanted')], ANY);
    const { position } = await eventStore.append('s-1', [newEvent('Other'), newEvent('Other')], ANY);
    await mb.waitFor(position, 2000);
    expect(handled).toEqual(['a']);
    await ma.close();
    await mb.close();
    await a.close();
    await b.close();
  });

  it('followerReached: the checkpoint, or up to the first event the leader would still act on', async () => {
    const { eventStore } = stores();
    for (const stream of ['a-1', 'b-1', 'b-2', 'a-2', 'b-3']) await eventStore.append(stream, [newEvent()], ANY);
    const wanted = (e: { stream: string }) => e.stream.startsWith('a-');
    expect(await followerReached(eventStore, 1n, 5n, wanted)).toBe(3n); // a-2 at 4 is not applied yet
    expect(await followerReached(eventStore, 4n, 5n, wanted)).toBe(5n);
    expect(await followerReached(eventStore, 5n, 3n, wanted)).toBe(5n);
    expect(await followerReached(eventStore, 0n, 5n, wanted)).toBe(0n);
  });
});
