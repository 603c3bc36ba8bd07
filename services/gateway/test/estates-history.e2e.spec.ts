import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayEstate } from '@renopath/estates/estate-views/estate-view.ts';
import { renderEstate } from '@renopath/estates/estate-views/estate-views.render.ts';
import { assessEstate } from '@renopath/estates/quality/quality.ts';
import { JPEG, PDF } from './files.ts';
import { untilFinal } from './jobs.ts';
import { startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;
let audit: string;

interface Entry {
  event_id: string;
  type: string;
  revision: number;
  occurred_at: string;
  actor: { user_id: string | null; client_id: string | null };
  correlation_id: string;
  causation_id: string | null;
  data: Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
  audit = await stack.clientToken(stack.bootstrap.user_id, ['estates', 'audit']);
});
afterAll(async () => stack?.close());

/** Download links are signed afresh on every read: compare estates without them. */
function withoutLinks(estate: Record<string, unknown>) {
  const strip = (files: unknown) => (files as Array<Record<string, unknown>>).map(({ url: _u, blob_key: _k, ...rest }) => rest);
  const commercial = estate['commercial_context'] as Record<string, unknown>;
  return {
    ...estate,
    files: strip(estate['files']),
    media: strip(estate['media']),
    commercial_context: { ...commercial, commercial_media_files: strip(commercial['commercial_media_files']) },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 3)); // distinct millisecond timestamps between edits
const history = async (id: string) => (await stack.as(audit).get(`/v1/estates/${id}/history`)).json() as Entry[];

