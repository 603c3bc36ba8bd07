import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createMemoryBus, openSqliteEventStore, openSqliteReadStore, NO_STREAM, type Bus } from '@renopath/platform';
import { EstatesSubjects, type Estate, type JobEstate, type ServiceRequest } from '@renopath/contracts';
import { DIRECTORY_CONSUMER } from './directory/directory.reactor.ts';
import { EMPTY_ESTATE_FIELDS } from './estate/estate.decider.ts';
import { C, type EstateListDoc } from './estate-views/estate-views.projection.ts';
import { externalIdStream } from './external-id/external-id.decider.ts';
import { startEstates } from './estates.service.ts';
import { startEstatesInMemory, unusedBlobs } from './testing/in-memory.ts';

const ESTATE = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';
const USER = 'abcdef01-2345-4678-89ab-cdef01234567';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Identity records an active member: estates learns roles from identity's events, never by asking. */
async function memberOf(bus: Bus, organization_id: string, user_id: string, member_type: 'OWNER' | 'EMPLOYEE' | 'CLIENT') {
  await bus.publish('evt.identity.OrganizationMemberAdded', {
    context: 'identity',
    event_id: randomUUID(),
    type: 'OrganizationMemberAdded',
    stream: `organization-${organization_id}`,
    revision: 0,
    position: 1,
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { organization_id, user_id, member_type },
    metadata: { actor: { user_id: null, client_id: null }, correlation_id: randomUUID(), causation_id: null },
  });
  await vi.waitFor(async () => expect(await bus.isCaughtUp(DIRECTORY_CONSUMER)).toBe(true), { timeout: 5000, interval: 10 });
}

describe('estates service start-up', () => {
  it('rebuilds the estate views when the energy model that graded them has changed', async () => {
    const eventStore = openSqliteEventStore({ file: ':memory:' });
    const readStore = openSqliteReadStore({ file: ':memory:' });
    const bus = createMemoryBus();
    closers.push(
      () => eventStore.close(),
      () => readStore.close(),
      () => bus.close(),
    );
    const deps = {
      bus,
      eventStore,
      readStore,
      blobs: unusedBlobs,
      log: pino({ level: 'silent' }),
      config: { publicUrl: 'http://x', settleTimeoutMs: 5000 },
    };
    const { position } = await eventStore.append(
      `estate-${ESTATE}`,
      [
        {
          event_id: 'e1',
          type: 'EstateCreated',
          occurred_at: '2025-01-01T00:00:00.000Z',
          metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
          data: {
            estate_id: ESTATE,
            organization_id: ORG,
            estate_provider_type: 'API',
            referral_token: 'T'.repeat(32),
            fields: {
              ...EMPTY_ESTATE_FIELDS,
              address: { ...EMPTY_ESTATE_FIELDS.address, zip_code: '9000', country: 'BE' },
              year_built: 1960,
              estate_format: 'OPEN',
              habitable_space_m2: 120,
            },
          },
        },
      ],
      NO_STREAM,
    );

    const first = await startEstates(deps);
    await first.projection.waitFor(position, 5000);
    const graded = (await readStore.get<EstateListDoc>(C.list, ESTATE))!;
    await first.close();
    // a label from an older model, and the older model's version on record
    await readStore.transaction(async (tx) => {
      await tx.put(C.list, ESTATE, { ...graded, quality_label: 'Z' });
      await tx.put('estates_meta', 'energy-model', { model_version: 'older' });
    });

    const second = await startEstates(deps);
    closers.push(() => second.close());
    expect((await readStore.get<EstateListDoc>(C.list, ESTATE))!.quality_label).toBe(graded.quality_label);
  });
});

/** The service on in-memory stores, its caller USER owning ORG (as identity's events say), and requests as USER. */
async function startOwnedEstates() {
  const { bus, eventStore } = await startEstatesInMemory(closers);
  await memberOf(bus, ORG, USER, 'OWNER');
  // The calculations scope alone: what a job's request carries to `describe-estate-for-job`.
  const request = (body: unknown, params: Record<string, string> = {}, idempotency_key?: string): ServiceRequest => ({
    actor: { user_id: USER, organization_id: ORG, client_id: 'c', scopes: ['calculations'] },
    correlation_id: 'c',
    ...(idempotency_key ? { idempotency_key } : {}),
    params,
    query: {},
    body,
  });
  return { bus, eventStore, request };
}

