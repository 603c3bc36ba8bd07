import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import type { EstateEvent } from '@renopath/contracts';
import { activeMembers, EMPTY_ESTATE_FIELDS, estateDecider } from './estate.decider.ts';

const spec = deciderSpec(estateDecider);
const ESTATE = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';
const ROOF = '33333333-3333-4333-8333-333333333333';
const FLOOR = '44444444-4444-4444-8444-444444444444';
const ROOM = '55555555-5555-4555-8555-555555555555';
const STAIRS = '66666666-6666-4666-8666-666666666666';
const FILE = '77777777-7777-4777-8777-777777777777';
const USER = '88888888-8888-4888-8888-888888888888';
const TOKEN = 'a'.repeat(32);

const created: EstateEvent = {
  type: 'EstateCreated',
  data: {
    estate_id: ESTATE,
    organization_id: ORG,
    estate_provider_type: 'API',
    referral_token: TOKEN,
    fields: {
      ...EMPTY_ESTATE_FIELDS,
      name: 'Villa Zon',
      address: { ...EMPTY_ESTATE_FIELDS.address, zip_code: '9000', country: 'BE' },
      year_built: 1965,
    },
  },
};
const roofAdded: EstateEvent = {
  type: 'RoofAdded',
  data: {
    estate_id: ESTATE,
    roof_id: ROOF,
    fields: {
      estate_roof_type: 'INCLINED',
      surface_m2: 80,
      is_decking_present: null,
      insulation_type: null,
      name: null,
      pitch_degrees: null,
      dimensions: { height_cm: null },
    },
  },
};
const floorAdded: EstateEvent = {
  type: 'FloorAdded',
  data: {
    estate_id: ESTATE,
    floor_id: FLOOR,
    fields: {
      floor_number: 0,
      estate_floor_type: 'GROUND_FLOOR',
      name: 'Ground',
      surface_m2: 70,
      insulation_type: null,
      dimensions: { height_cm: 260 },
    },
  },
};
const roomAdded: EstateEvent = {
  type: 'RoomAdded',
  data: {
    estate_id: ESTATE,
    floor_id: FLOOR,
    room_id: ROOM,
    fields: { surface_m2: 12, estate_room_type: 'KITCHEN', name: null, window_count: null, dimensions: { height_cm: null } },
  },
};
const stairsAdded: EstateEvent = {
  type: 'StaircaseAdded',
  data: {
    estate_id: ESTATE,
    floor_id: FLOOR,
    staircase_id: STAIRS,
    fields: { estate_staircase_type: 'STRAIGHT', name: null, step_count: 14, dimensions: { height_cm: 280, width_cm: null } },
  },
};
const fileAdded: EstateEvent = {
  type: 'EstateFileAdded',
  data: { estate_id: ESTATE, file_id: FILE, kind: 'FILE', name: 'epc.pdf', mimetype: 'application/pdf', size: 10, blob_key: 'uploads/x' },
};
const memberAdded: EstateEvent = {
  type: 'EstateMemberAdded',
  data: { estate_id: ESTATE, organization_id: ORG, user_id: USER, email_address: 'b@x.example', first_name: 'B', last_name: 'Uyer' },
};
const furnished = [created, roofAdded, floorAdded, roomAdded, stairsAdded, fileAdded, memberAdded];

