import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteReadStore, type RecordedEvent, type SqliteReadStore } from '@renopath/platform';
import type { EstateEvent } from '@renopath/contracts';
import { EMPTY_ESTATE_FIELDS } from '../estate/estate.decider.ts';
import { replayEstate } from './estate-view.ts';
import { C, projectEstateViews, type EstateDetailDoc, type EstateListDoc, type MembershipDoc } from './estate-views.projection.ts';
import { renderEstate, renderListForm } from './estate-views.render.ts';

const ESTATE = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';
const ROOF = '33333333-3333-4333-8333-333333333333';
const USER = '88888888-8888-4888-8888-888888888888';
const TOKEN = 'T'.repeat(32);

let store: SqliteReadStore;
let position = 0n;

beforeEach(() => {
  store = openSqliteReadStore({ file: ':memory:' });
  position = 0n;
});
afterEach(async () => store.close());

/** Recorded events of the estate's stream, one millisecond apart. */
function recorded(events: EstateEvent[], fromRevision = 0): RecordedEvent[] {
  return events.map((e, i) => {
    position += 1n;
    return {
      event_id: `e-${position}`,
      type: e.type,
      data: e.data as Record<string, unknown>,
      metadata: { actor: { user_id: USER, client_id: null }, correlation_id: 'c', causation_id: null },
      occurred_at: new Date(Date.UTC(2025, 0, 1, 12, 0, 0, fromRevision + i)).toISOString(),
      stream: `estate-${ESTATE}`,
      revision: BigInt(fromRevision + i),
      position,
    };
  });
}

async function given(events: RecordedEvent[]) {
  for (const event of events) await store.transaction((tx) => projectEstateViews(event, tx));
}

const created: EstateEvent = {
  type: 'EstateCreated',
  data: {
    estate_id: ESTATE,
    organization_id: ORG,
    estate_provider_type: 'SKARABEE',
    referral_token: TOKEN,
    fields: {
      ...EMPTY_ESTATE_FIELDS,
      external_id: 'sk-1',
      address: { ...EMPTY_ESTATE_FIELDS.address, zip_code: '9000', place: 'Gent', country: 'BE' },
      year_built: 1965,
      estate_format: 'OPEN',
      habitable_space_m2: 150,
    },
  },
};
const history: EstateEvent[] = [
  created,
  { type: 'EstateUpdated', data: { estate_id: ESTATE, changes: { name: 'Villa' } } },
  {
    type: 'RoofAdded',
    data: {
      estate_id: ESTATE,
      roof_id: ROOF,
      fields: {
        estate_roof_type: 'FLAT',
        surface_m2: 90,
        is_decking_present: true,
        insulation_type: 'STRONG',
        name: null,
        pitch_degrees: null,
        dimensions: { height_cm: 40 },
      },
    },
  },
  {
    type: 'EstateMemberAdded',
    data: { estate_id: ESTATE, organization_id: ORG, user_id: USER, email_address: 'u@x.example', first_name: 'U', last_name: 'Ser' },
  },
];

describe('estate views projection', () => {
  it('given the events, the detail equals their replay and the list form carries the list columns', async () => {
    const events = recorded(history);
    await given(events);
    const detail = (await store.get<EstateDetailDoc>(C.detail, ESTATE))!;
    expect(detail.view).toEqual(replayEstate(events));
    expect(detail.revision).toBe(3);
    expect(detail.assessment.confidence_score).not.toBeNull();
    expect(detail.view!.updated_at).toBe(events.at(-1)!.occurred_at);

    const list = (await store.get<EstateListDoc>(C.list, ESTATE))!;
    expect(list).toMatchObject({
      id: ESTATE,
      organization_id: ORG,
      estate_provider_type: 'SKARABEE',
      external_id: 'sk-1',
      referral_token: TOKEN,
      quality_label: detail.assessment.quality_label,
    });
    expect(list.fields.name).toBe('Villa');
    expect((await store.query<MembershipDoc>(C.memberships, { filter: { user_id: USER } })).items).toEqual([
      { estate_id: ESTATE, user_id: USER, organization_id: ORG, status: 'ACTIVE' },
    ]);

    const reply = renderEstate(detail.view!, detail.assessment, 'https://renopath.example');
    expect(reply.referral_link).toBe(`https://renopath.example/r/${TOKEN}`);
    expect(reply.roofs).toHaveLength(1);
    expect(reply.members.map((m) => [m.id, m.user_id])).toEqual([[USER, USER]]);
    // The interface: the list read omits these; the referral page shows the place, not the address
    const form = renderListForm(list, 'https://renopath.example');
    for (const omitted of ['energy_context', 'dimensions', 'habitable_space_m2', 'ground_surface_m2', 'files'])
      expect(form).not.toHaveProperty(omitted);
    expect(form.address).toEqual(reply.address);
  });

  it('is idempotent: an event delivered again changes nothing', async () => {
    const events = recorded(history);
    await given(events);
    const before = await store.get<EstateDetailDoc>(C.detail, ESTATE);
    await given([events[1]!, events[2]!]);
    expect(await store.get<EstateDetailDoc>(C.detail, ESTATE)).toEqual(before);
    expect((await store.get<EstateDetailDoc>(C.detail, ESTATE))!.view!.roofs).toHaveLength(1);
  });

  it('on deletion keeps a tombstone and drops the list row, the referral and the memberships; a late creation does not resurrect it', async () => {
    const events = recorded([
      ...history,
      { type: 'RoofRemoved', data: { estate_id: ESTATE, roof_id: ROOF } },
      { type: 'EstateDeleted', data: { estate_id: ESTATE, organization_id: ORG } },
    ]);
    await given(events);
    expect(await store.get<EstateDetailDoc>(C.detail, ESTATE)).toMatchObject({ view: null, revision: 5 });
    expect(await store.get(C.list, ESTATE)).toBeNull();
    expect((await store.query(C.memberships)).items).toEqual([]);
    await given([events[0]!]);
    expect(await store.get(C.list, ESTATE)).toBeNull();
  });

  it('prefers the quality label of a recorded trajectory over the model', async () => {
    await given(
      recorded([
        created,
        {
          type: 'EstateTrajectoryQualityRecorded',
          data: { estate_id: ESTATE, calculation_job_id: USER, confidence_score: 0.95, quality_label: 'A' },
        },
      ]),
    );
    expect((await store.get<EstateListDoc>(C.list, ESTATE))!.quality_label).toBe('A');
  });

  it('grades an estate without the five required fields D, with no estimate', async () => {
    await given(recorded([{ type: 'EstateCreated', data: { ...created.data, fields: EMPTY_ESTATE_FIELDS } } as EstateEvent]));
    const detail = (await store.get<EstateDetailDoc>(C.detail, ESTATE))!;
    expect(detail.assessment).toEqual({
      confidence_score: null,
      quality_label: 'D',
      epc_label: null,
      epc_score: null,
      energy_efficiency_type: null,
      region: null,
    });
  });
});
