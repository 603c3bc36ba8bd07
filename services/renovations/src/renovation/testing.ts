import {
  AddressRules,
  CommercialContextRules,
  DimensionsRules,
  EnergyContextRules,
  EstateOwnFieldRules,
  type EstateFieldValues,
  type ItemPlacement,
  type RenovationCommand,
  type RenovationEstateSnapshot,
} from '@renopath/contracts';

/** Test data shared by the unit specs: an estate snapshot with every field unknown but what a test gives. */
const nulls = (shape: Record<string, unknown>): any => Object.fromEntries(Object.keys(shape).map((k) => [k, null]));

export const ESTATE_ID = '7a1e3f52-59c5-4d6b-9c53-5d1f1b7a0c01';
export const ORG_ID = '0b8e2f0e-3b7d-4b8c-8d0e-2f6c1a9e4d11';
export const ROOF_ID = '4f3c2b1a-0e9d-4c8b-a7f6-5e4d3c2b1a00';
export const FLOOR_ID = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
export const ROOM_ID = '6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e';

export function fieldsOf(
  overrides: { address?: Partial<EstateFieldValues['address']>; energy_context?: Partial<EstateFieldValues['energy_context']> } & Partial<
    Omit<EstateFieldValues, 'address' | 'energy_context'>
  > = {},
): EstateFieldValues {
  const { address, energy_context, ...own } = overrides;
  return {
    ...(nulls(EstateOwnFieldRules) as object),
    ...own,
    address: { ...(nulls(AddressRules) as EstateFieldValues['address']), ...address },
    commercial_context: nulls(CommercialContextRules) as EstateFieldValues['commercial_context'],
    energy_context: { ...(nulls(EnergyContextRules) as EstateFieldValues['energy_context']), eco_facilities: [], ...energy_context },
    dimensions: nulls(DimensionsRules) as EstateFieldValues['dimensions'],
  } as EstateFieldValues;
}

/** A 1960 semi-detached house in Gent (Flanders) with an 80 m2 inclined roof and a 30 m2 living room. */
export function flemishHouse(overrides: Partial<RenovationEstateSnapshot> = {}): RenovationEstateSnapshot {
  return {
    estate_id: ESTATE_ID,
    organization_id: ORG_ID,
    fields: fieldsOf({
      address: { zip_code: '9000', country: 'BE', place: 'Gent' },
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 140,
      energy_context: { heating_type: 'GAS', outer_wall_surface: 120 },
    }),
    roofs: [
      {
        id: ROOF_ID,
        estate_roof_type: 'INCLINED',
        surface_m2: 80,
        is_decking_present: null,
        insulation_type: 'NONE',
        name: null,
        pitch_degrees: null,
        dimensions: { height_cm: null },
      },
    ],
    floors: [
      {
        id: FLOOR_ID,
        floor_number: 0,
        estate_floor_type: 'GROUND_FLOOR',
        name: null,
        surface_m2: null,
        insulation_type: null,
        dimensions: { height_cm: null },
        rooms: [
          { id: ROOM_ID, surface_m2: 30, estate_room_type: 'LIVING_ROOM', name: null, window_count: null, dimensions: { height_cm: null } },
        ],
        staircases: [],
      },
    ],
    members: [],
    deleted: false,
    ...overrides,
  };
}

const none = { roof_id: null, floor_id: null, room_id: null, staircase_id: null };
export const GENERAL: ItemPlacement = { ...none, scope: 'GENERAL' };
export const ON_ROOF: ItemPlacement = { ...none, scope: 'ROOF', roof_id: ROOF_ID };
export const IN_ROOM: ItemPlacement = { ...none, scope: 'ROOM', room_id: ROOM_ID, floor_id: FLOOR_ID };

/**
 * A renovation made from a two-step trajectory on `estate`: the exterior walls (step 1, `walls` m2)
 * and the inclined roof from inside on ON_ROOF (step 2, 75.5 m2), the plan's own quantities.
 */
export function twoStepTrajectory(
  ids: { renovation_id: string; calculation_job_id: string; walls: string; roof: string },
  estate: RenovationEstateSnapshot,
  year: number,
  walls = 143.96,
): Extract<RenovationCommand, { type: 'CreateRenovationFromTrajectory' }> {
  return {
    type: 'CreateRenovationFromTrajectory',
    renovation_id: ids.renovation_id,
    renovation_name: 'Plan',
    calculation_job_id: ids.calculation_job_id,
    income_category: null,
    estate,
    year,
    items: [
      { item_id: ids.walls, renovation_component_type: 'EXTERIOR_WALL_INSULATION', placement: GENERAL, count: 1, quantity: walls, step: 1 },
      {
        item_id: ids.roof,
        renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE',
        placement: ON_ROOF,
        count: 1,
        quantity: 75.5,
        step: 2,
      },
    ],
  };
}
