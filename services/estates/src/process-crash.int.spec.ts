import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryBus,
  openFsBlobStore,
  openSqliteEventStore,
  openSqliteReadStore,
  type EventStore,
  type ReadStore,
} from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import { runProjection } from '@renopath/platform/projection-runner.ts';
import type { EstateEvent } from '@renopath/contracts';
import { estateDecider, estateStream } from './estate/estate.decider.ts';
import { C, ESTATE_STREAM_PREFIX, ESTATE_VIEWS_PROJECTION, projectEstateViews } from './estate-views/estate-views.projection.ts';
import { externalIdDecider, externalIdStream } from './external-id/external-id.decider.ts';
import { startEstates } from './estates.service.ts';
import { ORG, STEPS } from './testing/process-crash.steps.ts';
import { findTsx } from '@renopath/platform/testing/tsx.ts';

const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, 'testing', 'process-crash-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'renopath-estates-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it kills itself at `step`; resolves with its output. */
function runChild(args: string[]): Promise<{ stdout: string; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(findTsx(here), [childScript, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    // tsx relays the grandchild's signal as its own exit: the output says whether the kill happened.
    child.once('close', (_, signal) => resolve({ stdout, signal, stderr }));
  });
}

const collections = Object.values(C);
async function snapshot(reads: ReadStore) {
  const out: Record<string, unknown[]> = {};
  for (const c of collections) out[c] = (await reads.query(c, { sort: [{ field: '_id', order: 'ASC' }] })).items;
  return out;
}

const domain = (events: Awaited<ReturnType<EventStore['readStream']>>) =>
  events.map((e) => ({ type: e.type, data: e.data }) as EstateEvent);

describe('estates process managers under SIGKILL', () => {
  for (const step of STEPS) {
    it(`finish the external_id and deletion workflows after a kill at ${step}`, { timeout: 60_000 }, async () => {
      const base = join(dir, step);
      const files = [join(`${base}-events.db`), join(`${base}-reads.db`), join(`${base}-blobs`)];
      const child = await runChild([...files, step]);
      expect(child.stdout, child.stderr).toContain(`killed ${step}`);
      expect(child.stdout).not.toContain('done');
      const [, estate_id, blob_key] = /setup (\S+) (\S+)/.exec(child.stdout)!;

      // Restart on the same files: the process managers resume from their checkpoints.
      const eventStore = openSqliteEventStore({ file: files[0]! });
      const readStore = openSqliteReadStore({ file: files[1]! });
      const blobs = await openFsBlobStore({ root: files[2]! });
      const bus = createMemoryBus();
      const service = await startEstates({
        bus,
        eventStore,
        readStore,
        blobs,
        log: pino({ level: 'silent' }),
        config: { publicUrl: 'http://x', settleTimeoutMs: 10_000 },
      });
      try {
        const head = await eventStore.headPosition();
        await service.projection.waitFor(head, 20_000);
        for (const p of service.processes) await p.waitFor(head, 20_000);

        const estate = fold(estateDecider, domain(await eventStore.readStream(estateStream(estate_id!))));
        const holder = async (external_id: string) =>
          fold(
            externalIdDecider,
            (await eventStore.readStream(externalIdStream(ORG, external_id))).map((e) => ({ type: e.type, data: e.data }) as never),
          ).holder;
        // The claims match the estate, whatever step the crash hit: the old id is always free again.
        expect(await holder('crm-first')).toBeNull();
        const deleted = step === 'delete-appended' || step === 'bytes-deleted';
        expect(estate.status).toBe(deleted ? 'DELETED' : 'ACTIVE');
        expect(await holder('crm-moved')).toBe(deleted ? null : estate_id);
        // A removed file's bytes are gone; a file of a live estate keeps them.
        expect(await blobs.head(blob_key!)).toEqual(deleted ? null : expect.anything());
        // Each release happened once, however often the step was replayed.
        const releases = (await eventStore.readAll()).filter((e) => e.type === 'ExternalIdReleased');
        expect(releases.length).toBe(deleted ? 2 : 1);

        // The read models equal a clean rebuild from the same events.
        const fresh = openSqliteReadStore({ file: ':memory:' });
        const rebuilt = runProjection({
          name: ESTATE_VIEWS_PROJECTION,
          eventStore,
          readStore: fresh,
          collections,
          streamPrefixes: [ESTATE_STREAM_PREFIX],
          handle: projectEstateViews,
        });
        await rebuilt.waitFor(head, 20_000);
        expect(await snapshot(readStore)).toEqual(await snapshot(fresh));
        await rebuilt.close();
        await fresh.close();
      } finally {
        await service.close();
        await bus.close();
        await blobs.close();
        await readStore.close();
        await eventStore.close();
      }
    });
  }
});
