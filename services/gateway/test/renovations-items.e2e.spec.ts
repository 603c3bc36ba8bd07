import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { created, houseWithParts, newRenovation, type Api } from './renovations.fixtures.ts';

/** Items in the four scopes (the interface's "Renovation items"): add, list, read, edit, delete, available items, and their errors. */
let stack: Stack;
let api: Api;
let world: Awaited<ReturnType<typeof houseWithParts>>;
let renovation: string;

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
  world = await houseWithParts(api);
  renovation = await newRenovation(api, world.estate_id);
});
afterAll(async () => stack?.close());

const scopes = () => [
  { name: 'general', base: `/renovations/${renovation}`, type: 'HEAT_PUMP_AIR_WATER', other: 'HEAT_PUMP_HYBRID', foreign: 'KITCHEN' },
  {
    name: 'roof',
    base: `/renovations/${renovation}/roofs/${world.roof_id}`,
    type: 'ROOF_COVERING_TILES',
    other: 'INCLINED_ROOF_INSULATION_INSIDE',
    foreign: 'HEAT_PUMP_AIR_WATER',
  },
  {
    name: 'room',
    base: `/renovations/${renovation}/rooms/${world.room_id}`,
    type: 'FLOORING_PARQUET',
    other: 'FLOORING_TILES',
    foreign: 'RAILING',
  },
  {
    name: 'staircase',
    base: `/renovations/${renovation}/staircases/${world.staircase_id}`,
    type: 'STAIRCASE_RENOVATION',
    other: 'RAILING',
    foreign: 'ROOF_WINDOW',
  },
];

