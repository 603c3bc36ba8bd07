import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus, openSqliteEventStore, openSqliteReadStore, type Bus } from '@renopath/platform';
import { settleSubject } from '@renopath/platform/service/settlement.ts';
import { EstatesSubjects, RenovationsSubjects } from '@renopath/contracts';
import type { JobState } from '../job/job.decider.ts';
import type { JobPlan } from '../trajectory/compute-trajectory.ts';
import { startJobEffects } from './job-effects.process.ts';

const log = pino({ level: 'silent' });
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const JOB = '0b6f3f0e-1111-4a4a-9a9a-000000000001';
const ESTATE = '0b6f3f0e-2222-4a4a-9a9a-000000000002';
const running: JobState = {
  job_id: JOB,
  created: { actor: { user_id: null, client_id: 'client-1', organization_id: 'org-1', roles: ['ADMIN'], scopes: [] } } as never,
  estate_id: ESTATE,
  estate_epc_score: null,
  type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION',
  status: 'RUNNING',
  ready: true,
  attempt: 1,
  planned_attempt: 1,
  lease_until: null,
  expires_at: null,
  deactivated: false,
};

/** A plan whose roof step needs an inclined roof the estate does not have yet. */
const plan = {
  result: { final_epc_score: 180 },
  estate_update: null,
  roof_kinds: ['INCLINED'],
  renovation: {
    name: null,
    year: 2026,
    items: [{ renovation_component_type: 'INCLINED_ROOF_INSULATION', roof_kind: 'INCLINED', quantity: 60, step: 1 }],
  },
  quality: { confidence_score: 70, quality_label: 'MEDIUM' },
} as unknown as JobPlan;

/** The estates and renovations subjects the effects call, answered as an in-process context answers them. */
async function contexts(bus: Bus) {
  const sent: Array<{ subject: string; body: unknown }> = [];
  const roofs: Array<{ id: string; estate_roof_type: string }> = [];
  const answer = (subject: string, reply: (body: Record<string, unknown>) => unknown) =>
    bus.handle(subject, async (payload) => {
      const body = (payload as { body?: Record<string, unknown> }).body ?? {};
      sent.push({ subject, body });
      return reply(body);
    });
  // In one process a read model's list travels by reference, frozen: the requester must not change it.
  await answer(EstatesSubjects.listRoofs, () => Object.freeze(roofs.map((r) => Object.freeze({ ...r }))));
  await answer(EstatesSubjects.addRoof, (body) => {
    const roof = { id: `roof-${roofs.length + 1}`, estate_roof_type: String(body['estate_roof_type']) };
    roofs.push(roof);
    return roof;
  });
  await answer(EstatesSubjects.recordTrajectoryQuality, () => ({}));
  await answer(RenovationsSubjects.createFromTrajectory, () => ({}));
  for (const context of ['estates', 'renovations']) await answer(settleSubject(context), () => ({ position: null, complete: true }));
  return { sent };
}

describe('job effects', () => {
  it('adds the roof a step needs to an estate listed by a frozen in-process reply, places the step on it and finishes the job once', async () => {
    // As the embedded server runs it: replies travel by reference, not copied through JSON.
    const bus = createMemoryBus({ copyRequests: false });
    closers.push(() => bus.close());
    const eventStore = openSqliteEventStore({ file: ':memory:' });
    closers.push(() => eventStore.close());
    const readStore = openSqliteReadStore({ file: ':memory:' });
    closers.push(() => readStore.close());
    const { sent } = await contexts(bus);
    const finished: Array<Record<string, unknown>> = [];
    const failed: unknown[] = [];
    const effects = startJobEffects({
      eventStore,
      readStore,
      bus,
      log,
      busTimeoutMs: 2000,
      settleTimeoutMs: 2000,
      load: async () => running,
      finish: async (_job, _attempt, metadata) => void finished.push(metadata),
      fail: async (_job, _attempt, error) => void failed.push(error),
    });
    closers.push(() => effects.process.close());

    await effects.run(JOB, 1, plan, 'corr-1', running);

    expect(failed).toEqual([]);
    expect(finished).toHaveLength(1);
    expect(sent.filter((s) => s.subject === EstatesSubjects.addRoof)).toHaveLength(1);
    const renovation = sent.find((s) => s.subject === RenovationsSubjects.createFromTrajectory)!.body as {
      items: Array<{ placement: { scope: string; roof_id: string | null } }>;
    };
    expect(renovation.items[0]!.placement).toMatchObject({ scope: 'ROOF', roof_id: 'roof-1' });
  });
});
