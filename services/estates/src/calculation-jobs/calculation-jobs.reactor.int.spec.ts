import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ANY, NO_STREAM, type Bus, type EventStore } from '@renopath/platform';
import { eventSubject, roofIdOfJob, type TrajectoryJobConsequences } from '@renopath/contracts';
import { EMPTY_ESTATE_FIELDS } from '../estate/estate.decider.ts';
import { startEstatesInMemory } from '../testing/in-memory.ts';
import { CALCULATION_JOBS_CONSUMER } from './calculation-jobs.reactor.ts';

const ORG = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const OWN_ROOF = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const meta = { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An estate as the gateway's describe-estate-for-job left it: a 1960 house with an inclined roof of its own. */
async function seedEstate(store: EventStore, estate_id: string) {
  const event = (type: string, data: Record<string, unknown>) => ({
    event_id: randomUUID(),
    type,
    occurred_at: '2026-01-01T00:00:00.000Z',
    metadata: meta,
    data,
  });
  await store.append(
    `estate-${estate_id}`,
    [
      event('EstateCreated', {
        estate_id,
        organization_id: ORG,
        estate_provider_type: 'API',
        referral_token: 'T'.repeat(32),
        fields: { ...EMPTY_ESTATE_FIELDS, year_built: 1960 },
      }),
      event('RoofAdded', {
        estate_id,
        roof_id: OWN_ROOF,
        fields: {
          estate_roof_type: 'INCLINED',
          surface_m2: 80,
          insulation_type: 'NONE',
          is_decking_present: null,
          name: null,
          pitch_degrees: null,
          dimensions: { height_cm: null },
        },
      }),
    ],
    NO_STREAM,
  );
}

let position = 0;
/** The job's FINISHED event as calculations' relay publishes it (a new event id: a second delivery of the same fact). */
const finished = (bus: Bus, job_id: string, consequences: TrajectoryJobConsequences) =>
  bus.publish(eventSubject('calculations', 'CalculationJobFinished'), {
    context: 'calculations',
    event_id: randomUUID(),
    type: 'CalculationJobFinished',
    stream: `calculation-job-${job_id}`,
    revision: 3,
    position: ++position,
    occurred_at: '2026-12-01T12:00:00.000Z',
    data: { job_id, attempt: 1, metadata: {}, consequences },
    metadata: meta,
  });

const consequences = (estate_id: string): TrajectoryJobConsequences => ({
  estate_id,
  // The EPC document's score and LiDAR's width, filled by the job.
  estate_update: {
    year_built: 1960,
    estate_format: 'SEMI_OPEN',
    habitable_space_m2: 150,
    zip_code: '9000',
    country: 'BE',
    energy_efficiency_score: 412,
    building_width: 7.5,
  },
  roof_kinds: ['INCLINED', 'FLAT'],
  renovation: { name: null, year: 2026, items: [] },
  quality: { confidence_score: 0.7, quality_label: 'B' },
});

async function caughtUp(bus: Bus) {
  const deadline = Date.now() + 10_000;
  while (!(await bus.isCaughtUp(CALCULATION_JOBS_CONSUMER)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

describe("estates' follower of finished calculation jobs", () => {
  it("writes the job's part in one append (filled fields, the roof kind the estate lacks under the job's id, the label), once", async () => {
    const { bus, eventStore } = await startEstatesInMemory(closers);
    const estate_id = randomUUID();
    const job = randomUUID();
    await seedEstate(eventStore, estate_id);
    await finished(bus, job, consequences(estate_id));
    await caughtUp(bus);

    const written = (await eventStore.readStream(`estate-${estate_id}`)).slice(2);
    expect(written.map((e) => e.type)).toEqual(['EstateUpdated', 'RoofAdded', 'EstateTrajectoryQualityRecorded']);
    expect(written[0]!.data['changes']).toMatchObject({ energy_context: { epc_score: 412 }, dimensions: { width_cm: 750 } });
    // The estate had an inclined roof: only the flat one is added, under the id renovations looks for.
    expect(written[1]!.data).toMatchObject({ roof_id: roofIdOfJob(job, 'FLAT'), fields: { estate_roof_type: 'FLAT' } });
    expect(written[2]!.data).toMatchObject({ calculation_job_id: job, quality_label: 'B', confidence_score: 0.7 });

    // The same fact again (a redelivery, a replayed log): nothing is written twice.
    await finished(bus, job, consequences(estate_id));
    await caughtUp(bus);
    expect(await eventStore.readStream(`estate-${estate_id}`)).toHaveLength(5);
  });

  it('writes nothing on an estate deleted meanwhile, and goes on with the next job', async () => {
    const { bus, eventStore } = await startEstatesInMemory(closers);
    const gone = randomUUID();
    const kept = randomUUID();
    await seedEstate(eventStore, gone);
    await seedEstate(eventStore, kept);
    await eventStore.append(
      `estate-${gone}`,
      [
        {
          event_id: randomUUID(),
          type: 'EstateDeleted',
          occurred_at: '2026-01-02T00:00:00.000Z',
          metadata: meta,
          data: { estate_id: gone, organization_id: ORG },
        },
      ],
      ANY,
    );
    await finished(bus, randomUUID(), consequences(gone));
    await finished(bus, randomUUID(), consequences(kept));
    await caughtUp(bus);
    expect((await eventStore.readStream(`estate-${gone}`)).map((e) => e.type)).toEqual(['EstateCreated', 'RoofAdded', 'EstateDeleted']);
    expect((await eventStore.readStream(`estate-${kept}`)).at(-1)?.type).toBe('EstateTrajectoryQualityRecorded');
  });
});
