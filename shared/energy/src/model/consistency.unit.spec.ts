import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { checkConsistency } from './consistency.ts';

const now = new Date('2026-06-01T00:00:00.000Z');
const ok: PropertyDescription = { year_built: 1965, estate_format: 'OPEN', habitable_space_m2: 140, zip_code: '3000', country: 'BE' };
const check = (patch: Partial<PropertyDescription>) => checkConsistency({ ...ok, ...patch } as PropertyDescription, { now });

describe('checkConsistency: the 422 rules of the trajectory request, one case each', () => {
  it('accepts a consistent request', () => {
    expect(check({})).toEqual([]);
    expect(
      check({
        roof_type: 'INCLINED',
        inclined_roof_insulation_type: 'LIGHT',
        heating_type: 'HEAT_PUMP',
        heating_device: 'AIR_WATER_HEAT_PUMP',
      }),
    ).toEqual([]);
    expect(checkConsistency({ ...ok, country: 'NL', zip_code: '3731 AB' }, { now })).toEqual([]);
  });
  it('roof_type FLAT with an inclined_roof_* field', () => {
    expect(check({ roof_type: 'FLAT', inclined_roof_insulation_type: 'LIGHT' })).toEqual([
      'inclined_roof_insulation_type cannot be given for roof_type FLAT',
    ]);
  });
  it('roof_type INCLINED with a flat_roof_* field', () => {
    expect(check({ roof_type: 'INCLINED', flat_roof_pane_surface: 40 })).toEqual([
      'flat_roof_pane_surface cannot be given for roof_type INCLINED',
    ]);
    expect(
      check({ roof_type: 'MIXED', flat_roof_pane_surface: 40, inclined_roof_pane_surface: 60, inclined_roof_insulation_type: 'NONE' }),
    ).toEqual([]);
  });
  it('a heat-pump device with FUEL_OIL', () => {
    expect(check({ heating_type: 'FUEL_OIL', heating_device: 'AIR_WATER_HEAT_PUMP' })).toEqual([
      'heating_device AIR_WATER_HEAT_PUMP is not compatible with heating_type FUEL_OIL',
    ]);
  });
  it('DIRECT_ACCUMULATION / DIRECT_ELECTRIC only with ELECTRIC', () => {
    expect(check({ heating_type: 'GAS', heating_device: 'DIRECT_ACCUMULATION' })).toEqual([
      'heating_device DIRECT_ACCUMULATION is not compatible with heating_type GAS',
    ]);
    expect(check({ heating_type: 'WOOD', heating_device: 'DIRECT_ELECTRIC' })).toHaveLength(1);
    expect(check({ heating_type: 'ELECTRIC', heating_device: 'DIRECT_ACCUMULATION' })).toEqual([]);
  });
  it('heat pumps with HEAT_PUMP (or ELECTRIC, their carrier); a hybrid also with GAS; boilers not with HEAT_PUMP', () => {
    for (const d of ['AIR_WATER_HEAT_PUMP', 'GEOTHERMAL_HEAT_PUMP', 'AIR_AIR_HEAT_PUMP', 'HYBRID_HEAT_PUMP'] as const) {
      expect(check({ heating_type: 'HEAT_PUMP', heating_device: d }), d).toEqual([]);
    }
    expect(check({ heating_type: 'GAS', heating_device: 'HYBRID_HEAT_PUMP' })).toEqual([]);
    expect(check({ heating_type: 'GAS', heating_device: 'AIR_WATER_HEAT_PUMP' })).toEqual([
      'heating_device AIR_WATER_HEAT_PUMP is not compatible with heating_type GAS',
    ]);
    expect(check({ heating_type: 'HEAT_PUMP', heating_device: 'CONDENSING_BOILER' })).toEqual([
      'heating_device CONDENSING_BOILER is not compatible with heating_type HEAT_PUMP',
    ]);
    expect(check({ heating_type: 'PELLET_FUEL', heating_device: 'NON_CONDENSING_BOILER' })).toEqual([]);
  });
  it('any device with heating_type NONE', () => {
    expect(check({ heating_type: 'NONE', heating_device: 'STOVE' })).toEqual([
      'heating_device STOVE cannot be given with heating_type NONE',
    ]);
  });
  it('has_cavity_wall false with cavity fields', () => {
    expect(check({ has_cavity_wall: false, cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM' })).toEqual([
      'cavity_wall_width cannot be given when has_cavity_wall is false',
    ]);
    expect(check({ has_cavity_wall: false, has_cavity_wall_insulation: true })).toEqual([
      'has_cavity_wall_insulation cannot be true when has_cavity_wall is false',
    ]);
  });
  it('basement_type NONE with basement ceiling fields', () => {
    expect(check({ basement_type: 'NONE', basement_ceiling_surface: 60 })).toEqual([
      'basement_ceiling_surface cannot be given for basement_type NONE',
    ]);
    expect(check({ basement_type: 'NONE', floor_above_basement_insulation_type: 'LIGHT' })).toEqual([
      'floor_above_basement_insulation_type cannot be given for basement_type NONE',
    ]);
    expect(check({ basement_type: 'NONE', basement_ceiling_height: 'LOWER_THAN_120_CM' })).toEqual([
      'basement_ceiling_height cannot be given for basement_type NONE',
    ]);
    expect(check({ basement_type: 'PARTIAL', basement_ceiling_surface: 40, ground_floor_surface: 80 })).toEqual([]);
  });
  it('zip code not a postal code of the country', () => {
    expect(check({ zip_code: '999' })).toEqual(['zip_code must be a Belgian postal code (4 digits, 1000-9999)']);
    const nl = ['zip_code must be a Dutch postal code (4 digits, optionally followed by 2 letters: 1234, 1234AB or 1234 AB)'];
    for (const bad of ['373', '0731', '3731 A', '3731 ABC', 'AB 3731', '37311'])
      expect(check({ country: 'NL', zip_code: bad })).toEqual(nl);
  });
  it('a Dutch postal code in any of its written forms: 1234, 1234AB, 1234 AB', () => {
    for (const ok of ['3731', '3731AB', '3731 AB', '3731ab']) expect(check({ country: 'NL', zip_code: ok })).toEqual([]);
  });
  it('year_built in the future (relative to the given now)', () => {
    expect(check({ year_built: 2027 })).toEqual(['year_built 2027 is in the future']);
    expect(check({ year_built: 2026 })).toEqual([]);
  });
  it('year_built before 1500', () => {
    expect(check({ year_built: 1499 })).toEqual(['year_built 1499 is before 1500']);
  });
  it('a surface implausibly large for the habitable space', () => {
    expect(check({ inclined_roof_pane_surface: 1401 })).toEqual([
      'inclined_roof_pane_surface 1401 m2 is more than 10 times the habitable space (140 m2): not plausible',
    ]);
    expect(check({ ground_floor_surface: 200 })).toEqual([]);
  });
  it('reports every problem, one message each', () => {
    expect(check({ year_built: 3000, zip_code: 'x', roof_type: 'FLAT', inclined_roof_pane_surface: 50 })).toHaveLength(3);
  });
});
