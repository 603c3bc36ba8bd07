import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { created, grantRow, houseWithParts, newRenovation, overviewItems, sum, vatRate, type Api } from './renovations.fixtures.ts';

/**
 * Renovations over HTTP, as a client coded against the interface calls them: old-style create, list,
 * read, delete, overview and government grants; v1 overview; items with their figures from the
 * catalogue's data files (each test names the row it checks).
 */
let stack: Stack;
let api: Api;
let other: Api;
const YEAR = new Date().getUTCFullYear();

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
  other = stack.as((await stack.tenant('Other Agency', 'olga@renovations.example')).token);
});
afterAll(async () => stack?.close());

describe('renovations (old style)', () => {
  it('creates a renovation of an estate and reads it back, in the list and alone with files', async () => {
    const { estate_id } = await houseWithParts(api);
    const res = await api.post('/renovations', { estate_id });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ estate_id });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

    const one = await api.get(`/renovations/${body.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      id: body.id,
      estate_id,
      estimated_cost: 0,
      estimated_vat_cost: 0,
      subsidy_amount: 0,
      files: [],
      energy_efficiency_type: 'EPC_FLANDERS',
    });
    // With no items the indication is the label the estate has today.
    expect(typeof one.json().energy_efficiency_indication).toBe('string');
    const v1 = await api.get(`/v1/renovations/${body.id}`);
    expect(v1.json().id).toBe(body.id);

    const list = await api.get('/renovations');
    expect(list.statusCode).toBe(200);
    const entry = list.json().find((r: { id: string }) => r.id === body.id);
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('files');
  });

  it("refuses a body without a valid estate_id or with unknown fields (400) and an unknown or other tenant's estate (404)", async () => {
    const bad = await api.post('/renovations', { estate_id: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(bad.json().message.join(' ')).toMatch(/estate_id/);
    expect((await api.post('/renovations', {})).statusCode).toBe(400);
    expect((await api.post('/renovations', { estate_id: crypto.randomUUID(), color: 'red' })).statusCode).toBe(400);
    const unknown = await api.post('/renovations', { estate_id: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ statusCode: 404, error: 'Not Found', message: ['estate not found'] });
    const { estate_id } = await houseWithParts(api);
    expect((await other.post('/renovations', { estate_id })).statusCode).toBe(404);
  });

  it('creates one renovation and one item for a repeated Idempotency-Key, answering the first answer again', async () => {
    const { estate_id } = await houseWithParts(api);
    const token = await stack.token();
    const post = (url: string, payload: object, key: string) =>
      stack.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key }, payload });
    const first = await post('/renovations', { estate_id }, 'create-renovation-1');
    const again = await post('/renovations', { estate_id }, 'create-renovation-1');
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const R = `/renovations/${first.json().id}`;
    const item = await post(`${R}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }, 'add-item-1');
    const itemAgain = await post(`${R}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }, 'add-item-1');
    expect(itemAgain.json().id).toBe(item.json().id);
    expect((await api.get(`${R}/items`)).json()).toHaveLength(1);
  });

  it('soft-deletes: the renovation answers 404 afterwards and leaves the old-style list', async () => {
    const { estate_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    const del = await api.delete(`/renovations/${id}`);
    expect(del.statusCode).toBe(200);
    expect((await api.get(`/renovations/${id}`)).statusCode).toBe(404);
    expect((await api.delete(`/renovations/${id}`)).statusCode).toBe(404);
    expect((await api.get('/renovations')).json().some((r: { id: string }) => r.id === id)).toBe(false);
    expect((await api.get(`/renovations/${id}/overview`)).statusCode).toBe(404);
  });

  it("answers 404 for another tenant's renovation on every renovation path, and for ids that are not UUIDs", async () => {
    const { estate_id, roof_id, room_id, staircase_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    const item = await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    const R = `/renovations/${id}`;
    const paths = [
      R,
      `${R}/overview`,
      `/v1${R}/overview`,
      `${R}/government-grants`,
      `${R}/items`,
      `${R}/items/${item.id}`,
      `${R}/available-items`,
      `${R}/roofs/${roof_id}/items`,
      `${R}/rooms/${room_id}/items`,
      `${R}/staircases/${staircase_id}/available-items`,
    ];
    for (const path of paths) {
      expect((await other.get(path)).statusCode, path).toBe(404);
      expect((await api.get(path)).statusCode, path).toBe(200);
    }
    expect((await other.delete(`${R}/items/${item.id}`)).statusCode).toBe(404);
    expect((await other.patch(`${R}/items/${item.id}`, { count: 2 })).statusCode).toBe(404);
    expect((await other.post(`${R}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 })).statusCode).toBe(404);
    expect((await other.delete(R)).statusCode).toBe(404);
    expect((await api.get('/renovations/not-a-uuid')).statusCode).toBe(404);
    expect((await other.get('/renovations')).json().some((r: { id: string }) => r.id === id)).toBe(false);
  });
});

