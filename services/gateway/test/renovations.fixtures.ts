import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Stack } from './stack.ts';

/** Shared set-up of the renovation suites: an estate with parts, built over HTTP as a client would. */

/** A 1960 semi-detached house in Gent (postal code 9000: Flanders). */
export const FLEMISH_1960_HOUSE = {
  address: { street: 'Kouter', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' },
  year_built: 1960,
  estate_type: 'HOUSE',
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  energy_context: { heating_type: 'GAS', heating_device: 'NON_CONDENSING_BOILER', outer_wall_surface: 120, window_glazing_surface: 18 },
};

export type Api = ReturnType<Stack['as']>;

export async function created(res: { statusCode: number; body: string; json(): unknown }, status = 201) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json() as Record<string, any>;
}

/** An estate with an inclined roof, a floor with a room and a staircase; each id returned. */
export async function houseWithParts(api: Api, fields: object = FLEMISH_1960_HOUSE) {
  const estate = await created(await api.post('/estates', fields));
  const E = `/estates/${estate.id}`;
  const roof = await created(await api.post(`${E}/roofs`, { estate_roof_type: 'INCLINED', surface_m2: 80, insulation_type: 'NONE' }));
  const floor = await created(await api.post(`${E}/floors`, { estate_floor_type: 'GROUND_FLOOR', floor_number: 0 }));
  const room = await created(await api.post(`${E}/floors/${floor.id}/rooms`, { estate_room_type: 'LIVING_ROOM', surface_m2: 30 }));
  const staircase = await created(await api.post(`${E}/floors/${floor.id}/staircases`, { estate_staircase_type: 'STRAIGHT' }));
  return {
    estate_id: estate.id as string,
    roof_id: roof.id as string,
    floor_id: floor.id as string,
    room_id: room.id as string,
    staircase_id: staircase.id as string,
  };
}

export async function newRenovation(api: Api, estate_id: string, extra: object = {}) {
  return (await created(await api.post('/renovations', { estate_id, ...extra }))).id as string;
}

const round2 = (x: number) => Math.round((x + Number.EPSILON) * 100) / 100;
export const sum = (xs: number[]) => round2(xs.reduce((a, b) => a + b, 0));

/** The catalogue's data files (shared/catalog/data), read as the tests' source of expected figures. */
export function catalogueData<T = any>(file: string): T {
  return JSON.parse(readFileSync(new URL(`../../../shared/catalog/data/${file}`, import.meta.url), 'utf8')) as T;
}

/** A grant row of a region's grants file, by id. */
export function grantRow(region: 'flanders' | 'wallonia' | 'brussels' | 'netherlands', id: string) {
  const row = catalogueData<{ rules: Array<Record<string, any>> }>(`grants/${region}.json`).rules.find((r) => r.id === id);
  expect(row, `grants/${region}.json has no row ${id}`).toBeDefined();
  return row!;
}

/** A VAT rate of vat-rules.json, by id. */
export function vatRate(id: string): number {
  const row = catalogueData<{ rates: Array<{ id: string; rate: number }> }>('vat-rules.json').rates.find((r) => r.id === id);
  expect(row, `vat-rules.json has no rate ${id}`).toBeDefined();
  return row!.rate;
}

/** Every item of an overview (client and derived), v1 form. */
export function overviewItems(overview: any): any[] {
  const d = overview.details;
  return [
    ...d.general,
    ...d.roofs.flatMap((r: any) => r.items),
    ...d.rooms.flatMap((r: any) => r.items),
    ...d.staircases.flatMap((s: any) => s.items),
    ...d.derived,
  ];
}

/** What the cascade scenarios need of a client: inject in-process, or fetch against a gateway over NATS. */
export interface Client {
  get(url: string): Promise<{ statusCode: number; body: string; json(): any; headers: Record<string, unknown> }>;
  post(url: string, payload: unknown): Promise<{ statusCode: number; body: string; json(): any; headers: Record<string, unknown> }>;
  patch(url: string, payload: unknown): Promise<{ statusCode: number; body: string; json(): any; headers: Record<string, unknown> }>;
  delete(url: string): Promise<{ statusCode: number; body: string; json(): any; headers: Record<string, unknown> }>;
}

