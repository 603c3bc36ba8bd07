import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryBus, openSqliteEventStore, openSqliteReadStore, type Bus, type EventStore, type ReadStore } from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import { runProjection } from '@renopath/platform/projection-runner.ts';
import type { EstateEvent, RenovationEvent } from '@renopath/contracts';
import { IDENTITY_CONSUMER } from '../src/directory-mirror/directory-mirror.reactor.ts';
import { applyEstateEvent, type Snapshot } from '../src/estate-mirror/estate-mirror.ts';
import { ESTATES_CONSUMER, M, type EstateMirrorDoc } from '../src/estate-mirror/estate-mirror.reactor.ts';
import { renovationDecider, renovationStream } from '../src/renovation/renovation.decider.ts';
import {
  C,
  projectRenovationViews,
  RENOVATION_STREAM_PREFIX,
  RENOVATION_VIEWS_PROJECTION,
} from '../src/renovation-views/renovation-views.projection.ts';
import { startRenovations } from '../src/renovations.service.ts';
import { ESTATE_ID, estatesLog, ownerAdded, publishedAt, STEPS, workflowOf } from './workflow-crash.steps.ts';
import { findTsx } from '@renopath/platform/testing/tsx.ts';

/**
 * Renovations' workflows that span streams, under SIGKILL (issue 9): an estates event is copied into
 * this context and then turned into one command per renovation of the estate. The child dies after
 * each of those writes; the restart gets the estates events again, as an at-least-once bus redelivers
 * what was not acknowledged (here all of them, the handled ones included), and must finish the
 * workflow once: every renovation revalued for the new roof, or deleted with the estate.
 */
const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, 'workflow-crash-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'renopath-renovations-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it kills itself at its step; resolves with its output. */
function runChild(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(findTsx(here), [childScript, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    // tsx relays the grandchild's signal as its own exit: the output says whether the kill happened.
    child.once('close', () => resolve({ stdout, stderr }));
  });
}

async function caughtUp(bus: Bus, consumer: string) {
  while (!(await bus.isCaughtUp(consumer))) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function snapshot(reads: ReadStore, collections: string[]) {
  const out: Record<string, unknown[]> = {};
  for (const c of collections) out[c] = (await reads.query(c, { sort: [{ field: '_id', order: 'ASC' }] })).items;
  return out;
}

const domain = (events: Awaited<ReturnType<EventStore['readStream']>>) =>
  events.map((e) => ({ type: e.type, data: e.data }) as RenovationEvent);

describe('renovations workflows under SIGKILL', () => {
  for (const step of STEPS) {
    it(`finish the ${workflowOf(step)} of every renovation of the estate after a kill at ${step}`, { timeout: 60_000 }, async () => {
      const files = [join(dir, `${step}-events.db`), join(dir, `${step}-reads.db`)];
      const child = await runChild([...files, step]);
      expect(child.stdout, child.stderr).toContain(`killed ${step}`);
      expect(child.stdout).not.toContain('done');
      const renovations = /setup (\S+) (\S+)/.exec(child.stdout)!.slice(1);

      // Restart on the same files, with a fresh bus that delivers the estates events again.
      const eventStore = openSqliteEventStore({ file: files[0]! });
      const readStore = openSqliteReadStore({ file: files[1]! });
      const bus = createMemoryBus();
      const service = await startRenovations({
        bus,
        eventStore,
        readStore,
        log: pino({ level: 'silent' }),
        config: { settleTimeoutMs: 10_000 },
      });
      try {
        const delivered = estatesLog().slice(0, publishedAt(step));
        await bus.publish(`evt.identity.${ownerAdded.type}`, ownerAdded);
        for (const envelope of delivered) await bus.publish(`evt.estates.${envelope.type}`, envelope);
        await caughtUp(bus, IDENTITY_CONSUMER);
        await caughtUp(bus, ESTATES_CONSUMER);
        const head = await eventStore.headPosition();
        await service.projection.waitFor(head, 20_000);

        // This context's copy of the estate is the fold of the events it was given, once each.
        const estate = delivered.reduce<Snapshot | null>(
          (s, e) => applyEstateEvent(s, { type: e.type, data: e.data } as EstateEvent),
          null,
        )!;
        const mirror = await readStore.get<EstateMirrorDoc>(M.estates, ESTATE_ID);
        expect(mirror).toMatchObject({ revision: delivered.at(-1)!.revision, snapshot: estate });

        const deleted = workflowOf(step) === 'delete';
        for (const renovation_id of renovations) {
          const events = domain(await eventStore.readStream(renovationStream(renovation_id!)));
          const state = fold(renovationDecider, events);
          if (deleted) {
            expect(state.status).toBe('DELETED');
            expect(events.filter((e) => e.type === 'RenovationDeleted')).toEqual([
              { type: 'RenovationDeleted', data: { renovation_id, estate_id: ESTATE_ID, reason: 'ESTATE_DELETED' } },
            ]);
          } else {
            expect(state.status).toBe('ACTIVE');
          }
          // Nothing left to reconcile: the renovation is valued for the estate as it now is (the larger roof).
          const again = renovationDecider.decide(
            { type: 'ReconcileWithEstate', renovation_id: renovation_id!, estate, year: new Date().getUTCFullYear() },
            state,
          );
          expect(again, renovation_id).toEqual([]);
          // Valued for the item, then once for the roof edit, however often the edit was delivered.
          const sinceItem = events.slice(events.findIndex((e) => e.type === 'RenovationItemAdded') + 1);
          expect(sinceItem.filter((e) => e.type === 'RenovationValued').length, renovation_id).toBe(2);
        }

        // The read model equals a clean rebuild from the same events.
        const collections = Object.values(C);
        const fresh = openSqliteReadStore({ file: ':memory:' });
        const rebuilt = runProjection({
          name: RENOVATION_VIEWS_PROJECTION,
          eventStore,
          readStore: fresh,
          collections,
          streamPrefixes: [RENOVATION_STREAM_PREFIX],
          handle: projectRenovationViews,
        });
        await rebuilt.waitFor(head, 20_000);
        const views = await snapshot(readStore, collections);
        expect(views).toEqual(await snapshot(fresh, collections));
        expect(views[C.renovations]!.map((doc) => (doc as { deleted_at: string | null }).deleted_at !== null)).toEqual([deleted, deleted]);
        await rebuilt.close();
        await fresh.close();
      } finally {
        await service.close();
        await bus.close();
        await readStore.close();
        await eventStore.close();
      }
    });
  }
});