describe.each(['general', 'roof', 'room', 'staircase'])('items in the %s scope', (name) => {
  const scope = () => scopes().find((s) => s.name === name)!;

  it('adds, lists, reads, edits and deletes an item', async () => {
    const { base, type, other } = scope();
    const added = await api.post(`${base}/items`, { renovation_component_type: type, count: 2 });
    expect(added.statusCode).toBe(201);
    const item = added.json();
    expect(item).toMatchObject({ renovation_component_type: type, count: 2 });
    expect(item.estimated_cost).toBeGreaterThan(0);
    for (const key of [
      'id',
      'root_renovation_component_type',
      'renovation_component_type',
      'selection_tree',
      'estimated_cost',
      'estimated_vat_cost',
      'subsidy_amount',
      'count',
    ]) {
      expect(item).toHaveProperty(key);
    }
    const list = await api.get(`${base}/items`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((i: { id: string }) => i.id)).toContain(item.id);
    expect((await api.get(`${base}/items/${item.id}`)).json()).toEqual(item);

    const edited = await api.patch(`${base}/items/${item.id}`, { renovation_component_type: other, count: 3 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: item.id, renovation_component_type: other, count: 3 });
    expect((await api.get(`${base}/items/${item.id}`)).json().renovation_component_type).toBe(other);

    const removed = await api.delete(`${base}/items/${item.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await api.get(`${base}/items/${item.id}`)).statusCode).toBe(404);
    expect((await api.get(`${base}/items`)).json().map((i: { id: string }) => i.id)).not.toContain(item.id);
  });

  it('refuses a component type of another scope, an unknown one and a count below 1 (400)', async () => {
    const { base, foreign, type } = scope();
    const wrongScope = await api.post(`${base}/items`, { renovation_component_type: foreign, count: 1 });
    expect(wrongScope.statusCode).toBe(400);
    expect(wrongScope.json().message.join(' ')).toMatch(new RegExp(`${foreign} is not allowed in the ${name} scope`));
    const unknown = await api.post(`${base}/items`, { renovation_component_type: 'GOLD_PLATED_ROOF', count: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message.join(' ')).toMatch(/GOLD_PLATED_ROOF is not a renovation component type/);
    for (const count of [0, -1, 0.5]) {
      const res = await api.post(`${base}/items`, { renovation_component_type: type, count });
      expect(res.statusCode, `count ${count}`).toBe(400);
      expect(res.json().message.join(' ')).toMatch(/count/);
    }
    expect((await api.post(`${base}/items`, { renovation_component_type: type })).statusCode).toBe(400);
    expect((await api.post(`${base}/items`, { renovation_component_type: type, count: 1, price: 3 })).statusCode).toBe(400);
    const item = await created(await api.post(`${base}/items`, { renovation_component_type: type, count: 1 }));
    expect((await api.patch(`${base}/items/${item.id}`, { count: 0 })).statusCode).toBe(400);
    expect((await api.patch(`${base}/items/${item.id}`, {})).statusCode).toBe(400);
    expect((await api.patch(`${base}/items/${item.id}`, { renovation_component_type: foreign })).statusCode).toBe(400);
  });

  it('answers 404 for unknown item and part ids', async () => {
    const { base, type } = scope();
    expect((await api.get(`${base}/items/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await api.patch(`${base}/items/${crypto.randomUUID()}`, { count: 2 })).statusCode).toBe(404);
    expect((await api.delete(`${base}/items/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await api.post(`/renovations/${crypto.randomUUID()}/items`, { renovation_component_type: type, count: 1 })).statusCode).toBe(
      404,
    );
    if (name !== 'general') {
      const unknownPart = base.replace(/[0-9a-f-]{36}$/, crypto.randomUUID());
      expect((await api.get(`${unknownPart}/items`)).statusCode).toBe(404);
      expect((await api.post(`${unknownPart}/items`, { renovation_component_type: type, count: 1 })).statusCode).toBe(404);
      expect((await api.get(`${unknownPart}/available-items`)).statusCode).toBe(404);
    }
  });

  it('lists the available items: roots of the scope, each with its selection tree and nothing selected', async () => {
    const { base, type } = scope();
    const res = await api.get(`${base}/available-items`);
    expect(res.statusCode).toBe(200);
    const roots = res.json() as Array<{
      root_renovation_component_type: string;
      selection_tree: Array<Record<string, { is_selected: boolean }>>;
    }>;
    expect(roots.length).toBeGreaterThan(0);
    const item = await created(await api.post(`${base}/items`, { renovation_component_type: type, count: 1 }));
    expect(roots.map((r) => r.root_renovation_component_type)).toContain(item.root_renovation_component_type);
    for (const root of roots) {
      expect(Object.keys(root.selection_tree[0]!)).toEqual([root.root_renovation_component_type]);
      expect(root.selection_tree[0]![root.root_renovation_component_type]!.is_selected).toBe(false);
    }
  });
});

describe('items and the estate', () => {
  it("an item of one room is not an item of another room, and a path's part must be the renovation estate's", async () => {
    const R = `/renovations/${renovation}`;
    const item = await created(await api.post(`${R}/rooms/${world.room_id}/items`, { renovation_component_type: 'KITCHEN', count: 1 }));
    const second = await created(
      await api.post(`/estates/${world.estate_id}/floors/${world.floor_id}/rooms`, { estate_room_type: 'BEDROOM', surface_m2: 12 }),
    );
    expect((await api.get(`${R}/rooms/${second.id}/items/${item.id}`)).statusCode).toBe(404);
    expect((await api.get(`${R}/items/${item.id}`)).statusCode).toBe(404);
    const elsewhere = await houseWithParts(api);
    expect((await api.get(`${R}/roofs/${elsewhere.roof_id}/items`)).statusCode).toBe(404);
  });

  it('offers only the roof works a flat roof can take', async () => {
    const flat = await created(await api.post(`/estates/${world.estate_id}/roofs`, { estate_roof_type: 'FLAT', surface_m2: 20 }));
    const roots = (await api.get(`/renovations/${renovation}/roofs/${flat.id}/available-items`)).json();
    const tree = JSON.stringify(roots);
    expect(tree).toContain('FLAT_ROOF_INSULATION');
    expect(tree).not.toContain('INCLINED_ROOF_INSULATION_INSIDE');
    const res = await api.post(`/renovations/${renovation}/roofs/${flat.id}/items`, {
      renovation_component_type: 'ROOF_COVERING_TILES',
      count: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message.join(' ')).toMatch(/not available for this roof/);
    const ok = await created(
      await api.post(`/renovations/${renovation}/roofs/${flat.id}/items`, { renovation_component_type: 'FLAT_ROOF_INSULATION', count: 1 }),
    );
    expect(ok.quantity).toBe(20);
  });

  it('updates the EPC indication when items change', async () => {
    const { estate_id } = await houseWithParts(api);
    const id = await newRenovation(api, estate_id);
    const before = (await api.get(`/renovations/${id}`)).json().energy_efficiency_indication;
    for (const type of ['EXTERIOR_WALL_INSULATION', 'WINDOW_REPLACEMENT_PVC_TRIPLE', 'HEAT_PUMP_AIR_WATER', 'SOLID_FLOOR_INSULATION']) {
      await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: type, count: 1 }));
    }
    const after = (await api.get(`/renovations/${id}`)).json();
    expect(after.energy_efficiency_type).toBe('EPC_FLANDERS');
    expect(after.energy_efficiency_indication).not.toBe(before);
    // Flanders' scale, best first (shared/energy/data/labels.json).
    const scale = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'];
    expect(scale.indexOf(after.energy_efficiency_indication)).toBeLessThan(scale.indexOf(before));
  });

  it('refuses items on an estate that lacks what pricing needs, naming the fields', async () => {
    const estate = await created(await api.post('/estates', { name: 'No address yet' }));
    const id = await newRenovation(api, estate.id);
    const res = await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message.join(' ')).toMatch(/address\.country.*year_built/);
    const record = (await api.get(`/renovations/${id}`)).json();
    expect(record).toMatchObject({ estimated_cost: 0, energy_efficiency_indication: null, energy_efficiency_type: null });
  });
});
