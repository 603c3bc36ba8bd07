import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@renopath/platform';
import { embeddedOnly, startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;
let audit: string;
let estateId: string;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
  audit = await stack.clientToken(stack.bootstrap.user_id, ['estates', 'audit']);
  const res = await stack.as(owner).post('/estates', {
    name: 'With parts',
    address: { zip_code: '2000', country: 'BE' },
    year_built: 1950,
    estate_format: 'CLOSED',
    habitable_space_m2: 120,
  });
  estateId = res.json().id;
});
afterAll(async () => stack?.close());

const E = () => `/estates/${estateId}`;
const history = async () =>
  (await stack.as(audit).get(`/v1${E()}/history`)).json() as Array<{ type: string; data: Record<string, unknown> }>;

describe('roofs (docs/http-contract.md "Estates and their parts")', () => {
  it('full CRUD with the body of the interface, each answer readable by the next request', async () => {
    // The interface's roof body: dimensions.height_cm, estate_roof_type, surface_m2, is_decking_present, insulation_type
    const body = {
      dimensions: { height_cm: 450 },
      estate_roof_type: 'INCLINED',
      surface_m2: 85,
      is_decking_present: true,
      insulation_type: 'NONE',
    };
    const created = await stack.as(owner).post(`${E()}/roofs`, { ...body, name: 'Main roof' });
    expect(created.statusCode).toBe(201);
    const roof = created.json();
    expect(roof).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ...body,
      estate_id: estateId,
      name: 'Main roof',
      pitch_degrees: null,
      created_at: expect.stringMatching(ISO_MS_Z),
      updated_at: expect.stringMatching(ISO_MS_Z),
    });
    expect((await stack.as(owner).get(`${E()}/roofs/${roof.id}`)).json()).toEqual(roof);
    expect((await stack.as(owner).get(`${E()}/roofs`)).json()).toEqual([roof]);
    expect((await stack.as(owner).get(E())).json().roofs).toEqual([roof]);

    const patched = await stack.as(owner).patch(`${E()}/roofs/${roof.id}`, {
      insulation_type: 'STRONG',
      is_decking_present: false,
      pitch_degrees: 35,
      dimensions: { height_cm: 470 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({
      ...roof,
      insulation_type: 'STRONG',
      is_decking_present: false,
      pitch_degrees: 35,
      dimensions: { height_cm: 470 },
      updated_at: expect.any(String),
    });
    expect((await stack.as(owner).get(`${E()}/roofs/${roof.id}`)).json()).toEqual(patched.json());
    expect((await history()).at(-1)).toEqual(
      expect.objectContaining({
        type: 'RoofUpdated',
        data: {
          estate_id: estateId,
          roof_id: roof.id,
          changes: { is_decking_present: false, insulation_type: 'STRONG', pitch_degrees: 35, dimensions: { height_cm: 470 } },
        },
      }),
    );
    // the roofs are the energy model's roof: the estate's label is graded with them
    expect((await stack.as(owner).get(E())).json().roofs).toEqual([patched.json()]);

    const removed = await stack.as(owner).delete(`${E()}/roofs/${roof.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual(patched.json());
    expect((await stack.as(owner).get(`${E()}/roofs/${roof.id}`)).statusCode).toBe(404);
    expect((await stack.as(owner).get(`${E()}/roofs`)).json()).toEqual([]);
    expect((await history()).at(-1)).toEqual(
      expect.objectContaining({ type: 'RoofRemoved', data: { estate_id: estateId, roof_id: roof.id } }),
    );
  });

  it('validates the body: required type, enums, numbers, unknown and non-editable fields', async () => {
    const cases: Array<[string, 'POST' | 'PATCH', Record<string, unknown>, RegExp]> = [
      ['', 'POST', {}, /estate_roof_type is required/],
      ['', 'POST', { estate_roof_type: 'DOME' }, /estate_roof_type must be one of "INCLINED", "FLAT"/],
      ['', 'POST', { estate_roof_type: 'FLAT', surface_m2: 0 }, /surface_m2 must be > 0/],
      ['', 'POST', { estate_roof_type: 'FLAT', pitch_degrees: 91 }, /pitch_degrees must be <= 90/],
      ['', 'POST', { estate_roof_type: 'FLAT', insulation_type: 'THICK' }, /insulation_type must be one of/],
      ['', 'POST', { estate_roof_type: 'FLAT', is_decking_present: 'yes' }, /is_decking_present must be a boolean/],
      ['', 'POST', { estate_roof_type: 'FLAT', dimensions: { height_cm: 0 } }, /dimensions\.height_cm must be >= 1/],
      ['', 'POST', { estate_roof_type: 'FLAT', height_cm: 300 }, /^height_cm is not an allowed field$/],
      ['', 'POST', { estate_roof_type: 'MIXED' }, /estate_roof_type must be one of "INCLINED", "FLAT"/],
      ['', 'POST', { estate_roof_type: 'FLAT', colour: 'red' }, /colour is not an allowed field/],
      ['', 'POST', { estate_roof_type: 'FLAT', id: UNKNOWN }, /id is not editable/],
    ];
    for (const [, method, body, message] of cases) {
      const res = await stack.app.inject({ method, url: `${E()}/roofs`, headers: { authorization: `Bearer ${owner}` }, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message.join(' | ')).toMatch(message);
    }
    const roof = (await stack.as(owner).post(`${E()}/roofs`, { estate_roof_type: 'FLAT' })).json();
    for (const field of ['id', 'estate_id', 'created_at', 'updated_at']) {
      const res = await stack.as(owner).patch(`${E()}/roofs/${roof.id}`, { [field]: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual([`${field} is not editable`]);
    }
    expect((await stack.as(owner).patch(`${E()}/roofs/${roof.id}`, {})).statusCode).toBe(400);
    expect((await stack.as(owner).patch(`${E()}/roofs/${UNKNOWN}`, { name: 'x' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: ['roof not found'],
    });
    expect((await stack.as(owner).delete(`${E()}/roofs/${UNKNOWN}`)).statusCode).toBe(404);
    expect((await stack.as(owner).get(`${E()}/roofs/nope`)).statusCode).toBe(404);
  });
});

describe('floors, rooms and staircases (docs/http-contract.md "Estates and their parts")', () => {
  it('full CRUD of floors, rooms under floors and staircases under floors', async () => {
    // The interface's floor body: dimensions.height_cm, floor_number, estate_floor_type
    const floorRes = await stack
      .as(owner)
      .post(`${E()}/floors`, { dimensions: { height_cm: 260 }, floor_number: 0, estate_floor_type: 'GROUND_FLOOR', surface_m2: 60 });
    expect(floorRes.statusCode).toBe(201);
    const floor = floorRes.json();
    expect(floor).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      dimensions: { height_cm: 260 },
      floor_number: 0,
      estate_floor_type: 'GROUND_FLOOR',
      estate_id: estateId,
      name: null,
      surface_m2: 60,
      insulation_type: null,
      rooms: [],
      staircases: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const F = `${E()}/floors/${floor.id}`;

    // The interface's room body: surface_m2, estate_room_type
    const roomRes = await stack.as(owner).post(`${F}/rooms`, { surface_m2: 14.5, estate_room_type: 'KITCHEN', window_count: 2 });
    expect(roomRes.statusCode).toBe(201);
    const room = roomRes.json();
    expect(room).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      surface_m2: 14.5,
      estate_room_type: 'KITCHEN',
      estate_id: estateId,
      floor_id: floor.id,
      name: null,
      window_count: 2,
      dimensions: { height_cm: null },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await stack.as(owner).get(`${F}/rooms/${room.id}`)).json()).toEqual(room);
    expect((await stack.as(owner).get(`${F}/rooms`)).json()).toEqual([room]);
    const roomPatched = await stack.as(owner).patch(`${F}/rooms/${room.id}`, { estate_room_type: 'DINING_ROOM', name: 'Eetkamer' });
    expect(roomPatched.json()).toMatchObject({ id: room.id, estate_room_type: 'DINING_ROOM', name: 'Eetkamer' });

    // The interface's staircase body: dimensions.height_cm, estate_staircase_type
    const stairsRes = await stack
      .as(owner)
      .post(`${F}/staircases`, { dimensions: { height_cm: 270, width_cm: 90 }, estate_staircase_type: 'QUARTER_TURN', step_count: 15 });
    expect(stairsRes.statusCode).toBe(201);
    const stairs = stairsRes.json();
    expect(stairs).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      dimensions: { height_cm: 270, width_cm: 90 },
      estate_staircase_type: 'QUARTER_TURN',
      estate_id: estateId,
      floor_id: floor.id,
      name: null,
      step_count: 15,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await stack.as(owner).get(`${F}/staircases/${stairs.id}`)).json()).toEqual(stairs);
    const stairsPatched = await stack.as(owner).patch(`${F}/staircases/${stairs.id}`, { step_count: 16, dimensions: { height_cm: 280 } });
    expect(stairsPatched.json()).toMatchObject({ step_count: 16, dimensions: { height_cm: 280, width_cm: 90 } });

    const withParts = (await stack.as(owner).get(F)).json();
    expect(withParts.rooms).toEqual([roomPatched.json()]);
    expect(withParts.staircases).toEqual([stairsPatched.json()]);
    expect((await stack.as(owner).get(`${E()}/floors`)).json()).toEqual([withParts]);
    const floorPatched = await stack
      .as(owner)
      .patch(F, { name: 'Gelijkvloers', insulation_type: 'MODERATE', floor_number: 1, dimensions: { height_cm: 255 } });
    expect(floorPatched.json()).toMatchObject({
      name: 'Gelijkvloers',
      insulation_type: 'MODERATE',
      floor_number: 1,
      dimensions: { height_cm: 255 },
      rooms: [roomPatched.json()],
    });

    expect((await stack.as(owner).delete(`${F}/rooms/${room.id}`)).json()).toEqual(roomPatched.json());
    expect((await stack.as(owner).get(`${F}/rooms/${room.id}`)).statusCode).toBe(404);
    expect((await stack.as(owner).delete(`${F}/staircases/${stairs.id}`)).json()).toEqual(stairsPatched.json());
    expect((await stack.as(owner).get(`${F}/staircases`)).json()).toEqual([]);
    const removed = await stack.as(owner).delete(F);
    expect(removed.statusCode).toBe(200);
    expect((await stack.as(owner).get(F)).statusCode).toBe(404);
  });

  it('deleting a floor removes its rooms and staircases, each as an event naming the part and the estate', async () => {
    const floor = (await stack.as(owner).post(`${E()}/floors`, { estate_floor_type: 'UPPER_FLOOR' })).json();
    const F = `${E()}/floors/${floor.id}`;
    const r1 = (await stack.as(owner).post(`${F}/rooms`, { estate_room_type: 'BEDROOM' })).json();
    const r2 = (await stack.as(owner).post(`${F}/rooms`, { estate_room_type: 'BATHROOM' })).json();
    const s1 = (await stack.as(owner).post(`${F}/staircases`, { estate_staircase_type: 'SPIRAL' })).json();
    const before = (await history()).length;
    expect((await stack.as(owner).delete(F)).statusCode).toBe(200);
    const events = (await history()).slice(before);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['RoomRemoved', { estate_id: estateId, floor_id: floor.id, room_id: r1.id }],
      ['RoomRemoved', { estate_id: estateId, floor_id: floor.id, room_id: r2.id }],
      ['StaircaseRemoved', { estate_id: estateId, floor_id: floor.id, staircase_id: s1.id }],
      ['FloorRemoved', { estate_id: estateId, floor_id: floor.id }],
    ]);
    expect((await stack.as(owner).get(`${F}/rooms/${r1.id}`)).statusCode).toBe(404);
    expect((await stack.as(owner).get(`${E()}/floors`)).json().map((f: { id: string }) => f.id)).not.toContain(floor.id);
  });

  it('answers 404 for rooms of an unknown floor and 400 for invalid rooms and staircases', async () => {
    expect((await stack.as(owner).post(`${E()}/floors/${UNKNOWN}/rooms`, { estate_room_type: 'HALL' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: ['floor not found'],
    });
    expect((await stack.as(owner).get(`${E()}/floors/${UNKNOWN}/staircases`)).statusCode).toBe(404);
    const floor = (await stack.as(owner).post(`${E()}/floors`, { estate_floor_type: 'ATTIC' })).json();
    const F = `${E()}/floors/${floor.id}`;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['rooms', { estate_room_type: 'BALLROOM' }, /estate_room_type must be one of/],
      ['rooms', { estate_room_type: 'HALL', window_count: -1 }, /window_count must be >= 0/],
      ['rooms', { estate_room_type: 'HALL', surface_m2: -3 }, /surface_m2 must be > 0/],
      ['rooms', { estate_room_type: 'HALL', floor_id: UNKNOWN }, /floor_id is not editable/],
      ['staircases', { estate_staircase_type: 'ESCALATOR' }, /estate_staircase_type must be one of/],
      ['staircases', { estate_staircase_type: 'STRAIGHT', step_count: 0 }, /step_count must be >= 1/],
      ['staircases', { estate_staircase_type: 'STRAIGHT', dimensions: { width_cm: 'wide' } }, /dimensions\.width_cm must be a number/],
      ['staircases', { estate_staircase_type: 'STRAIGHT', dimensions: { depth_cm: 10 } }, /dimensions\.depth_cm is not an allowed field/],
      ['../floors', { estate_floor_type: 'ROOFTOP' }, /estate_floor_type must be one of/],
      ['../floors', { estate_floor_type: 'BASEMENT', floor_number: -6 }, /floor_number must be >= -5/],
      ['../floors', { estate_floor_type: 'UPPER_FLOOR', floor_number: 1.5 }, /floor_number must be an integer/],
      ['../floors', { estate_floor_type: 'BASEMENT', rooms: [] }, /rooms is not editable/],
    ];
    for (const [collection, body, message] of cases) {
      const url = collection.startsWith('..') ? `${E()}/floors` : `${F}/${collection}`;
      const res = await stack.as(owner).post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message.join(' | ')).toMatch(message);
    }
    const room = (await stack.as(owner).post(`${F}/rooms`, { estate_room_type: 'HALL' })).json();
    const patch = await stack.as(owner).patch(`${F}/rooms/${room.id}`, { floor_id: UNKNOWN });
    expect(patch.json().message).toEqual(['floor_id is not editable']);
    const patchFloor = await stack.as(owner).patch(F, { staircases: [] });
    expect(patchFloor.json().message).toEqual(['staircases is not editable']);
    // a room is found only under its own floor
    const otherFloor = (await stack.as(owner).post(`${E()}/floors`, { estate_floor_type: 'BASEMENT', floor_number: -1 })).json();
    expect(otherFloor.floor_number).toBe(-1);
    expect((await stack.as(owner).get(`${E()}/floors/${otherFloor.id}/rooms/${room.id}`)).json().message).toEqual(['room not found']);
  });

  it('deleting the estate removes every part as its own event, then the estate', async () => {
    const estate = (await stack.as(owner).post('/estates', { name: 'Short-lived' })).json();
    const X = `/estates/${estate.id}`;
    const roof = (await stack.as(owner).post(`${X}/roofs`, { estate_roof_type: 'FLAT' })).json();
    const floor = (await stack.as(owner).post(`${X}/floors`, { estate_floor_type: 'GROUND_FLOOR' })).json();
    const room = (await stack.as(owner).post(`${X}/floors/${floor.id}/rooms`, { estate_room_type: 'OFFICE' })).json();
    expect((await stack.as(owner).delete(X)).statusCode).toBe(200);
    const events = ((await stack.as(audit).get(`/v1${X}/history`)).json() as Array<{ type: string; data: Record<string, unknown> }>).slice(
      -4,
    );
    expect(events.map((e) => e.type)).toEqual(['RoofRemoved', 'RoomRemoved', 'FloorRemoved', 'EstateDeleted']);
    expect(events[0]!.data).toEqual({ estate_id: estate.id, roof_id: roof.id });
    expect(events[1]!.data).toEqual({ estate_id: estate.id, floor_id: floor.id, room_id: room.id });
    expect((await stack.as(owner).get(`${X}/roofs`)).statusCode).toBe(404);
  });
});

describe.skipIf(embeddedOnly('stack.running.bus'))('estate events on the bus (docs/architecture.md: evt.<context>.<EventType>)', () => {
  it('publishes part events naming the part and the estate, for the renovations context to cascade', async () => {
    const seen: EventEnvelope[] = [];
    const consumer = await stack.running.bus.consume('test-estates-events', { subjects: ['evt.estates.>'] }, async (event) => {
      seen.push(event);
    });
    try {
      const roof = (await stack.as(owner).post(`${E()}/roofs`, { estate_roof_type: 'FLAT', surface_m2: 40 })).json();
      await stack.as(owner).patch(`${E()}/roofs/${roof.id}`, { surface_m2: 42 });
      await stack.as(owner).delete(`${E()}/roofs/${roof.id}`);
      // the relay publishes after the answer: wait for it (at-least-once delivery, not a timing assertion)
      for (let i = 0; i < 200 && !seen.some((e) => e.type === 'RoofRemoved' && e.data['roof_id'] === roof.id); i++)
        await new Promise((r) => setTimeout(r, 10));
      const mine = seen.filter((e) => e.data['roof_id'] === roof.id);
      expect(mine.map((e) => e.type)).toEqual(['RoofAdded', 'RoofUpdated', 'RoofRemoved']);
      expect(mine[1]).toMatchObject({
        stream: `estate-${estateId}`,
        data: { estate_id: estateId, roof_id: roof.id, changes: { surface_m2: 42 } },
      });
      expect(mine[1]!.metadata.actor.user_id).toBe(stack.bootstrap.user_id);
    } finally {
      await consumer.close();
    }
  });
});
