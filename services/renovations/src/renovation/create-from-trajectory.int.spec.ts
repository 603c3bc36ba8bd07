import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createMemoryBus, DomainError, openSqliteEventStore, openSqliteReadStore, type Bus, type EventStore } from '@renopath/platform';
import {
  estateFromProperty,
  RenovationsSubjects as S,
  type Actor,
  type CreateRenovationFromTrajectoryBody,
  type PropertyDescription,
  type RenovationEstateSnapshot,
  type ServiceRequest,
} from '@renopath/contracts';
// The planner of the calculations context: the test checks that a real plan and its renovation agree.
import { planTrajectory } from '@renopath/calculations/planner/index.ts';
import { D, roleId, type RoleDoc } from '../directory-mirror/directory-mirror.reactor.ts';
import { M, type EstateMirrorDoc } from '../estate-mirror/estate-mirror.reactor.ts';
import { startRenovations } from '../renovations.service.ts';
import { renovationStream } from './renovation.decider.ts';
import { ESTATE_ID, fieldsOf, ORG_ID, ROOF_ID } from './testing.ts';

const USER = 'abcdef01-2345-4678-89ab-cdef01234567';
const RENOVATION = '3c9d2b1e-7f40-4a8e-9b6c-2d1e0f9a8b7c';
const JOB = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968';
const YEAR = 2026;

/** The reference house of the planner (1960, uninsulated, Gent). */
const GENT_1960: PropertyDescription = {
  year_built: 1960,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 150,
  zip_code: '9000',
  country: 'BE',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
  window_glazing_type: 'SINGLE_GLAZING',
  inclined_roof_insulation_type: 'NONE',
  outer_wall_insulation_type: 'NONE',
  solid_ground_floor_insulation_type: 'NONE',
};

