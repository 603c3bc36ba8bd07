import { describe, expect, it } from 'vitest';
import { PropertyDescription, type EstateFieldValues } from '@renopath/contracts';
import { EMPTY_ESTATE_FIELDS, estateFieldsFrom } from '../estate/estate.decider.ts';
import { estateFromProperty, propertyFromEstate } from './property-description.ts';

const estate = (fields: Partial<EstateFieldValues>, roofs: Array<{ estate_roof_type: 'INCLINED' | 'FLAT'; surface_m2: number | null; insulation_type: 'NONE' | 'LIGHT' | 'MODERATE' | 'STRONG' | null }> = []) => ({
  fields: { ...EMPTY_ESTATE_FIELDS, ...fields },
  roofs,
});
const REQUIRED = { year_built: 1975, estate_format: 'OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' } as const;

describe('estate <-> property description', () => {
  it('needs the five required fields', () => {
    expect(propertyFromEstate(estate({}))).toBeNull();
    expect(propertyFromEstate(estate({ ...REQUIRED, country: null }))).toBeNull();
    expect(propertyFromEstate(estate(REQUIRED))).toEqual(REQUIRED);
  });

  it('converts centimetres to metres, sums the roofs of the estate roof type and takes the largest insulated one', () => {
    const p = propertyFromEstate(
      estate({ ...REQUIRED, estate_roof_type: 'INCLINED', dimensions: { width_cm: 850, depth_cm: 1020, cornice_height_cm: 50 } }, [
        { estate_roof_type: 'INCLINED', surface_m2: 60, insulation_type: 'LIGHT' },
        { estate_roof_type: 'INCLINED', surface_m2: 20, insulation_type: 'STRONG' },
        { estate_roof_type: 'FLAT', surface_m2: 15, insulation_type: 'NONE' },
      ]),
    )!;
    // a cornice height under 1 m is below the model's minimum: left to the model's defaults
    expect(p).toEqual({ ...REQUIRED, building_width: 8.5, building_depth: 10.2, roof_type: 'INCLINED', inclined_roof_surface: 80, inclined_roof_insulation_type: 'LIGHT' });
    const mixed = propertyFromEstate(estate(REQUIRED, [
      { estate_roof_type: 'INCLINED', surface_m2: 60, insulation_type: null },
      { estate_roof_type: 'FLAT', surface_m2: 15, insulation_type: 'NONE' },
    ]))!;
    expect(mixed).toMatchObject({ inclined_roof_surface: 60, flat_roof_surface: 15, flat_roof_insulation_type: 'NONE' });
    expect(mixed.roof_type).toBeUndefined();
  });

  it('reads the old-style ground floor fields when the detailed ones are unknown', () => {
    expect(propertyFromEstate(estate({ ...REQUIRED, ground_floor_type: 'SOLID_GROUND_FLOOR', ground_floor_insulation_type: 'LIGHT' })))
      .toMatchObject({ basement_type: 'NONE', solid_ground_floor_insulation_type: 'LIGHT' });
    expect(propertyFromEstate(estate({ ...REQUIRED, ground_floor_type: 'FLOOR_ABOVE_CRAWL_SPACE', ground_floor_insulation_type: 'NONE' })))
      .toMatchObject({ basement_type: 'CRAWL_SPACE', floor_above_basement_insulation_type: 'NONE' });
    expect(propertyFromEstate(estate({ ...REQUIRED, ground_floor_type: 'FLOOR_ABOVE_BASEMENT', basement_type: 'HEATED', floor_above_basement_insulation_type: 'STRONG', ground_floor_insulation_type: 'NONE' })))
      .toMatchObject({ basement_type: 'HEATED', floor_above_basement_insulation_type: 'STRONG' });
  });

  it('round-trips every field of a property description through an estate and its roofs', () => {
    const property = PropertyDescription.parse({
      ...REQUIRED,
      estate_type: 'HOUSE', year_renovated: 2001, number_of_floors: 2, building_width: 7.3, building_depth: 11.15, cornice_height: 6.2,
      energy_efficiency_score: 410, roof_type: 'INCLINED', inclined_roof_surface: 95, inclined_roof_insulation_type: 'LIGHT',
      outer_wall_surface: 160, outer_wall_insulation_type: 'NONE', has_cavity_wall: true, cavity_wall_width: 6, has_cavity_wall_insulation: false,
      window_surface: 24, window_glazing_type: 'DOUBLE_GLAZING', basement_type: 'UNHEATED', basement_ceiling_surface: 40,
      floor_above_basement_insulation_type: 'NONE', solid_ground_floor_surface: 35, solid_ground_floor_insulation_type: 'LIGHT',
      ventilation_type: 'SYSTEM_C', heating_type: 'NATURAL_GAS', heating_device: 'CONDENSING_BOILER', installation_age: 12,
      sanitary_heating_device: 'SAME_AS_HEATING', solar_panels_kwp: 3.5, has_solar_boiler: false, eco_facilities: ['SOLAR_PANELS'],
    });
    const { fields, roofs } = estateFromProperty(property);
    const back = propertyFromEstate({ fields: estateFieldsFrom(fields), roofs });
    expect(back).toEqual(property);
  });
});