/** A fetch-based client for a gateway at `base` (the distributed test). */
export function fetchClient(base: string, token: string): Client {
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
    });
    const body = await res.text();
    return { statusCode: res.status, body, json: () => JSON.parse(body), headers: Object.fromEntries(res.headers) };
  };
  return {
    get: (u) => call('GET', u),
    post: (u, p) => call('POST', u, p),
    patch: (u, p) => call('PATCH', u, p),
    delete: (u) => call('DELETE', u),
  };
}

/** A write whose effects in every context are readable: 2xx and not marked unsettled (README, read-your-writes). */
async function settled(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect(res.statusCode, res.body).toBeLessThan(300);
  expect(res.headers['x-renopath-settled']).toBeUndefined();
}

/**
 * The cascades from estates to renovations (docs/http-contract.md "Estates and their parts"), each asserted on the very next read after
 * the estate write's answer: part edits move the linked items' quantities and figures, removals take
 * the items along, a deleted estate deletes its renovations.
 */
export function cascadeScenarios(client: () => Client): Record<string, () => Promise<void>> {
  const setup = async () => {
    const api = client();
    const parts = await houseWithParts(api as Api);
    const renovation = await newRenovation(api as Api, parts.estate_id);
    const R = `/renovations/${renovation}`;
    const roofItem = await created(
      await api.post(`${R}/roofs/${parts.roof_id}/items`, { renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE', count: 1 }),
    );
    const roomItem = await created(
      await api.post(`${R}/rooms/${parts.room_id}/items`, { renovation_component_type: 'FLOORING_PARQUET', count: 1 }),
    );
    const stairItem = await created(
      await api.post(`${R}/staircases/${parts.staircase_id}/items`, { renovation_component_type: 'STAIRCASE_REPLACEMENT_WOOD', count: 1 }),
    );
    const generalItem = await created(await api.post(`${R}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    const E = `/estates/${parts.estate_id}`;
    const F = `${E}/floors/${parts.floor_id}`;
    return { api, parts, R, E, F, roofItem, roomItem, stairItem, generalItem };
  };
  const totalsMatch = async (api: Client, R: string) => {
    const overview = (await api.get(`/v1${R}/overview`)).json();
    const all = overviewItems(overview);
    expect(overview.summary.total_estimated_cost).toBe(sum(all.map((i) => i.estimated_cost)));
    return overview;
  };
  return {
    'a roof edit moves the quantity and cost of its items': async () => {
      const { api, parts, R, E, roofItem } = await setup();
      await settled(await api.patch(`${E}/roofs/${parts.roof_id}`, { surface_m2: 100 }));
      const after = (await api.get(`${R}/roofs/${parts.roof_id}/items/${roofItem.id}`)).json();
      expect(after.quantity).toBe(100);
      // The unit cost times the new surface, rounded to cents once (so within a cent of the scaled old cost).
      expect(Math.abs(after.estimated_cost - (roofItem.estimated_cost * 100) / 80)).toBeLessThan(0.02);
      await totalsMatch(api, R);
    },
    'a room edit moves the quantity and cost of its items': async () => {
      const { api, parts, R, F, roomItem } = await setup();
      await settled(await api.patch(`${F}/rooms/${parts.room_id}`, { surface_m2: 45 }));
      const after = (await api.get(`${R}/rooms/${parts.room_id}/items/${roomItem.id}`)).json();
      expect(after.quantity).toBe(45);
      expect(Math.abs(after.estimated_cost - (roomItem.estimated_cost * 45) / 30)).toBeLessThan(0.02);
      const overview = await totalsMatch(api, R);
      expect(overview.details.rooms[0]).toMatchObject({ room_id: parts.room_id, estate_room_type: 'LIVING_ROOM' });
      await settled(await api.patch(`${F}/rooms/${parts.room_id}`, { estate_room_type: 'KITCHEN' }));
      expect((await api.get(`/v1${R}/overview`)).json().details.rooms[0].estate_room_type).toBe('KITCHEN');
    },
    'a staircase edit keeps its items, priced for the staircase as it is now': async () => {
      const { api, parts, R, F, stairItem } = await setup();
      await settled(
        await api.patch(`${F}/staircases/${parts.staircase_id}`, { estate_staircase_type: 'SPIRAL', dimensions: { width_cm: 90 } }),
      );
      const after = await api.get(`${R}/staircases/${parts.staircase_id}/items/${stairItem.id}`);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({
        renovation_component_type: 'STAIRCASE_REPLACEMENT_WOOD',
        estimated_cost: stairItem.estimated_cost,
      });
      await totalsMatch(api, R);
    },
    'an estate edit reprices every item (a dwelling younger than 10 years pays 21% VAT)': async () => {
      const { api, R, E, generalItem } = await setup();
      await settled(await api.patch(E, { year_built: new Date().getUTCFullYear() - 2 }));
      const after = (await api.get(`${R}/items/${generalItem.id}`)).json();
      expect(after.vat_rate).toBe(vatRate('BE_21'));
      expect(after.sources.vat_case).not.toBe(generalItem.sources.vat_case);
      await totalsMatch(api, R);
    },
    'deleting a roof removes its items': async () => {
      const { api, parts, R, E, roofItem, generalItem } = await setup();
      await settled(await api.delete(`${E}/roofs/${parts.roof_id}`));
      expect((await api.get(`${R}/roofs/${parts.roof_id}/items`)).statusCode).toBe(404);
      const overview = await totalsMatch(api, R);
      const ids = overviewItems(overview).map((i) => i.id);
      expect(ids).not.toContain(roofItem.id);
      expect(ids).toContain(generalItem.id);
      expect(overview.details.roofs).toEqual([]);
    },
    'deleting a room removes its items': async () => {
      const { api, parts, R, F, roomItem } = await setup();
      await settled(await api.delete(`${F}/rooms/${parts.room_id}`));
      const overview = await totalsMatch(api, R);
      expect(overviewItems(overview).map((i) => i.id)).not.toContain(roomItem.id);
      expect(overview.details.rooms).toEqual([]);
    },
    'deleting a staircase removes its items': async () => {
      const { api, parts, R, F, stairItem } = await setup();
      await settled(await api.delete(`${F}/staircases/${parts.staircase_id}`));
      const overview = await totalsMatch(api, R);
      expect(overviewItems(overview).map((i) => i.id)).not.toContain(stairItem.id);
      expect(overview.details.staircases).toEqual([]);
      // The wooden staircase was the only structural work: its architect goes with it.
      expect(overview.details.derived.map((d: { renovation_component_type: string }) => d.renovation_component_type)).not.toContain(
        'ARCHITECT',
      );
    },
    "deleting a floor removes its rooms' and staircases' items": async () => {
      const { api, R, F, roomItem, stairItem, roofItem } = await setup();
      await settled(await api.delete(F));
      const overview = await totalsMatch(api, R);
      const ids = overviewItems(overview).map((i) => i.id);
      expect(ids).not.toContain(roomItem.id);
      expect(ids).not.toContain(stairItem.id);
      expect(ids).toContain(roofItem.id);
    },
    'deleting an estate deletes its renovations': async () => {
      const { api, R, E } = await setup();
      const id = R.split('/').pop()!;
      await settled(await api.delete(E));
      expect((await api.get(R)).statusCode).toBe(404);
      const search = (await api.get('/v1/renovations?include_deleted=true&page_size=100')).json();
      const entry = search.data.find((e: { renovation_id: string }) => e.renovation_id === id);
      expect(entry.renovation_deleted_at).not.toBeNull();
      expect(
        (await api.get('/v1/renovations?page_size=100')).json().data.map((e: { renovation_id: string }) => e.renovation_id),
      ).not.toContain(id);
    },
  };
}