/** The estate a trajectory job makes of its request (estateFromProperty), as this context's mirror holds it. */
function estateOf(property: PropertyDescription): RenovationEstateSnapshot {
  const { fields, roofs } = estateFromProperty(property);
  const { address, energy_context, ...own } = fields as Record<string, any>;
  return {
    estate_id: ESTATE_ID,
    organization_id: ORG_ID,
    fields: fieldsOf({ ...own, address, energy_context }),
    roofs: roofs.map((r, i) => ({
      id: i === 0 ? ROOF_ID : crypto.randomUUID(),
      estate_roof_type: r.estate_roof_type!,
      surface_m2: r.surface_m2,
      insulation_type: r.insulation_type,
      is_decking_present: null,
      name: null,
      pitch_degrees: null,
      dimensions: { height_cm: null },
    })),
    floors: [],
    members: [],
    deleted: false,
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(estate: RenovationEstateSnapshot) {
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const readStore = openSqliteReadStore({ file: ':memory:' });
  const bus = createMemoryBus();
  closers.push(
    () => eventStore.close(),
    () => readStore.close(),
    () => bus.close(),
  );
  // What the estates and identity mirrors would hold: the estate, and the caller as an employee of its organization.
  await readStore.transaction(async (tx) => {
    await tx.put<EstateMirrorDoc>(M.estates, estate.estate_id, {
      id: estate.estate_id,
      revision: 0,
      organization_id: ORG_ID,
      snapshot: estate,
    });
    await tx.put<RoleDoc>(D.roles, roleId(ORG_ID, USER), { organization_id: ORG_ID, user_id: USER, member_type: 'EMPLOYEE' });
  });
  const service = await startRenovations({ bus, eventStore, readStore, log: pino({ level: 'silent' }), config: { settleTimeoutMs: 5000 } });
  closers.push(() => service.close());
  return { bus, eventStore };
}

const ACTOR: Actor = {
  user_id: USER,
  organization_id: ORG_ID,
  client_id: 'c',
  scopes: ['estates', 'renovations', 'calculations', 'reports', 'organization'],
};
const request = (body: unknown, params: Record<string, string> = {}, actor: Actor = ACTOR): ServiceRequest => ({
  actor,
  correlation_id: 'job',
  params,
  query: {},
  body,
});

function bodyOf(estate: RenovationEstateSnapshot, plan: ReturnType<typeof planTrajectory>): CreateRenovationFromTrajectoryBody {
  return {
    renovation_id: RENOVATION,
    estate_id: estate.estate_id,
    name: 'Suggested trajectory',
    calculation_job_id: JOB,
    year: YEAR,
    // Each step's measure, and a measure joined to the step (ventilation) as an item of its own.
    items: plan.steps.flatMap((step) => {
      const roof = step.roof_kind ? estate.roofs.find((r) => r.estate_roof_type === step.roof_kind)! : null;
      const general = { scope: 'GENERAL', roof_id: null, floor_id: null, room_id: null, staircase_id: null } as const;
      return [
        {
          item_id: crypto.randomUUID(),
          renovation_component_type: step.renovation_component_type,
          placement: roof ? { ...general, scope: 'ROOF' as const, roof_id: roof.id } : general,
          count: 1 as const,
          quantity: step.quantity,
          step: step.order,
        },
        ...step.supporting_works
          .filter((w) => w.joined)
          .map((w) => ({
            item_id: crypto.randomUUID(),
            renovation_component_type: w.renovation_component_type,
            placement: general,
            count: 1 as const,
            quantity: w.quantity,
            step: step.order,
          })),
      ];
    }),
  };
}

async function refusal(bus: Bus, subject: string, req: ServiceRequest): Promise<number> {
  try {
    await bus.request(subject, req);
  } catch (err) {
    if (err instanceof DomainError) return err.status;
    throw err;
  }
  return 200;
}

const typesIn = async (store: EventStore) => (await store.readStream(renovationStream(RENOVATION))).map((e) => e.type);

describe('cmd.renovations.create-from-trajectory', () => {
  it("makes a renovation of a real plan whose overview shows the plan's totals and final label", async () => {
    const estate = estateOf(GENT_1960);
    const plan = planTrajectory(GENT_1960, { year: YEAR });
    expect(plan.steps.length).toBeGreaterThanOrEqual(4);
    const { bus, eventStore } = await setUp(estate);
    const body = bodyOf(estate, plan);

    expect(await bus.request(S.createFromTrajectory, request(body))).toEqual({ id: RENOVATION, estate_id: ESTATE_ID });
    // One append of two events: the renovation with every step's item, and the figures.
    expect(await typesIn(eventStore)).toEqual(['RenovationCreated', 'RenovationValued']);
    const [created] = await eventStore.readStream(renovationStream(RENOVATION));
    expect((created!.data['items'] as unknown[]).length).toBe(
      plan.steps.flatMap((st) => [st, ...st.supporting_works.filter((w) => w.joined)]).length,
    );

    const v1 = await bus.request<any>(S.overviewV1, request(undefined, { renovation_id: RENOVATION }));
    expect(v1.summary).toMatchObject({
      estate_id: ESTATE_ID,
      total_estimated_cost: plan.totals.estimated_cost,
      total_estimated_vat_cost: plan.totals.estimated_vat_cost,
      total_subsidy_amount: plan.totals.subsidy_amount,
      total_estimated_cost_incl_vat: plan.totals.total_estimated_cost_incl_vat,
      energy_efficiency_indication: plan.energy_efficiency_indication,
      price_year: YEAR,
    });
    // Each step's item plus the supporting works that joined it are the step's figures.
    const items = [...v1.details.general, ...v1.details.roofs.flatMap((r: any) => r.items)];
    for (const step of plan.steps) {
      const item = items.find((i: any) => i.renovation_component_type === step.renovation_component_type);
      const works = step.supporting_works.reduce((s, w) => s + w.estimated_cost, 0);
      expect(item.quantity).toBe(step.quantity);
      expect(item.estimated_cost).toBeCloseTo(step.estimated_cost - works, 2);
    }
    // A supporting work several steps cause is shared between them: per type, the steps' parts add up to the renovation's work.
    const planWorks = new Map<string, number>();
    for (const w of plan.steps.flatMap((s) => s.supporting_works.filter((x) => !x.joined)))
      planWorks.set(w.renovation_component_type, (planWorks.get(w.renovation_component_type) ?? 0) + Math.round(w.estimated_cost * 100));
    expect(v1.details.derived.map((d: any) => d.renovation_component_type).sort()).toEqual([...planWorks.keys()].sort());
    for (const d of v1.details.derived) expect(Math.round(d.estimated_cost * 100)).toBe(planWorks.get(d.renovation_component_type));

    const old = await bus.request<any>(S.overview, request(undefined, { renovation_id: RENOVATION }));
    expect(old.summary.total_estimated_cost).toBe(plan.totals.estimated_cost);
    const record = await bus.request<any>(S.getRenovation, request(undefined, { renovation_id: RENOVATION }));
    expect(record).toMatchObject({
      estimated_cost: plan.totals.estimated_cost,
      estimated_vat_cost: plan.totals.estimated_vat_cost,
      subsidy_amount: plan.totals.subsidy_amount,
      energy_efficiency_indication: plan.energy_efficiency_indication,
      energy_efficiency_type: 'EPC_FLANDERS',
      renovation_name: 'Suggested trajectory',
    });
  });

  it('is idempotent: the same body answers the same, another body for the same id is 409', async () => {
    const estate = estateOf(GENT_1960);
    const plan = planTrajectory(GENT_1960, { year: YEAR });
    const { bus, eventStore } = await setUp(estate);
    const body = bodyOf(estate, plan);
    const first = await bus.request(S.createFromTrajectory, request(body));
    const events = await typesIn(eventStore);
    expect(await bus.request(S.createFromTrajectory, request(structuredClone(body)))).toEqual(first);
    expect(await typesIn(eventStore)).toEqual(events);
    expect(await refusal(bus, S.createFromTrajectory, request({ ...body, name: 'Another plan' }))).toBe(409);
    expect(await refusal(bus, S.createFromTrajectory, request({ ...body, items: body.items.slice(1) }))).toBe(409);
    expect(await typesIn(eventStore)).toEqual(events);
  });

  it('is 404 for an estate this context does not know (yet) or the caller may not use, 403 without the renovations scope', async () => {
    const estate = estateOf(GENT_1960);
    const plan = planTrajectory(GENT_1960, { year: YEAR });
    const { bus, eventStore } = await setUp(estate);
    const body = bodyOf(estate, plan);
    expect(await refusal(bus, S.createFromTrajectory, request({ ...body, estate_id: '0d0d0d0d-0d0d-4d0d-8d0d-0d0d0d0d0d0d' }))).toBe(404);
    expect(
      await refusal(bus, S.createFromTrajectory, request(body, {}, { ...ACTOR, organization_id: '9f9f9f9f-9f9f-4f9f-8f9f-9f9f9f9f9f9f' })),
    ).toBe(404);
    expect(await refusal(bus, S.createFromTrajectory, request(body, {}, { ...ACTOR, scopes: ['calculations'] }))).toBe(403);
    expect(await typesIn(eventStore)).toEqual([]);
  });
});
