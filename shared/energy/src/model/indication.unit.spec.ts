import { describe, expect, it } from 'vitest';
import { IndicationRequest, PropertyDescription } from '@renopath/contracts';
import { propertyFromIndication } from './indication.ts';
import { evaluate } from './evaluate.ts';

describe('propertyFromIndication: the old-style indication body on the model', () => {
  it('maps every old-style field onto the trajectory request names', () => {
    const body = IndicationRequest.parse({
      year_built: 1968,
      habitable_space_m2: 140,
      estate_roof_type: 'MIXED',
      roof_insulation_type: 'LIGHT',
      outer_wall_insulation_type: 'MODERATE',
      window_type: 'HR',
      ventilation_type: 'SYSTEM_C',
      ground_floor_type: 'FLOOR_ABOVE_BASEMENT',
      ground_floor_insulation_type: 'NONE',
      estate_type: 'HOUSE',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      sanitary_heating_device: 'NOT_SEPARATED',
      eco_facilities: ['SOLAR_PANELS', 'SOLAR_BOILER'],
    });
    const p = propertyFromIndication(body);
    expect(PropertyDescription.parse(p)).toEqual(p);
    expect(p).toEqual({
      year_built: 1968,
      habitable_space_m2: 140,
      estate_format: 'SEMI_OPEN',
      zip_code: '2000',
      country: 'BE',
      estate_type: 'HOUSE',
      roof_type: 'MIXED',
      inclined_roof_insulation_type: 'LIGHT',
      flat_roof_insulation_type: 'LIGHT',
      outer_wall_insulation_type: 'MODERATE',
      window_glazing_type: 'HR',
      ventilation_type: 'SYSTEM_C',
      basement_type: 'FULL',
      floor_above_basement_insulation_type: 'NONE',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      sanitary_heating_device: 'NOT_SEPARATED',
      eco_facilities: ['SOLAR_PANELS', 'SOLAR_BOILER'],
      has_solar_panels: true,
      has_solar_boiler: true,
    });
    const e = evaluate(p);
    expect(e.region).toBe('FLANDERS');
    expect(e.assumed.solar_panels_kwp).toBeGreaterThan(0);
  });

  it('defaults to a semi-detached Flemish home; a solid floor and a flat roof go to their own fields', () => {
    const p = propertyFromIndication({
      year_built: 1930,
      habitable_space_m2: 95,
      estate_roof_type: 'FLAT',
      roof_insulation_type: 'STRONG',
      ground_floor_type: 'SOLID_GROUND_FLOOR',
      ground_floor_insulation_type: 'LIGHT',
    });
    expect(p).toMatchObject({
      estate_format: 'SEMI_OPEN',
      country: 'BE',
      roof_type: 'FLAT',
      flat_roof_insulation_type: 'STRONG',
      basement_type: 'NONE',
      solid_ground_floor_insulation_type: 'LIGHT',
    });
    expect(p.inclined_roof_insulation_type).toBeUndefined();
    expect(evaluate(p).energy_efficiency_type).toBe('EPC_FLANDERS');
  });

  it('takes the country from a Dutch postal code, and a Dutch default postal code from the country', () => {
    expect(propertyFromIndication({ year_built: 1975, habitable_space_m2: 110, zip_code: '3731 AB' }).country).toBe('NL');
    const nl = propertyFromIndication({
      year_built: 1975,
      habitable_space_m2: 110,
      country: 'NL',
      ground_floor_type: 'FLOOR_ABOVE_CRAWL_SPACE',
    });
    expect(nl.basement_type).toBe('CRAWL_SPACE');
    expect(evaluate(nl).energy_efficiency_type).toBe('ENERGY_LABEL_NL');
  });
});
