import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryBus,
  openSqliteEventStore,
  openSqliteReadStore,
  type Bus,
  type EventEnvelope,
  type EventStore,
} from '@renopath/platform';
import { eventSubject, renovationIdOfJob, roofIdOfJob, type TrajectoryJobConsequences } from '@renopath/contracts';
import { renovationStream } from '../renovation/renovation.decider.ts';
import { fieldsOf } from '../renovation/testing.ts';
import { startRenovations } from '../renovations.service.ts';
import { CALCULATION_JOBS_CONSUMER } from './calculation-jobs.reactor.ts';

const ORG = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const ESTATE = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const OWN_ROOF = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const JOB = '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f';

/** A 1960 house in Gent, as estates records it. */
const GENT = fieldsOf({
  year_built: 1960,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 150,
  address: { zip_code: '9000', country: 'BE' },
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

let position = 0;
const envelope = (context: string, type: string, stream: string, data: Record<string, unknown>): EventEnvelope => ({
  context,
  event_id: randomUUID(),
  type,
  stream,
  revision: position,
  position: ++position,
  occurred_at: '2026-12-01T12:00:00.000Z',
  data,
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'job', causation_id: null },
});

/** An estates event as its relay publishes it. */
const estates = (bus: Bus, type: string, data: Record<string, unknown>) =>
  bus.publish(eventSubject('estates', type), envelope('estates', type, `estate-${data['estate_id']}`, data));

/** The job's FINISHED event (a new event id each time: a second delivery of the same fact). */
const finished = (bus: Bus, job_id: string, consequences: TrajectoryJobConsequences) =>
  bus.publish(
    eventSubject('calculations', 'CalculationJobFinished'),
    envelope('calculations', 'CalculationJobFinished', `calculation-job-${job_id}`, {
      job_id,
      attempt: 1,
      metadata: { renovation_id: renovationIdOfJob(job_id) },
      consequences,
    }),
  );

const roof = (kind: string) => ({
  estate_roof_type: kind,
  surface_m2: 60,
  insulation_type: 'NONE',
  is_decking_present: null,
  name: null,
  pitch_degrees: null,
  dimensions: { height_cm: null },
});

const consequences = (estate_id: string): TrajectoryJobConsequences => ({
  estate_id,
  estate_update: null,
  roof_kinds: ['INCLINED', 'FLAT'],
  renovation: {
    name: 'Suggested trajectory',
    year: 2026,
    items: [
      { renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE', roof_kind: 'INCLINED', quantity: 60, step: 1 },
      { renovation_component_type: 'FLAT_ROOF_INSULATION', roof_kind: 'FLAT', quantity: 20, step: 2 },
      { renovation_component_type: 'EXTERIOR_WALL_INSULATION', roof_kind: null, quantity: 90, step: 3 },
    ],
  },
  quality: { confidence_score: 0.6, quality_label: 'C' },
});

async function setUp() {
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const readStore = openSqliteReadStore({ file: ':memory:' });
  const bus = createMemoryBus();
  closers.push(
    () => eventStore.close(),
    () => readStore.close(),
    () => bus.close(),
  );
  const service = await startRenovations({ bus, eventStore, readStore, log: pino({ level: 'silent' }), config: { settleTimeoutMs: 5000 } });
  closers.push(() => service.close());
  return { bus, eventStore };
}

/** Polls until the job's renovation stream holds something (not a timed assertion: the bound only ends a broken run). */
async function untilRenovation(store: EventStore, job_id: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await store.readStream(renovationStream(renovationIdOfJob(job_id)));
    if (events.length > 0 || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function caughtUp(bus: Bus) {
  const deadline = Date.now() + 10_000;
  while (!(await bus.isCaughtUp(CALCULATION_JOBS_CONSUMER)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

describe("renovations' follower of finished calculation jobs", () => {
  it("waits for its copy of the estate to hold the job's consequences, then places the steps on the roofs estates chose, once", async () => {
    const { bus, eventStore } = await setUp();
    await estates(bus, 'EstateCreated', {
      estate_id: ESTATE,
      organization_id: ORG,
      estate_provider_type: 'API',
      referral_token: 'r',
      fields: GENT,
    });
    await estates(bus, 'RoofAdded', { estate_id: ESTATE, roof_id: OWN_ROOF, fields: roof('INCLINED') });
    await finished(bus, JOB, consequences(ESTATE));
    // Estates has not applied the job yet (no FLAT roof, no label): nothing is made on a partial copy.
    expect(await eventStore.readStream(renovationStream(renovationIdOfJob(JOB)))).toEqual([]);
    // Estates' append for the job: the FLAT roof the estate lacked, under the job's id for it, then the label.
    await estates(bus, 'RoofAdded', { estate_id: ESTATE, roof_id: roofIdOfJob(JOB, 'FLAT'), fields: roof('FLAT') });
    await estates(bus, 'EstateTrajectoryQualityRecorded', {
      estate_id: ESTATE,
      calculation_job_id: JOB,
      confidence_score: 0.6,
      quality_label: 'C',
    });

    const events = await untilRenovation(eventStore, JOB);
    expect(
      events.map((e) => e.type),
      JSON.stringify(events[0]?.data),
    ).toEqual(['RenovationCreated', 'RenovationValued']);
    const placed = (events[0]!.data['items'] as Array<Record<string, unknown>>).map((i) => [
      i['renovation_component_type'],
      i['placement'],
    ]);
    // The estate's own INCLINED roof (estates added none of that kind), the FLAT roof estates added for the job, and a general item.
    expect(placed).toEqual([
      ['INCLINED_ROOF_INSULATION_INSIDE', expect.objectContaining({ scope: 'ROOF', roof_id: OWN_ROOF })],
      ['FLAT_ROOF_INSULATION', expect.objectContaining({ scope: 'ROOF', roof_id: roofIdOfJob(JOB, 'FLAT') })],
      ['EXTERIOR_WALL_INSULATION', expect.objectContaining({ scope: 'GENERAL', roof_id: null })],
    ]);
    expect(events[0]!.data['trajectory']).toMatchObject({ calculation_job_id: JOB });

    // The same fact delivered again: the renovation's stream decides nothing.
    await finished(bus, JOB, consequences(ESTATE));
    await caughtUp(bus);
    expect(await eventStore.readStream(renovationStream(renovationIdOfJob(JOB)))).toHaveLength(events.length);
  });

  it('declines the renovation of a job whose estate was deleted meanwhile, once, instead of waiting for ever', async () => {
    const { bus, eventStore } = await setUp();
    const job = randomUUID();
    await estates(bus, 'EstateCreated', {
      estate_id: ESTATE,
      organization_id: ORG,
      estate_provider_type: 'API',
      referral_token: 'r',
      fields: GENT,
    });
    await estates(bus, 'EstateDeleted', { estate_id: ESTATE, organization_id: ORG });
    await finished(bus, job, consequences(ESTATE));
    const events = await untilRenovation(eventStore, job);
    expect(events.map((e) => [e.type, e.data['calculation_job_id'], e.data['reason']])).toEqual([
      ['RenovationTrajectoryDeclined', job, 'the estate was deleted'],
    ]);
    await finished(bus, job, consequences(ESTATE));
    await caughtUp(bus);
    expect(await eventStore.readStream(renovationStream(renovationIdOfJob(job)))).toHaveLength(1);
  });
});
