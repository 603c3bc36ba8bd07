import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { priceItem, sumFigures, valueItemSet } from './index.ts';

const GAS_HOUSE: PropertyDescription = {
  year_built: 1965, estate_format: 'SEMI_OPEN', habitable_space_m2: 140, zip_code: '9000', country: 'BE',
  heating_type: 'GAS', heating_device: 'NON_CONDENSING_BOILER',
};
const PRICING = { country: 'BE', region: 'FLANDERS', year: 2026, year_built: 1965 } as const;

describe('valueItemSet: a set of items valued together', () => {
  it('taxes emitters after the heating the whole set leaves (BE: 21% on a fossil system since 1 July 2025)', () => {
    const alone = valueItemSet(GAS_HOUSE, [{ key: 'r', renovation_component_type: 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', quantity: 140 }], PRICING);
    const withPump = valueItemSet(GAS_HOUSE, [
      { key: 'r', renovation_component_type: 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', quantity: 140 },
      { key: 'p', renovation_component_type: 'HEAT_PUMP_AIR_WATER', quantity: 1 },
    ], PRICING);
    expect(alone.heating_type_after).toBe('GAS');
    expect(withPump.heating_type_after).toBe('HEAT_PUMP');
    expect(withPump.companions).toEqual(['LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', 'HEAT_PUMP_AIR_WATER']);
    expect(withPump.items['r']!.priced!.vat_rate).toBeLessThan(alone.items['r']!.priced!.vat_rate);
  });

  it('prices each item as priceItem does with the set as companions, and adds the works the set needs', () => {
    const set = valueItemSet(GAS_HOUSE, [{ key: 'w', renovation_component_type: 'EXTERIOR_WALL_INSULATION', quantity: 120 }], PRICING);
    expect(set.items['w']!.priced).toEqual(priceItem({
      node: 'EXTERIOR_WALL_INSULATION', quantity: 120, country: 'BE', region: 'FLANDERS', year: 2026,
      estate: { year_built: 1965, heating_type_after: 'GAS' }, companions: ['EXTERIOR_WALL_INSULATION'],
    }));
    expect(set.derived.map((d) => d.renovation_component_type)).toContain('SCAFFOLDING');
    expect(set.derived_error).toBeNull();
  });

  it('says why an item has no figures instead of failing the set', () => {
    const set = valueItemSet(GAS_HOUSE, [{ key: 'x', renovation_component_type: 'NO_SUCH_TYPE', quantity: 1 }], PRICING);
    expect(set.items['x']!.error).toMatch(/no longer in the catalogue/);
  });

  it('sums rounded figures exactly, in cents', () => {
    expect(sumFigures([
      { estimated_cost: 0.1, estimated_vat_cost: 0.2, subsidy_amount: 0.1 },
      { estimated_cost: 0.2, estimated_vat_cost: 0.1, subsidy_amount: 0 },
    ])).toEqual({ estimated_cost: 0.3, estimated_vat_cost: 0.3, subsidy_amount: 0.1, total_estimated_cost_incl_vat: 0.6 });
  });
});
