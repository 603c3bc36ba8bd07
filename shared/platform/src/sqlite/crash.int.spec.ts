import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReadStore } from '../ports/read-store.ts';
import { runProjection } from '../projection-runner.ts';
import { LEDGER_COLLECTION, LEDGER_PROJECTION, projectLedger, type LedgerEntry } from '../testing/ledger-projection.ts';
import { openSqliteEventStore } from './event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from './sqlite-read-store.ts';
import { findTsx } from '../testing/tsx.ts';

const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, '..', 'testing', 'crash-child.ts');

const dir = mkdtempSync(join(tmpdir(), 'renopath-crash-'));
let child: ChildProcess | undefined;

afterAll(() => {
  // tsx runs the script in a grandchild: the whole process group goes.
  if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function ledger(store: ReadStore): Promise<LedgerEntry[]> {
  return (await store.query<LedgerEntry>(LEDGER_COLLECTION, { sort: [{ field: 'stream', order: 'ASC' }] })).items;
}

describe('SQLite stores under SIGKILL', () => {
  it('keep every acknowledged event exactly once, and a projection that catches up to a rebuild', { timeout: 60_000 }, async () => {
    const eventsFile = join(dir, 'events.db');
    const readsFile = join(dir, 'reads.db');
    child = spawn(findTsx(here), [childScript, eventsFile, readsFile], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = child;

    let stdout = '';
    let stderr = '';
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<NodeJS.Signals | null>((resolve) => proc.once('close', (_, signal) => resolve(signal)));

    const lines = () => stdout.split('\n').slice(0, -1);
    const acks = () => lines().filter((l) => l.startsWith('ack '));
    const projected = () => lines().some((l) => l.startsWith('projected '));
    const deadline = Date.now() + 45_000;
    while (acks().length < 600 || !projected()) {
      if (proc.exitCode !== null) throw new Error(`child exited early (${proc.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`child made too little progress: ${acks().length} acks; ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    process.kill(-proc.pid!, 'SIGKILL');
    expect(await closed).toBe('SIGKILL');

    // Only complete lines count: a line cut by the kill was never an acknowledgement we saw.
    const acknowledged = acks().flatMap((l) => l.slice(4).split(','));
    const eventStore = openSqliteEventStore({ file: eventsFile });
    const log = await eventStore.readAll();
    const ids = log.map((e) => e.event_id);
    expect(log.map((e) => e.position)).toEqual(log.map((_, i) => BigInt(i + 1)));
    expect(new Set(ids).size).toBe(ids.length);
    const stored = new Set(ids);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const revisions = new Map<string, bigint[]>();
    for (const e of log) revisions.set(e.stream, [...(revisions.get(e.stream) ?? []), e.revision]);
    for (const stream of revisions.values()) expect(stream).toEqual(stream.map((_, i) => BigInt(i)));

    const head = await eventStore.headPosition();
    const crashed = openSqliteReadStore({ file: readsFile });
    expect(await crashed.loadCheckpoint(LEDGER_PROJECTION)).toBeGreaterThan(0n);
    const fresh = openSqliteReadStore({ file: ':memory:' });
    const options = { name: LEDGER_PROJECTION, eventStore, collections: [LEDGER_COLLECTION], handle: projectLedger };
    const resumed = runProjection({ ...options, readStore: crashed });
    const rebuilt = runProjection({ ...options, readStore: fresh });
    await Promise.all([resumed.waitFor(head, 20_000), rebuilt.waitFor(head, 20_000)]);
    await Promise.all([resumed.close(), rebuilt.close()]);

    const expected = await ledger(fresh);
    expect(expected.reduce((n, entry) => n + entry.events, 0)).toBe(log.length);
    expect(await ledger(crashed)).toEqual(expected);
    await Promise.all([crashed.close(), fresh.close(), eventStore.close()]);
  });
});
