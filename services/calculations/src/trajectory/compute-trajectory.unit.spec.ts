import { describe, expect, it } from 'vitest';
import { TrajectoryRequest } from '@renopath/contracts';
import { inlinePlanner } from '../planner/planner-pool.ts';
import { computeTrajectory, type Computed, type JobPlan } from './compute-trajectory.ts';

const planner = inlinePlanner();
const request = (extra: Record<string, unknown> = {}) =>
  TrajectoryRequest.parse({
    year_built: 1930,
    estate_format: 'CLOSED',
    habitable_space_m2: 120,
    zip_code: '9000',
    country: 'BE',
    ...extra,
  });
const planOf = (computed: Computed): JobPlan => {
  if (computed.outcome !== 'PLANNED') throw new Error(`not planned: ${JSON.stringify(computed)}`);
  return computed.plan;
};

describe('computeTrajectory: request, document and provider answers to a plan, with no bus', () => {
  it('plans the request alone: no estate update, roof steps placed on the kind the model assumed', async () => {
    const plan = planOf(await computeTrajectory({ request: request(), document: null, providers: {}, planner, year: 2026 }));
    expect(plan.consequences.estate_update).toBeNull();
    expect(plan.result.epc_document_job_id).toBeNull();
    // One item per step, and one more per measure joined to a step (ventilation with the airtight step), on that step.
    const joined = plan.result.steps.flatMap((s) => s.supporting_works.filter((w) => w.joined).map(() => s.order));
    expect(plan.consequences.renovation.items.length).toBe(plan.result.steps.length + joined.length);
    expect([...new Set(plan.consequences.renovation.items.map((i) => i.step))]).toEqual(plan.result.steps.map((s) => s.order));
    for (const step of joined) expect(plan.consequences.renovation.items.filter((i) => i.step === step).length).toBe(2);
    expect(plan.consequences.quality).toEqual({ confidence_score: plan.result.confidence_score, quality_label: plan.result.quality_label });
    const kinds = [...new Set(plan.consequences.renovation.items.flatMap((i) => (i.roof_kind ? [i.roof_kind] : [])))];
    expect(plan.consequences.roof_kinds).toEqual(kinds);
  });

  it('is the same plan for the same inputs (a resumed attempt computes what the first did)', async () => {
    const inputs = { request: request({ heating_type: 'GAS' }), document: null, providers: {}, planner, year: 2026 };
    expect(await computeTrajectory(inputs)).toEqual(await computeTrajectory(inputs));
  });

  it("takes the document's values where the client gave none, flags those that differ, and asks for the estate to be updated", async () => {
    const document = {
      job_id: '3f1c2b7e-8a4d-4e1f-9b2a-0c5d6e7f8a9b',
      fields: { energy_efficiency_score: 420, year_built: 1950 },
      flags: [],
      failed: null,
    };
    const plan = planOf(await computeTrajectory({ request: request(), document, providers: {}, planner, year: 2026 }));
    expect(plan.consequences.estate_update).toMatchObject({ energy_efficiency_score: 420, year_built: 1930 });
    expect(plan.result.epc_document_job_id).toBe(document.job_id);
    expect(plan.result.data_quality.flags).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'year_built', code: 'EPC_DOCUMENT_DIFFERS' })]),
    );
  });

  it('a document that could not be read is a flag, not a failure', async () => {
    const document = {
      job_id: '3f1c2b7e-8a4d-4e1f-9b2a-0c5d6e7f8a9b',
      fields: {},
      flags: [],
      failed: { code: 'EPC_NO_TEXT', message: 'no text' },
    };
    const plan = planOf(await computeTrajectory({ request: request(), document, providers: {}, planner, year: 2026 }));
    expect(plan.consequences.estate_update).toBeNull();
    expect(plan.result.data_quality.flags).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'epc_url', code: 'EPC_NO_TEXT' })]),
    );
  });

  it("uses a provider's answer and asks for the estate to be updated with it", async () => {
    const energy = {
      estimateScore: async () => ({
        status: 'OK' as const,
        data: { energy_efficiency_score: 380, energy_efficiency_type: 'EPC_FLANDERS' as const },
      }),
      estimateImpact: async () => ({ status: 'NO_DATA' as const, reason: 'no estimate' }),
    };
    const plan = planOf(await computeTrajectory({ request: request(), document: null, providers: { energy }, planner, year: 2026 }));
    expect(plan.consequences.estate_update).toMatchObject({ energy_efficiency_score: 380 });
  });

  it("a score the client gave on the estate calibrates the plan when the request gives none, and is the client's input", async () => {
    const plan = planOf(
      await computeTrajectory({ request: request(), document: null, estate_epc_score: 410, providers: {}, planner, year: 2026 }),
    );
    expect(plan.result.current.epc_score).toBe(410);
    expect(plan.result.data_quality.sources).toMatchObject({ energy_efficiency_score: 'INPUT' });
    const own = planOf(
      await computeTrajectory({
        request: request({ energy_efficiency_score: 300 }),
        document: null,
        estate_epc_score: 410,
        providers: {},
        planner,
        year: 2026,
      }),
    );
    expect(own.result.current.epc_score).toBe(300);
  });
});