describe('estate decider', () => {
  it('creates an estate with every field present (unknown: null, lists: [])', () => {
    spec
      .given([])
      .when({
        type: 'CreateEstate',
        estate_id: ESTATE,
        organization_id: ORG,
        estate_provider_type: 'API',
        referral_token: TOKEN,
        fields: { name: 'Villa Zon', address: { zip_code: '9000', country: 'BE' }, year_built: 1965 },
      })
      .then([created]);
  });

  it('creates an estate with the roofs an internal caller names, in the same decision', () => {
    const ROOF2 = '7d9e8f70-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const command = {
      type: 'CreateEstate',
      estate_id: ESTATE,
      organization_id: ORG,
      estate_provider_type: 'API',
      referral_token: TOKEN,
      fields: {},
    } as const;
    const events = estateDecider.decide(
      {
        ...command,
        roofs: [
          { roof_id: ROOF, fields: { estate_roof_type: 'INCLINED', insulation_type: 'NONE' } },
          { roof_id: ROOF2, fields: { estate_roof_type: 'FLAT' } },
        ],
      },
      estateDecider.initialState(),
    );
    expect(events.map((e) => [e.type, (e.data as { roof_id?: string }).roof_id])).toEqual([
      ['EstateCreated', undefined],
      ['RoofAdded', ROOF],
      ['RoofAdded', ROOF2],
    ]);
    expect(events[1]!.data).toMatchObject({
      estate_id: ESTATE,
      fields: { estate_roof_type: 'INCLINED', insulation_type: 'NONE', surface_m2: null },
    });
    spec
      .given([])
      .when({
        ...command,
        roofs: [
          { roof_id: ROOF, fields: { estate_roof_type: 'FLAT' } },
          { roof_id: ROOF, fields: { estate_roof_type: 'INCLINED' } },
        ],
      })
      .thenFails(409);
  });

  it('refuses a second creation, and answers 404 on any change to an estate that does not exist', () => {
    spec
      .given([created])
      .when({
        type: 'CreateEstate',
        estate_id: ESTATE,
        organization_id: ORG,
        estate_provider_type: 'API',
        referral_token: TOKEN,
        fields: {},
      })
      .thenFails(409);
    spec
      .given([])
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { name: 'x' } })
      .thenFails(404, /estate not found/);
    spec
      .given([])
      .when({ type: 'AddRoof', estate_id: ESTATE, roof_id: ROOF, fields: { estate_roof_type: 'FLAT' } })
      .thenFails(404);
  });

  it('checks the postal code against the country, and the years against each other', () => {
    const create = (fields: Record<string, unknown>) =>
      spec.given([]).when({
        type: 'CreateEstate',
        estate_id: ESTATE,
        organization_id: ORG,
        estate_provider_type: 'API',
        referral_token: TOKEN,
        fields,
      });
    create({ address: { zip_code: '1234 AB', country: 'BE' } }).thenFails(
      400,
      /address\.zip_code must be a Belgian postal code \(4 digits\)/,
    );
    create({ address: { zip_code: '900', country: 'NL' } }).thenFails(400, /Dutch postal code/);
    // Portfolio data often gives a Dutch postal code's four digits only: enough to place the home.
    const numeric = { address: { ...EMPTY_ESTATE_FIELDS.address, zip_code: '3731', country: 'NL' as const } };
    create(numeric).then([
      {
        type: 'EstateCreated',
        data: {
          estate_id: ESTATE,
          organization_id: ORG,
          estate_provider_type: 'API',
          referral_token: TOKEN,
          fields: { ...EMPTY_ESTATE_FIELDS, ...numeric },
        },
      },
    ]);
    create({ address: { zip_code: 'ABC' } }).thenFails(400, /zip_code/);
    create({ year_built: 1990, year_renovated: 1980 }).thenFails(400, /year_renovated must not be before year_built/);
    create({ energy_context: { has_cavity_wall: false, cavity_wall_width: 'LESS_THAN_5_CM' } }).thenFails(400, /has_cavity_wall/);
    create({ energy_context: { basement_type: 'NONE', basement_ceiling_height: 'LOWER_THAN_120_CM' } }).thenFails(400, /basement_type/);
    // the rules apply to the estate after the change, so a PATCH can fix two fields at once
    spec
      .given([created])
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { address: { zip_code: '9000 AB' } } })
      .thenFails(400, /Belgian/);
    spec
      .given([created])
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { address: { country: 'NL', zip_code: '1012 AB' } } })
      .then([{ type: 'EstateUpdated', data: { estate_id: ESTATE, changes: { address: { zip_code: '1012 AB', country: 'NL' } } } }]);
  });

  it('records only what a PATCH changes; nested objects merge field by field; null clears', () => {
    spec
      .given([created])
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { name: 'Villa Zon', address: { country: 'BE' } } })
      .then([]);
    spec
      .given([created])
      .when({
        type: 'UpdateEstate',
        estate_id: ESTATE,
        changes: {
          name: 'Villa Maan',
          year_built: 1965,
          address: { street: 'Kerkstraat', zip_code: '9000' },
          dimensions: { width_cm: 800 },
        },
      })
      .then([
        {
          type: 'EstateUpdated',
          data: { estate_id: ESTATE, changes: { name: 'Villa Maan', address: { street: 'Kerkstraat' }, dimensions: { width_cm: 800 } } },
        },
      ]);
    // `null` for a nested object clears each of its known fields; for a list it empties it
    const furnishedAddress: EstateEvent = {
      type: 'EstateUpdated',
      data: { estate_id: ESTATE, changes: { address: { street: 'Kerkstraat' }, energy_context: { eco_facilities: ['HEAT_PUMP'] } } },
    };
    spec
      .given([created, furnishedAddress])
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { address: null, energy_context: { eco_facilities: null } } })
      .then([
        {
          type: 'EstateUpdated',
          data: {
            estate_id: ESTATE,
            changes: { address: { street: null, zip_code: null, country: null }, energy_context: { eco_facilities: [] } },
          },
        },
      ]);
    // What the update recorded is the estate's now: saying it again changes nothing.
    spec
      .given([created, furnishedAddress])
      .when({
        type: 'UpdateEstate',
        estate_id: ESTATE,
        changes: { address: { street: 'Kerkstraat', zip_code: '9000', country: 'BE' }, energy_context: { eco_facilities: ['HEAT_PUMP'] } },
      })
      .then([]);
  });

  it('adds, updates and removes a roof, naming the estate and the roof', () => {
    spec
      .given([created])
      .when({ type: 'AddRoof', estate_id: ESTATE, roof_id: ROOF, fields: { estate_roof_type: 'INCLINED', surface_m2: 80 } })
      .then([roofAdded]);
    spec
      .given([created, roofAdded])
      .when({ type: 'AddRoof', estate_id: ESTATE, roof_id: ROOF, fields: { estate_roof_type: 'FLAT' } })
      .thenFails(409);
    spec
      .given([created, roofAdded])
      .when({
        type: 'UpdateRoof',
        estate_id: ESTATE,
        roof_id: ROOF,
        changes: { surface_m2: 80, insulation_type: 'STRONG', dimensions: { height_cm: 450 } },
      })
      .then([
        {
          type: 'RoofUpdated',
          data: { estate_id: ESTATE, roof_id: ROOF, changes: { insulation_type: 'STRONG', dimensions: { height_cm: 450 } } },
        },
      ]);
    spec
      .given([created, roofAdded])
      .when({ type: 'RemoveRoof', estate_id: ESTATE, roof_id: ROOF })
      .then([{ type: 'RoofRemoved', data: { estate_id: ESTATE, roof_id: ROOF } }]);
    spec
      .given([created])
      .when({ type: 'RemoveRoof', estate_id: ESTATE, roof_id: ROOF })
      .thenFails(404, /roof not found/);
  });

  it('keeps rooms and staircases under their floor', () => {
    spec
      .given([created])
      .when({ type: 'AddRoom', estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM, fields: { estate_room_type: 'KITCHEN' } })
      .thenFails(404, /floor not found/);
    spec
      .given([created])
      .when({
        type: 'AddFloor',
        estate_id: ESTATE,
        floor_id: FLOOR,
        fields: { estate_floor_type: 'GROUND_FLOOR', floor_number: 0, name: 'Ground', surface_m2: 70, dimensions: { height_cm: 260 } },
      })
      .then([floorAdded]);
    spec
      .given([created, floorAdded])
      .when({
        type: 'AddStaircase',
        estate_id: ESTATE,
        floor_id: FLOOR,
        staircase_id: STAIRS,
        fields: { estate_staircase_type: 'STRAIGHT', step_count: 14, dimensions: { height_cm: 280 } },
      })
      .then([stairsAdded]);
    spec
      .given([created, floorAdded])
      .when({ type: 'AddRoom', estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM, fields: { estate_room_type: 'KITCHEN', surface_m2: 12 } })
      .then([roomAdded]);
    spec
      .given([created, floorAdded, roomAdded])
      .when({ type: 'UpdateRoom', estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM, changes: { surface_m2: 14 } })
      .then([{ type: 'RoomUpdated', data: { estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM, changes: { surface_m2: 14 } } }]);
    spec
      .given([created, floorAdded])
      .when({ type: 'UpdateStaircase', estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS, changes: { step_count: 3 } })
      .thenFails(404, /staircase not found/);
    spec
      .given([created, floorAdded, stairsAdded])
      .when({ type: 'UpdateStaircase', estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS, changes: { step_count: 15 } })
      .then([
        { type: 'StaircaseUpdated', data: { estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS, changes: { step_count: 15 } } },
      ]);
  });

  it('removes a floor with its rooms and staircases, each as an event, the floor last', () => {
    spec
      .given([created, floorAdded, roomAdded, stairsAdded])
      .when({ type: 'RemoveFloor', estate_id: ESTATE, floor_id: FLOOR })
      .then([
        { type: 'RoomRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM } },
        { type: 'StaircaseRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS } },
        { type: 'FloorRemoved', data: { estate_id: ESTATE, floor_id: FLOOR } },
      ]);
  });

  it('deletes an estate part by part, then the estate; nothing can change it afterwards', () => {
    spec
      .given(furnished)
      .when({ type: 'DeleteEstate', estate_id: ESTATE })
      .then([
        { type: 'RoofRemoved', data: { estate_id: ESTATE, roof_id: ROOF } },
        { type: 'RoomRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM } },
        { type: 'StaircaseRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS } },
        { type: 'FloorRemoved', data: { estate_id: ESTATE, floor_id: FLOOR } },
        { type: 'EstateFileRemoved', data: { estate_id: ESTATE, file_id: FILE, kind: 'FILE', blob_key: 'uploads/x' } },
        { type: 'EstateDeleted', data: { estate_id: ESTATE, organization_id: ORG } },
      ]);
    const deleted = [...furnished, { type: 'EstateDeleted', data: { estate_id: ESTATE, organization_id: ORG } } as EstateEvent];
    spec
      .given(deleted)
      .when({ type: 'UpdateEstate', estate_id: ESTATE, changes: { name: 'x' } })
      .thenFails(404);
    spec.given(deleted).when({ type: 'DeleteEstate', estate_id: ESTATE }).thenFails(404);
  });

  it('removes a file only under its own kind', () => {
    spec
      .given([created, fileAdded])
      .when({ type: 'RemoveFile', estate_id: ESTATE, file_id: FILE, kind: 'MEDIA' })
      .thenFails(404, /medium not found/);
    spec
      .given([created, fileAdded])
      .when({ type: 'RemoveFile', estate_id: ESTATE, file_id: FILE, kind: 'FILE' })
      .then([{ type: 'EstateFileRemoved', data: { estate_id: ESTATE, file_id: FILE, kind: 'FILE', blob_key: 'uploads/x' } }]);
  });

  it('adds members idempotently; leaving the organization removes them without error when already gone', () => {
    const add = {
      type: 'AddEstateMember' as const,
      estate_id: ESTATE,
      user_id: USER,
      email_address: 'b@x.example',
      first_name: 'B',
      last_name: 'Uyer',
      status: 'ACTIVE' as const,
    };
    spec
      .given([created])
      .when(add)
      .then([{ ...memberAdded, data: { ...memberAdded.data, status: 'ACTIVE' } }]);
    spec.given([created, memberAdded]).when(add).then([]);
    spec
      .given([created, memberAdded])
      .when({ type: 'RemoveEstateMember', estate_id: ESTATE, user_id: USER, reason: 'LEFT_ORGANIZATION' })
      .then([
        { type: 'EstateMemberRemoved', data: { estate_id: ESTATE, organization_id: ORG, user_id: USER, reason: 'LEFT_ORGANIZATION' } },
      ]);
    spec.given([created]).when({ type: 'RemoveEstateMember', estate_id: ESTATE, user_id: USER, reason: 'LEFT_ORGANIZATION' }).then([]);
    spec
      .given([created])
      .when({ type: 'RemoveEstateMember', estate_id: ESTATE, user_id: USER, reason: 'REMOVED_FROM_ESTATE' })
      .thenFails(404, /member not found/);
  });

  it('an invited member is pending until they accept; accepting (or a later add as active) starts the membership once', () => {
    const pendingAdded = { type: 'EstateMemberAdded' as const, data: { ...memberAdded.data, status: 'PENDING' as const } };
    const activated = { type: 'EstateMemberActivated' as const, data: { estate_id: ESTATE, organization_id: ORG, user_id: USER } };
    const add = {
      type: 'AddEstateMember' as const,
      estate_id: ESTATE,
      user_id: USER,
      email_address: 'b@x.example',
      first_name: 'B',
      last_name: 'Uyer',
      status: 'PENDING' as const,
    };
    spec.given([created]).when(add).then([pendingAdded]);
    spec.given([created, pendingAdded]).when(add).then([]);
    spec
      .given([created, pendingAdded])
      .when({ ...add, status: 'ACTIVE' })
      .then([activated]);
    spec.given([created, pendingAdded]).when({ type: 'ActivateEstateMember', estate_id: ESTATE, user_id: USER }).then([activated]);
    spec.given([created, pendingAdded, activated]).when({ type: 'ActivateEstateMember', estate_id: ESTATE, user_id: USER }).then([]);
    spec.given([created]).when({ type: 'ActivateEstateMember', estate_id: ESTATE, user_id: USER }).then([]);
    expect(activeMembers(fold(estateDecider, [created, pendingAdded]))).toEqual([]);
    expect(activeMembers(fold(estateDecider, [created, pendingAdded, activated]))).toEqual([USER]);
  });

  it("follows a member's new name from identity, only while they are a member", () => {
    const update = { type: 'UpdateEstateMemberDetails' as const, estate_id: ESTATE, user_id: USER, changes: { first_name: 'Bea' } };
    spec
      .given([created, memberAdded])
      .when(update)
      .then([
        {
          type: 'EstateMemberDetailsUpdated',
          data: { estate_id: ESTATE, organization_id: ORG, user_id: USER, changes: { first_name: 'Bea' } },
        },
      ]);
    spec.given([created]).when(update).then([]);
    spec
      .given([created, memberAdded])
      .when({ ...update, changes: {} })
      .then([]);
  });

  it('decides the same with an event it does not know among the given ones', () => {
    const given = [...furnished, { type: 'SomethingElse', data: {} } as unknown as EstateEvent];
    spec
      .given(given)
      .when({ type: 'DeleteEstate', estate_id: ESTATE })
      .then([
        { type: 'RoofRemoved', data: { estate_id: ESTATE, roof_id: ROOF } },
        { type: 'RoomRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, room_id: ROOM } },
        { type: 'StaircaseRemoved', data: { estate_id: ESTATE, floor_id: FLOOR, staircase_id: STAIRS } },
        { type: 'FloorRemoved', data: { estate_id: ESTATE, floor_id: FLOOR } },
        { type: 'EstateFileRemoved', data: { estate_id: ESTATE, file_id: FILE, kind: 'FILE', blob_key: 'uploads/x' } },
        { type: 'EstateDeleted', data: { estate_id: ESTATE, organization_id: ORG } },
      ]);
    spec
      .given(given)
      .when({ type: 'RemoveEstateMember', estate_id: ESTATE, user_id: USER, reason: 'LEFT_ORGANIZATION' })
      .then([
        { type: 'EstateMemberRemoved', data: { estate_id: ESTATE, organization_id: ORG, user_id: USER, reason: 'LEFT_ORGANIZATION' } },
      ]);
  });
});
