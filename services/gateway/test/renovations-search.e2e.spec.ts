import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { created, FLEMISH_1960_HOUSE, houseWithParts, newRenovation, type Api } from './renovations.fixtures.ts';

/** `GET /v1/renovations` (docs/http-contract.md "Renovations and reports": page, page_size, sort_by, sort_order, include_deleted, external_user_id), history and as_of. */
let stack: Stack;
let api: Api;
let owner: { user_id: string };
const ids: string[] = [];
let deleted: string;
let managed: string;

beforeAll(async () => {
  stack = await startStack();
  const token = await stack.token();
  api = stack.as(token);
  const [me] = (await api.get('/users/me')).json();
  owner = { user_id: me.id };
  const estate = await created(await api.post('/estates', FLEMISH_1960_HOUSE));
  for (let i = 0; i < 5; i++) ids.push(await newRenovation(api, estate.id, { renovation_name: `Plan ${i}` }));
  deleted = await newRenovation(api, estate.id, { renovation_name: 'Dropped' });
  expect((await api.delete(`/renovations/${deleted}`)).statusCode).toBe(200);
  // An estate managed by a user with an external id: the filter's target.
  expect((await api.patch(`/users/${owner.user_id}`, { external_id: 'crm-user-42' })).statusCode).toBe(200);
  const managedEstate = await created(await api.post('/estates', { ...FLEMISH_1960_HOUSE, managing_user_id: owner.user_id }));
  managed = await newRenovation(api, managedEstate.id);
  // Touch the first renovation last, so updated_at orders differently from created_at.
  await created(await api.post(`/renovations/${ids[0]}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
});
afterAll(async () => stack?.close());

const search = async (query = '') => {
  const res = await api.get(`/v1/renovations${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /v1/renovations', () => {
  it('pages the live renovations newest first by default, with the envelope of the interface', async () => {
    const page = await search();
    expect(page).toMatchObject({
      page: 1,
      page_size: 20,
      total: 6,
      total_pages: 1,
      prev_page: null,
      next_page: null,
      has_prev_page: false,
      has_next_page: false,
    });
    expect(page.data.map((e: { renovation_id: string }) => e.renovation_id)).toEqual([managed, ...[...ids].reverse()]);
    const entry = page.data.find((e: { renovation_id: string }) => e.renovation_id === ids[0]);
    expect(entry).toMatchObject({
      renovation_name: 'Plan 0',
      renovation_deleted_at: null,
      estate_geo_address: { street: 'Kouter', house_number: '12', zip_code: '9000', place: 'Gent' },
      managing_user: { id: null, external_id: null },
    });
    expect(entry.total_estimated_cost_incl_vat).toBe(Math.round((entry.estimated_cost + entry.estimated_vat_cost) * 100) / 100);
    expect(entry.estimated_cost).toBeGreaterThan(0);
  });

  it('pages with page_size 1 and 100, and past the end', async () => {
    const first = await search('page_size=1');
    expect(first).toMatchObject({
      page: 1,
      page_size: 1,
      total: 6,
      total_pages: 6,
      prev_page: null,
      next_page: 2,
      has_prev_page: false,
      has_next_page: true,
    });
    expect(first.data).toHaveLength(1);
    const middle = await search('page_size=1&page=3');
    expect(middle).toMatchObject({ page: 3, prev_page: 2, next_page: 4, has_prev_page: true, has_next_page: true });
    const last = await search('page_size=1&page=6');
    expect(last).toMatchObject({ next_page: null, has_next_page: false });
    const hundred = await search('page_size=100');
    expect(hundred).toMatchObject({ page_size: 100, total_pages: 1 });
    expect(hundred.data).toHaveLength(6);
    const beyond = await search('page=9');
    expect(beyond).toMatchObject({ page: 9, total: 6, data: [], next_page: null, has_next_page: false });
  });

  it('refuses page_size 0 and 101, page 0 and values that are not numbers or known (400)', async () => {
    for (const query of [
      'page_size=101',
      'page_size=0',
      'page=0',
      'page=abc',
      'sort_by=name',
      'sort_order=up',
      'include_deleted=yes',
      'colour=red',
    ]) {
      const res = await api.get(`/v1/renovations?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.json().message.length, query).toBeGreaterThan(0);
    }
  });

  it('sorts by created_at and updated_at in both orders', async () => {
    const order = (page: { data: Array<{ renovation_id: string }> }) => page.data.map((e) => e.renovation_id);
    const createdAsc = order(await search('sort_by=created_at&sort_order=ASC'));
    expect(createdAsc).toEqual([...ids, managed]);
    expect(order(await search('sort_by=created_at&sort_order=DESC'))).toEqual([...createdAsc].reverse());
    const updatedDesc = order(await search('sort_by=updated_at&sort_order=DESC'));
    expect(updatedDesc[0]).toBe(ids[0]);
    expect(order(await search('sort_by=updated_at&sort_order=ASC'))).toEqual([...updatedDesc].reverse());
  });

  it('includes soft-deleted renovations with include_deleted=true, with their deletion time', async () => {
    expect((await search('include_deleted=false')).total).toBe(6);
    const all = await search('include_deleted=true');
    expect(all.total).toBe(7);
    const gone = all.data.find((e: { renovation_id: string }) => e.renovation_id === deleted);
    expect(gone.renovation_deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("filters by the managing user's external id", async () => {
    const page = await search('external_user_id=crm-user-42');
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({ renovation_id: managed, managing_user: { id: owner.user_id, external_id: 'crm-user-42' } });
    expect((await search('external_user_id=nobody')).total).toBe(0);
  });

  it("shows another tenant nothing of this tenant's renovations", async () => {
    const other = stack.as((await stack.tenant('Other Agency', 'olga@search.example')).token);
    const res = await other.get('/v1/renovations?include_deleted=true');
    expect(res.json()).toMatchObject({ total: 0, data: [] });
  });
});

describe('history and as_of', () => {
  it('lists the renovation events for the audit scope, oldest first; 403 without the scope', async () => {
    const { estate_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    expect((await api.get(`/v1/renovations/${id}/history`)).statusCode).toBe(403);
    const [me] = (await api.get('/users/me')).json();
    const auditor = stack.as(await stack.clientToken(me.id, ['renovations', 'audit']));
    const res = await auditor.get(`/v1/renovations/${id}/history`);
    expect(res.statusCode).toBe(200);
    const types = res.json().map((e: { type: string }) => e.type);
    expect(types).toEqual(['RenovationCreated', 'RenovationValued', 'RenovationItemAdded', 'RenovationValued']);
    expect(res.json()[0]).toMatchObject({ revision: expect.any(Number), actor: { user_id: me.id } });
    expect((await auditor.get(`/v1/renovations/${crypto.randomUUID()}/history`)).statusCode).toBe(404);
  });

  it('replays the overview to a moment with as_of', async () => {
    const { estate_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    await new Promise((r) => setTimeout(r, 5));
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'SOLAR_BOILER', count: 1 }));
    expect((await api.get(`/v1/renovations/${id}/overview`)).json().details.general).toHaveLength(2);
    const past = await api.get(`/v1/renovations/${id}/overview?as_of=${encodeURIComponent(between)}`);
    expect(past.statusCode).toBe(200);
    expect(past.json().details.general.map((i: { renovation_component_type: string }) => i.renovation_component_type)).toEqual([
      'HEAT_PUMP_AIR_WATER',
    ]);
    expect((await api.get(`/renovations/${id}/overview?as_of=2001-01-01T00:00:00Z`)).statusCode).toBe(404);
    expect((await api.get(`/renovations/${id}/overview?as_of=yesterday`)).statusCode).toBe(400);
  });
});