describe('estate history and as_of (audit)', () => {
  it('lists the events oldest first with who, when and what; needs the audit scope', async () => {
    const created = await stack.app.inject({
      method: 'POST',
      url: '/estates',
      headers: { authorization: `Bearer ${owner}`, 'x-request-id': 'crm-create-1' },
      payload: { name: 'Audited' },
    });
    const id = created.json().id;
    await stack.as(owner).patch(`/estates/${id}`, { name: 'Audited twice' });

    expect((await stack.as(owner).get(`/v1/estates/${id}/history`)).statusCode).toBe(403);
    expect((await stack.as(audit).get(`/estates/${id}/history`)).statusCode).toBe(404);
    const entries = await history(id);
    expect(entries.map((e) => [e.type, e.revision])).toEqual([
      ['EstateCreated', 0],
      ['EstateUpdated', 1],
    ]);
    expect(entries[0]).toMatchObject({
      event_id: expect.any(String),
      occurred_at: created.json().created_at,
      actor: { user_id: stack.bootstrap.user_id, client_id: stack.bootstrap.client_id },
      correlation_id: created.headers['x-correlation-id'],
      causation_id: null,
      data: { estate_id: id, organization_id: stack.bootstrap.organization_id, estate_provider_type: 'API' },
    });
    expect(entries[1]!.data).toEqual({ estate_id: id, changes: { name: 'Audited twice' } });
    expect((await stack.as(audit).get('/v1/estates/00000000-0000-4000-8000-000000000000/history')).statusCode).toBe(404);
  });

  it('replays the history of a sequence of edits to exactly the current read model, and as_of answers past states', async () => {
    const E = `/estates/${(await stack.as(owner).post('/estates', { name: 'v1', address: { zip_code: '3000', country: 'BE' }, year_built: 1931, estate_format: 'CLOSED', habitable_space_m2: 110 })).json().id}`;
    await tick();
    await stack.as(owner).patch(E, { name: 'v2', estate_status: 'FOR_SALE' });
    await tick();
    const roof = (await stack.as(owner).post(`${E}/roofs`, { estate_roof_type: 'INCLINED', surface_m2: 70 })).json();
    await tick();
    await stack.as(owner).patch(`${E}/roofs/${roof.id}`, { insulation_type: 'MODERATE' });
    const floor = (await stack.as(owner).post(`${E}/floors`, { estate_floor_type: 'GROUND_FLOOR' })).json();
    await stack.as(owner).post(`${E}/floors/${floor.id}/rooms`, { estate_room_type: 'LIVING_ROOM', surface_m2: 30 });
    await stack.as(owner).upload(`${E}/files`, [{ name: 'file', filename: 'epc.pdf', content: PDF }]);
    await stack.as(owner).upload(`${E}/media`, [{ name: 'file', filename: 'front.jpg', content: JPEG }]);
    await stack.as(owner).post(`${E}/members`, { email_address: 'hist@buyer.example', first_name: 'Hi', last_name: 'Story' });
    await tick();
    await stack.as(owner).patch(E, { name: 'v3', dimensions: { width_cm: 700 }, address: { street: 'Naamsestraat' } });

    const current = (await stack.as(owner).get(E)).json();
    const entries = await history(current.id);
    expect(entries.map((e) => e.type)).toEqual([
      'EstateCreated',
      'EstateUpdated',
      'RoofAdded',
      'RoofUpdated',
      'FloorAdded',
      'RoomAdded',
      'EstateFileAdded',
      'EstateFileAdded',
      'EstateMemberAdded',
      'EstateUpdated',
    ]);
    // replaying the audit trail by hand gives the read model, field for field
    const replayed = replayEstate(entries)!;
    expect(
      withoutLinks(renderEstate(replayed, assessEstate(replayed), 'http://localhost:8080') as unknown as Record<string, unknown>),
    ).toEqual(withoutLinks(current));
    // and so does as_of at the last event
    const atLast = await stack.as(owner).get(`${E}?as_of=${encodeURIComponent(entries.at(-1)!.occurred_at)}`);
    expect(atLast.statusCode).toBe(200);
    expect(withoutLinks(atLast.json())).toEqual(withoutLinks(current));

    // between two edits: the earlier state
    const renamed = entries[1]!;
    const atRename = (await stack.as(owner).get(`${E}?as_of=${renamed.occurred_at}`)).json();
    expect(atRename).toMatchObject({
      name: 'v2',
      estate_status: 'FOR_SALE',
      roofs: [],
      floors: [],
      files: [],
      members: [],
      updated_at: renamed.occurred_at,
    });
    const justBefore = new Date(Date.parse(entries[3]!.occurred_at) - 1).toISOString();
    const beforeInsulation = (await stack.as(owner).get(`${E}?as_of=${justBefore}`)).json();
    expect(beforeInsulation.roofs).toEqual([{ ...roof }]);
    expect(beforeInsulation.name).toBe('v2');
    // a timestamp with an offset is the same moment
    const offset = new Date(Date.parse(renamed.occurred_at)).toISOString().replace('Z', '+00:00');
    expect((await stack.as(owner).get(`${E}?as_of=${encodeURIComponent(offset)}`)).json().name).toBe('v2');

    expect((await stack.as(owner).get(`${E}?as_of=2001-01-01T00:00:00.000Z`)).statusCode).toBe(404);
    const bad = await stack.as(owner).get(`${E}?as_of=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(['as_of must be an ISO-8601 timestamp']);
    expect((await stack.as(owner).get(`${E}?since=2001-01-01`)).statusCode).toBe(400);

    // another tenant learns nothing, even about the past
    const other = await stack.tenant('Other agency', 'other@history.example');
    expect((await stack.as(other.token).get(`${E}?as_of=${renamed.occurred_at}`)).statusCode).toBe(404);
  });

  it('keeps a deleted estate readable in the past and in its history', async () => {
    const E = `/estates/${(await stack.as(owner).post('/estates', { name: 'Gone soon' })).json().id}`;
    const created = (await history(E.split('/')[2]!))[0]!;
    expect((await stack.as(owner).delete(E)).statusCode).toBe(200);
    expect((await stack.as(owner).get(E)).statusCode).toBe(404);
    expect((await stack.as(owner).get(`${E}?as_of=${created.occurred_at}`)).json().name).toBe('Gone soon');
    const entries = await history(E.split('/')[2]!);
    expect(entries.at(-1)!.type).toBe('EstateDeleted');
    const afterDeletion = new Date(Date.parse(entries.at(-1)!.occurred_at) + 1).toISOString();
    expect((await stack.as(owner).get(`${E}?as_of=${afterDeletion}`)).statusCode).toBe(404);
  });
});

describe('quality label and referral page', () => {
  it("serves a public page with the estate's type, place and estimated EPC label, and nothing private", async () => {
    const estate = (
      await stack.as(owner).post('/estates', {
        name: 'Private name',
        address: { street: 'Geheimstraat', house_number: '7', place: 'Leuven <script>alert(1)</script>', zip_code: '3000', country: 'BE' },
        estate_type: 'HOUSE',
        estate_format: 'SEMI_OPEN',
        year_built: 1960,
        habitable_space_m2: 140,
        energy_context: { heating_type: 'GAS' },
        description: 'Secret notes',
      })
    ).json();
    await stack
      .as(owner)
      .post(`/estates/${estate.id}/members`, { email_address: 'private@buyer.example', first_name: 'Priv', last_name: 'Ate' });
    const path = new URL(estate.referral_link).pathname;
    const page = await stack.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    // The renovation-potential page, in the estate's language (nl-BE for a Belgian home): what an advert shows.
    expect(page.body).toContain('lang="nl-BE"');
    expect(page.body).toContain('3000 Leuven &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('Voor deze woning is nog geen renovatietraject berekend.');
    // No owner names, notes, members or exact house number.
    for (const secret of ['Private name', 'Secret notes', 'private@buyer.example', 'Priv', 'Geheimstraat 7'])
      expect(page.body).not.toContain(secret);

    const unknown = await stack.app.inject({ method: 'GET', url: `/r/${'x'.repeat(32)}` });
    expect(unknown.statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: '/r/short' })).statusCode).toBe(404);
    await stack.as(owner).delete(`/estates/${estate.id}`);
    expect((await stack.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
  });

  it('shows no estimate while the five required fields are unknown', async () => {
    const estate = (await stack.as(owner).post('/estates', { address: { place: 'Brugge' }, estate_type: 'VILLA' })).json();
    expect(estate.quality_label).toBe('D');
    const page = await stack.app.inject({ method: 'GET', url: new URL(estate.referral_link).pathname });
    expect(page.statusCode).toBe(200);
    // Without a country the page takes the default language (nl-BE) and shows no label it cannot know.
    expect(page.body).toContain('Voor deze woning is nog geen renovatietraject berekend.');
  });

  it("takes the quality label from the estate's latest trajectory once there is one", async () => {
    const address = { zip_code: '9000', country: 'BE' };
    const described = { year_built: 1980, estate_format: 'OPEN', habitable_space_m2: 180 };
    const estate = (await stack.as(owner).post('/estates', { address, ...described, external_id: 'quality-1' })).json();
    expect(estate.quality_label).toBe('D');
    // A job for the same external_id: estates records its label when it follows the finished job.
    const api = stack.as(owner);
    const created = await api.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', {
      ...described,
      zip_code: '9000',
      country: 'BE',
      external_id: 'quality-1',
      // Every element described, and the certificate's score: a plan the model trusts more than the bare estate.
      energy_efficiency_score: 380,
      roof_type: 'INCLINED',
      inclined_roof_insulation_type: 'NONE',
      outer_wall_insulation_type: 'NONE',
      has_cavity_wall: true,
      cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
      has_cavity_wall_insulation: false,
      basement_type: 'NONE',
      solid_ground_floor_insulation_type: 'NONE',
      window_glazing_type: 'SINGLE_GLAZING',
      heating_type: 'GAS',
      heating_device: 'NON_CONDENSING_BOILER',
      installation_age: 'OLDER_THAN_TEN_YEARS',
      sanitary_heating_device: 'NOT_SEPARATED',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().estate_id).toBe(estate.id);
    const job = await untilFinal(api, created.json().id);
    expect(job.calculation_job_status).toBe('FINISHED');
    const label = job.metadata.quality_label;
    expect(label).not.toBe('D');
    expect((await api.get(`/estates/${estate.id}`)).json().quality_label).toBe(label);
    const item = (await api.get('/v1/estate/list')).json().estates.find((i: { estate: { id: string } }) => i.estate.id === estate.id);
    expect(item.quality_label).toBe(label);
    expect(item.estate.quality_label).toBe(label);
  });
});
