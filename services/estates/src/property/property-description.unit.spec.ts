import { describe, expect, it } from 'vitest';
import { PropertyDescription, type CreateEstateBody } from '@renopath/contracts';
import { estateFieldsFrom } from '../estate/estate.decider.ts';
import { estateFromProperty, propertyFromEstate } from '@renopath/contracts';

type Roof = {
  estate_roof_type: 'INCLINED' | 'FLAT';
  surface_m2: number | null;
  insulation_type: 'NONE' | 'LIGHT' | 'MODERATE' | 'STRONG' | null;
};
/** An estate as a create body would make it, with its roofs. */
const estate = (body: Omit<CreateEstateBody, 'estate_provider_type'>, roofs: Roof[] = []) => ({ fields: estateFieldsFrom(body), roofs });
const REQUIRED_BODY = {
  year_built: 1975,
  estate_format: 'OPEN',
  habitable_space_m2: 150,
  address: { zip_code: '9000', country: 'BE' },
} as const;
const REQUIRED = { year_built: 1975, estate_format: 'OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' } as const;

describe('estate <-> property description', () => {
  it('needs the five required fields, zip_code and country from the address', () => {
    expect(propertyFromEstate(estate({}))).toBeNull();
    expect(propertyFromEstate(estate({ ...REQUIRED_BODY, address: { zip_code: '9000' } }))).toBeNull();
    expect(propertyFromEstate(estate(REQUIRED_BODY))).toEqual(REQUIRED);
  });

  it('reads the nested contexts under the request names: price, epc_score as energy_efficiency_score, the energy fields', () => {
    const p = propertyFromEstate(
      estate({
        ...REQUIRED_BODY,
        address: { ...REQUIRED_BODY.address, street: 'Kerkstraat', house_number: '12', house_number_extra: 'B', place: 'Gent' },
        commercial_context: { price: 385000 },
        energy_context: {
          epc_score: 412,
          heating_type: 'GAS',
          heating_device: 'CONDENSING_BOILER',
          cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
          has_cavity_wall: true,
          installation_age: 'OLDER_THAN_TEN_YEARS',
          eco_facilities: ['SOLAR_PANELS'],
        },
        ground_surface_m2: 420,
      }),
    )!;
    expect(p).toEqual({
      ...REQUIRED,
      street: 'Kerkstraat',
      house_number: '12',
      house_number_extra: 'B',
      place: 'Gent',
      price: 385000,
      energy_efficiency_score: 412,
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
      has_cavity_wall: true,
      installation_age: 'OLDER_THAN_TEN_YEARS',
      eco_facilities: ['SOLAR_PANELS'],
    });
  });

  it('converts centimetres to metres, and makes roof_type and the pane surfaces of the roofs', () => {
    const inclined = propertyFromEstate(
      estate({ ...REQUIRED_BODY, dimensions: { width_cm: 850, depth_cm: 1020, height_cm: 50 } }, [
        { estate_roof_type: 'INCLINED', surface_m2: 60, insulation_type: 'LIGHT' },
        { estate_roof_type: 'INCLINED', surface_m2: 20, insulation_type: 'STRONG' },
      ]),
    )!;
    // a cornice height under 1 m is below the model's minimum: left to the model's defaults
    expect(inclined).toEqual({
      ...REQUIRED,
      building_width: 8.5,
      building_depth: 10.2,
      roof_type: 'INCLINED',
      inclined_roof_pane_surface: 80,
      inclined_roof_insulation_type: 'LIGHT',
    });
    const mixed = propertyFromEstate(
      estate(REQUIRED_BODY, [
        { estate_roof_type: 'INCLINED', surface_m2: 60, insulation_type: null },
        { estate_roof_type: 'FLAT', surface_m2: 15, insulation_type: 'NONE' },
      ]),
    )!;
    expect(mixed).toMatchObject({
      roof_type: 'MIXED',
      inclined_roof_pane_surface: 60,
      flat_roof_pane_surface: 15,
      flat_roof_insulation_type: 'NONE',
    });
    expect(mixed.inclined_roof_insulation_type).toBeUndefined();
    expect(propertyFromEstate(estate(REQUIRED_BODY, [{ estate_roof_type: 'FLAT', surface_m2: null, insulation_type: null }]))).toEqual({
      ...REQUIRED,
      roof_type: 'FLAT',
    });
  });

  it('reads the old-style ground floor fields when the detailed ones are unknown', () => {
    const withFloor = (energy_context: NonNullable<CreateEstateBody['energy_context']>) =>
      propertyFromEstate(estate({ ...REQUIRED_BODY, energy_context }));
    expect(withFloor({ ground_floor_type: 'SOLID_GROUND_FLOOR', ground_floor_insulation_type: 'LIGHT' })).toMatchObject({
      basement_type: 'NONE',
      solid_ground_floor_insulation_type: 'LIGHT',
    });
    expect(withFloor({ ground_floor_type: 'FLOOR_ABOVE_CRAWL_SPACE', ground_floor_insulation_type: 'NONE' })).toMatchObject({
      basement_type: 'CRAWL_SPACE',
      floor_above_basement_insulation_type: 'NONE',
    });
    expect(withFloor({ ground_floor_type: 'FLOOR_ABOVE_BASEMENT', ground_floor_insulation_type: 'MODERATE' })).toMatchObject({
      basement_type: 'FULL',
      floor_above_basement_insulation_type: 'MODERATE',
    });
    expect(
      withFloor({
        ground_floor_type: 'FLOOR_ABOVE_BASEMENT',
        basement_type: 'PARTIAL',
        floor_above_basement_insulation_type: 'STRONG',
        ground_floor_insulation_type: 'NONE',
      }),
    ).toMatchObject({ basement_type: 'PARTIAL', floor_above_basement_insulation_type: 'STRONG' });
  });

  it('round-trips every field of a property description through an estate and its roofs', () => {
    const property = PropertyDescription.parse({
      ...REQUIRED,
      roof_type: 'MIXED',
      inclined_roof_pane_surface: 95,
      flat_roof_pane_surface: 20,
      inclined_roof_insulation_type: 'LIGHT',
      flat_roof_insulation_type: 'NONE',
      attic_usage: 'STORAGE',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      sanitary_heating_device: 'NOT_SEPARATED',
      installation_age: 'FIVE_TO_TEN_YEARS_OLD',
      has_solar_panels: true,
      has_solar_boiler: false,
      ground_floor_surface: 75,
      basement_type: 'PARTIAL',
      basement_ceiling_surface: 40,
      basement_ceiling_height: 'HIGHER_THAN_120_CM',
      solid_ground_floor_insulation_type: 'LIGHT',
      floor_above_basement_insulation_type: 'NONE',
      outer_wall_insulation_type: 'NONE',
      has_cavity_wall: true,
      cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
      has_cavity_wall_insulation: false,
      window_glazing_type: 'DOUBLE_GLAZING',
      window_glazing_surface: 24,
      building_width: 7.3,
      building_depth: 11.15,
      cornice_height: 6.2,
      energy_efficiency_score: 410,
      street: 'Kerkstraat',
      house_number: '12',
      house_number_extra: 'B',
      place: 'Gent',
      price: 385000,
      estate_type: 'HOUSE',
      year_renovated: 2001,
      number_of_floors: 2,
      outer_wall_surface: 160,
      ventilation_type: 'SYSTEM_C',
      solar_panels_kwp: 3.5,
      has_renewed_window_frames: true,
      air_tightness_v50: 6,
      heat_emitter_type: 'RADIATORS',
      eco_facilities: ['SOLAR_PANELS'],
    });
    // every field of the model's input is covered, so a new one cannot be forgotten here; the planner's
    // heritage and flat inputs are not held by an estate yet (a known gap: a job's estate does not keep them)
    const NOT_HELD_BY_AN_ESTATE = ['co_ownership_share', 'facade_material', 'floor_position', 'heritage_status'];
    expect(Object.keys(property).sort()).toEqual(
      Object.keys(PropertyDescription.shape)
        .filter((k) => !NOT_HELD_BY_AN_ESTATE.includes(k))
        .sort(),
    );
    const { fields, roofs } = estateFromProperty(property);
    const back = propertyFromEstate({ fields: estateFieldsFrom(fields), roofs });
    expect(back).toEqual(property);
  });
});
