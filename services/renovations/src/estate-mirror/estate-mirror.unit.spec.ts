import { describe, expect, it } from 'vitest';
import type { EstateEvent } from '@renopath/contracts';
import { fieldsOf, ESTATE_ID, FLOOR_ID, ORG_ID, ROOF_ID, ROOM_ID } from '../renovation/testing.ts';
import { applyEstateEvent, findOnFloor, type Snapshot } from './estate-mirror.ts';

const USER = '3c2b1a09-8f7e-4d6c-9b5a-493827160504';
const fold = (events: EstateEvent[]) => events.reduce<Snapshot | null>((s, e) => applyEstateEvent(s, e), null);
const created: EstateEvent = {
  type: 'EstateCreated',
  data: {
    estate_id: ESTATE_ID,
    organization_id: ORG_ID,
    estate_provider_type: 'API',
    referral_token: 't',
    fields: fieldsOf({ year_built: 1960, address: { zip_code: '9000', country: 'BE' } }),
  },
};
const roof = {
  estate_roof_type: 'INCLINED',
  surface_m2: 80,
  is_decking_present: null,
  insulation_type: null,
  name: null,
  pitch_degrees: null,
  dimensions: { height_cm: null },
} as const;
const floor = {
  floor_number: 0,
  estate_floor_type: 'GROUND_FLOOR',
  name: null,
  surface_m2: null,
  insulation_type: null,
  dimensions: { height_cm: null },
} as const;
const room = { surface_m2: 30, estate_room_type: 'LIVING_ROOM', name: null, window_count: null, dimensions: { height_cm: null } } as const;

describe("the renovations context's copy of an estate", () => {
  it('given the estates events, holds the fields, merged edits and the parts', () => {
    const s = fold([
      created,
      { type: 'EstateUpdated', data: { estate_id: ESTATE_ID, changes: { year_built: 1970, address: { place: 'Gent' } } } },
      { type: 'RoofAdded', data: { estate_id: ESTATE_ID, roof_id: ROOF_ID, fields: roof } },
      {
        type: 'RoofUpdated',
        data: { estate_id: ESTATE_ID, roof_id: ROOF_ID, changes: { surface_m2: 95, dimensions: { height_cm: 300 } } },
      },
      { type: 'FloorAdded', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID, fields: floor } },
      { type: 'RoomAdded', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID, room_id: ROOM_ID, fields: room } },
      { type: 'RoomUpdated', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID, room_id: ROOM_ID, changes: { surface_m2: 33 } } },
    ])!;
    expect(s.fields.year_built).toBe(1970);
    expect(s.fields.address).toMatchObject({ place: 'Gent', zip_code: '9000', country: 'BE' });
    expect(s.roofs[0]).toMatchObject({ id: ROOF_ID, surface_m2: 95, dimensions: { height_cm: 300 } });
    expect(findOnFloor(s, 'rooms', ROOM_ID)?.part).toMatchObject({ surface_m2: 33 });
  });

  it('counts an estate member only once the invitation is accepted, and not after removal', () => {
    const member = {
      estate_id: ESTATE_ID,
      organization_id: ORG_ID,
      user_id: USER,
      email_address: 'b@x.example',
      first_name: 'B',
      last_name: 'X',
    };
    const pending = fold([created, { type: 'EstateMemberAdded', data: { ...member, status: 'PENDING' } }])!;
    expect(pending.members).toEqual([]);
    const active = applyEstateEvent(pending, {
      type: 'EstateMemberActivated',
      data: { estate_id: ESTATE_ID, organization_id: ORG_ID, user_id: USER },
    })!;
    expect(active.members).toEqual([USER]);
    expect(fold([created, { type: 'EstateMemberAdded', data: member }])!.members).toEqual([USER]);
    expect(
      applyEstateEvent(active, {
        type: 'EstateMemberRemoved',
        data: { estate_id: ESTATE_ID, organization_id: ORG_ID, user_id: USER, reason: 'LEFT_ORGANIZATION' },
      })!.members,
    ).toEqual([]);
  });

  it('removes a floor with its rooms, and marks a deleted estate', () => {
    const s = fold([
      created,
      { type: 'FloorAdded', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID, fields: floor } },
      { type: 'RoomAdded', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID, room_id: ROOM_ID, fields: room } },
      { type: 'FloorRemoved', data: { estate_id: ESTATE_ID, floor_id: FLOOR_ID } },
      { type: 'EstateDeleted', data: { estate_id: ESTATE_ID, organization_id: ORG_ID } },
    ])!;
    expect(findOnFloor(s, 'rooms', ROOM_ID)).toBeNull();
    expect(s.deleted).toBe(true);
  });
});
