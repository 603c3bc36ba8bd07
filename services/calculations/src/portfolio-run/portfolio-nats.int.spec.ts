import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connectNatsBus, openFsBlobStore, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import { natsListening, testNatsUrl } from '@renopath/platform/testing/listening.ts';
import { findTsx } from '@renopath/platform/testing/tsx.ts';
import { PortfolioSubjects, type PortfolioRun, type ServiceRequest } from '@renopath/contracts';
import { busComputer, startPortfolioRuns } from './index.ts';
import { syntheticCsvText } from './testing.ts';

const reachable = await natsListening();
if (!reachable) console.warn(`[skip] portfolio runs over NATS: nothing listens on ${testNatsUrl} (set RENOPATH_TEST_NATS_URL)`);

const here = dirname(fileURLToPath(import.meta.url));
const id = randomUUID().replaceAll('-', '').slice(0, 12);
const stream = `RENOPATH_PORTFOLIO_${id}`;
const prefix = `portfolio${id}`;
const dir = mkdtempSync(join(tmpdir(), 'portfolio-nats-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  if (!reachable) return;
  const nc = await connect({ servers: testNatsUrl });
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
  await nc.close();
});

/** A worker process; resolves once it serves, with the batches it says it computed. */
function worker(name: string): Promise<{ batches: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(findTsx(here), [join(here, 'worker-child.ts'), testNatsUrl, stream, prefix, name], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const seen = { batches: [] as string[] };
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (line === 'ready') resolve(seen);
        else if (line.startsWith('batch ')) seen.batches.push(line);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker ${name} exited (${code}): ${stderr}`)));
  });
}

describe.skipIf(!reachable)('a portfolio run over NATS', () => {
  it('fans its batches out to two worker processes, which share the run; every row once', { timeout: 180_000 }, async () => {
    const [a, b] = await Promise.all([worker('portfolio-worker-a'), worker('portfolio-worker-b')]);
    const bus = await connectNatsBus({ servers: testNatsUrl, streamName: stream, subjectPrefix: prefix, name: 'portfolio-coordinator' });
    const eventStore = openSqliteEventStore({ file: join(dir, 'events.db') });
    const readStore = openSqliteReadStore({ file: join(dir, 'reads.db') });
    const blobs = await openFsBlobStore({ root: join(dir, 'blobs') });
    const runs = await startPortfolioRuns({
      eventStore,
      readStore,
      blobs,
      log: pino({ level: 'silent' }),
      computer: busComputer(bus, PortfolioSubjects.computeBatch, 60_000),
      settleTimeoutMs: 10_000,
      isWriter: async () => true,
      inFlight: 4,
    });
    try {
      const csv = syntheticCsvText(2_000, 13);
      const blob_key = 'uploads/0b6f3f0e-3333-4a4a-9a9a-000000000001';
      await blobs.put(blob_key, Buffer.from(csv), 'text/csv');
      const actor = {
        user_id: '0b6f3f0e-2222-4a4a-9a9a-000000000002',
        organization_id: '0b6f3f0e-1111-4a4a-9a9a-000000000001',
        client_id: 'c',
      };
      const req = (extra: object) => ({ actor, correlation_id: 'nats', params: {}, query: {}, ...extra }) as unknown as ServiceRequest;
      const created = (await runs.handlers.create(
        req({ body: { blob_key, name: 'homes.csv', mimetype: 'text/csv', size: csv.length } }),
      )) as PortfolioRun;
      await runs.runner.kick(created.id);
      const run = (await runs.handlers.get(req({ params: { portfolio_run_id: created.id } }))) as PortfolioRun;
      expect(run).toMatchObject({ status: 'FINISHED', processed_rows: 2_000 });
      // Both processes computed batches, and together each of the 10 exactly once (no retries here).
      expect(a.batches.length).toBeGreaterThan(0);
      expect(b.batches.length).toBeGreaterThan(0);
      expect(new Set([...a.batches, ...b.batches]).size).toBe(10);
      expect(a.batches.length + b.batches.length).toBe(10);
      const rows: number[] = [];
      for (let batch = 0; batch < 10; batch++) rows.push(...((await runs.store.results(created.id, batch)) ?? []).map((r) => r.row_number));
      expect(rows).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
    } finally {
      await runs.close();
      await bus.close();
      await eventStore.close();
      await readStore.close();
      await blobs.close();
    }
  });
});