describe('items and their figures', () => {
  it("prices an item on a 1960 Flemish house's roof at 6% VAT with the Flemish grant of the current year", async () => {
    const { estate_id, roof_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    const res = await api.post(`/renovations/${id}/roofs/${roof_id}/items`, {
      renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE',
      count: 1,
    });
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE',
      root_renovation_component_type: 'ROOF_INSULATION',
      count: 1,
      roof_id,
      scope: 'ROOF',
    });
    // The roof's 80 m2 times count.
    expect(item.quantity).toBe(80);
    // vat-rules.json BE_RENOVATION_OLD_DWELLING: rate BE_6 for a dwelling of 10 years and more.
    expect(item.sources.vat_case).toBe('BE_RENOVATION_OLD_DWELLING');
    expect(item.vat_rate).toBe(vatRate('BE_6'));
    expect(item.estimated_vat_cost).toBe(sum([item.estimated_cost * vatRate('BE_6')]));
    // grants/flanders.json FL_MVP_<year>_ROOF_INSULATION_MIDDLE: 25% of the cost up to the invoice ceiling, MIDDLE income by default.
    const row = grantRow('flanders', `FL_MVP_${YEAR}_ROOF_INSULATION_MIDDLE`);
    expect(item.sources.grant_rules).toEqual([row.id]);
    expect(item.scheme).toBe(row.scheme);
    expect(item.conditions).toEqual(row.conditions);
    expect(item.subsidy_amount).toBe(sum([Math.min(item.estimated_cost, row.invoice_ceiling) * row.amount.value]));
    expect(item.selection_tree).toEqual([
      {
        ROOF_INSULATION: expect.objectContaining({
          is_selected: true,
          enum_selection_tree: expect.objectContaining({ INCLINED_ROOF_INSULATION_INSIDE: { is_selected: true, enum_selection_tree: {} } }),
        }),
      },
    ]);

    const grants = (await api.get(`/renovations/${id}/government-grants`)).json();
    expect(Object.keys(grants)).toEqual(['ROOF']);
    expect(grants.ROOF).toMatchObject({ total_subsidy_amount: item.subsidy_amount, total_estimated_cost: item.estimated_cost });
    expect(grants.ROOF.eligible_renovation_items).toEqual([
      expect.objectContaining({
        renovation_item_id: item.id,
        renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE',
        subsidy_amount: item.subsidy_amount,
        scheme: row.scheme,
        conditions: row.conditions,
      }),
    ]);
  });

  it('overview totals equal the sum of the items plus the derived items', async () => {
    const { estate_id, roof_id, room_id, staircase_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    const R = `/renovations/${id}`;
    await created(await api.post(`${R}/items`, { renovation_component_type: 'EXTERIOR_WALL_INSULATION', count: 1 }));
    await created(await api.post(`${R}/roofs/${roof_id}/items`, { renovation_component_type: 'ROOF_COVERING_TILES', count: 1 }));
    await created(await api.post(`${R}/rooms/${room_id}/items`, { renovation_component_type: 'INTERIOR_WALL_REMOVAL', count: 2 }));
    await created(await api.post(`${R}/staircases/${staircase_id}/items`, { renovation_component_type: 'RAILING', count: 1 }));
    const overview = (await api.get(`/v1${R}/overview`)).json();
    const all = overviewItems(overview);
    expect(overview.details.derived.map((d: { renovation_component_type: string }) => d.renovation_component_type)).toEqual(
      expect.arrayContaining(['SCAFFOLDING', 'ARCHITECT', 'ASBESTOS_INVENTORY']),
    );
    expect(overview.summary).toMatchObject({
      estate_id,
      total_estimated_cost: sum(all.map((i) => i.estimated_cost)),
      total_estimated_vat_cost: sum(all.map((i) => i.estimated_vat_cost)),
      total_subsidy_amount: sum(all.map((i) => i.subsidy_amount)),
    });
    const record = (await api.get(R)).json();
    expect(record.estimated_cost).toBe(overview.summary.total_estimated_cost);
    const old = (await api.get(`${R}/overview`)).json();
    expect(old.summary).toEqual(overview.summary);
    expect(old.general).toEqual(overview.details.general);
    expect(old.derived).toEqual(overview.details.derived);
    expect(old.rooms[0]).toMatchObject({ room_id, estate_room_type: 'LIVING_ROOM' });
  });
});