describe('estates service handlers', () => {
  it('keeps managing_user_id in lower case, like every other id, whatever case the body uses', async () => {
    const { bus, eventStore, request } = await startOwnedEstates();

    const created = await bus.request<Estate>(
      EstatesSubjects.createEstate,
      request({ name: 'Villa', managing_user_id: USER.toUpperCase() }),
    );
    expect(created.managing_user_id).toBe(USER);
    await bus.request(EstatesSubjects.updateEstate, request({ managing_user_id: USER.toUpperCase() }, { estate_id: created.id }));
    // the same user in other letters is no change
    expect((await eventStore.readStream(`estate-${created.id}`)).map((e) => e.type)).toEqual(['EstateCreated']);
  });

  it("describes a job's estate: created with the roofs the request names, once per key; then updated for the same external_id", async () => {
    const { bus, eventStore, request } = await startOwnedEstates();
    const body = {
      year_built: 1960,
      external_id: 'crm-7',
      roofs: [
        { estate_roof_type: 'INCLINED', insulation_type: 'NONE' },
        { estate_roof_type: 'FLAT', surface_m2: 12 },
      ],
    };

    const created = await bus.request<JobEstate>(EstatesSubjects.describeEstateForJob, request(body, {}, 'job-1'));
    expect(created).toMatchObject({ existed: false, epc_score: null });
    const appended = await eventStore.readStream(`estate-${created.id}`);
    expect(appended.map((e) => e.type)).toEqual(['EstateCreated', 'RoofAdded', 'RoofAdded']);
    const roofs = await bus.request<
      Array<{ id: string; estate_roof_type: string; insulation_type: string | null; surface_m2: number | null }>
    >(EstatesSubjects.listRoofs, request(undefined, { estate_id: created.id }));
    expect(roofs.map((r) => [r.estate_roof_type, r.insulation_type, r.surface_m2]).sort()).toEqual([
      ['FLAT', null, 12],
      ['INCLINED', 'NONE', null],
    ]);
    // The same key again (a retried job request): the same estate, nothing added.
    const again = await bus.request<JobEstate>(EstatesSubjects.describeEstateForJob, request(body, {}, 'job-1'));
    expect(again.id).toBe(created.id);
    expect(await eventStore.readStream(`estate-${created.id}`)).toHaveLength(3);
    // Another job for the same external_id updates that estate: its fields, its flat roof's surface; no third roof.
    const next = await bus.request<JobEstate>(
      EstatesSubjects.describeEstateForJob,
      request(
        { ...body, year_built: 1965, energy_context: { epc_score: 310 }, roofs: [{ estate_roof_type: 'FLAT', surface_m2: 20 }] },
        {},
        'job-2',
      ),
    );
    expect(next).toEqual({ id: created.id, existed: true, epc_score: 310 });
    expect((await eventStore.readStream(`estate-${created.id}`)).slice(3).map((e) => e.type)).toEqual(['EstateUpdated', 'RoofUpdated']);
    // A roof as addRoof would refuse it is refused here too; the public create takes no roofs.
    await expect(
      bus.request(EstatesSubjects.describeEstateForJob, request({ roofs: [{ estate_roof_type: 'DOME' }] }, {}, 'job-3')),
    ).rejects.toMatchObject({ status: 400 });
    await expect(bus.request(EstatesSubjects.createEstate, request(body, {}, 'job-4'))).rejects.toMatchObject({ status: 400 });
  });

  it('a read model slower than the settle bound (503) still moves or frees the external_id with the stored change', async () => {
    // The projection writes through transactions: hold them back for a while once `lagging` is set.
    let lagging = false;
    const { bus, eventStore } = await startEstatesInMemory(closers, {
      settleTimeoutMs: 100,
      readStore: (sqlite) =>
        Object.assign(Object.create(sqlite), {
          transaction: async (fn: Parameters<typeof sqlite.transaction>[0]) => {
            if (lagging) await new Promise((resolve) => setTimeout(resolve, 400));
            return sqlite.transaction(fn);
          },
        }),
    });
    // identity: the caller owns ORG, whose only member is USER
    await memberOf(bus, ORG, USER, 'OWNER');
    const request = (body: unknown, params: Record<string, string> = {}): ServiceRequest => ({
      actor: { user_id: USER, organization_id: ORG, client_id: 'c', scopes: [] },
      correlation_id: 'c',
      params,
      query: {},
      body,
    });
    const created = await bus.request<Estate>(EstatesSubjects.createEstate, request({ external_id: 'crm-1' }));

    lagging = true;
    await expect(
      bus.request(EstatesSubjects.updateEstate, request({ external_id: 'crm-2' }, { estate_id: created.id })),
    ).rejects.toMatchObject({ status: 503 });
    expect((await eventStore.readStream(`estate-${created.id}`)).map((e) => e.type)).toEqual(['EstateCreated', 'EstateUpdated']);
    const last = async (external_id: string) => (await eventStore.readStream(externalIdStream(ORG, external_id))).at(-1)?.type;
    expect(await last('crm-2')).toBe('ExternalIdClaimed');
    await vi.waitFor(async () => expect(await last('crm-1')).toBe('ExternalIdReleased'), { timeout: 10_000, interval: 20 });

    // deleting frees the external_id, read model or not: the process manager does it from the stored event
    await expect(bus.request(EstatesSubjects.deleteEstate, request({}, { estate_id: created.id }))).rejects.toMatchObject({ status: 503 });
    await vi.waitFor(async () => expect(await last('crm-2')).toBe('ExternalIdReleased'), { timeout: 10_000, interval: 20 });
  });
});
