import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { DATA } from './data.ts';
import { priceItem, sumFigures, valueItemSet } from './index.ts';

const GAS_HOUSE: PropertyDescription = {
  year_built: 1965,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  zip_code: '9000',
  country: 'BE',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
};
const PRICING = { country: 'BE', region: 'FLANDERS', year: 2026, year_built: 1965 } as const;

describe('valueItemSet: a set of items valued together', () => {
  it('taxes emitters after the heating the whole set leaves (BE: 21% on a fossil system since 1 July 2025)', () => {
    const alone = valueItemSet(
      GAS_HOUSE,
      [{ key: 'r', renovation_component_type: 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', quantity: 140 }],
      PRICING,
    );
    const withPump = valueItemSet(
      GAS_HOUSE,
      [
        { key: 'r', renovation_component_type: 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', quantity: 140 },
        { key: 'p', renovation_component_type: 'HEAT_PUMP_AIR_WATER', quantity: 1 },
      ],
      PRICING,
    );
    expect(alone.heating_type_after).toBe('GAS');
    expect(withPump.heating_type_after).toBe('HEAT_PUMP');
    expect(withPump.companions).toEqual(['LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', 'HEAT_PUMP_AIR_WATER']);
    expect(withPump.items['r']!.priced!.vat_rate).toBeLessThan(alone.items['r']!.priced!.vat_rate);
  });

  it('prices each item as priceItem does with the set as companions, and adds the works the set needs', () => {
    const set = valueItemSet(GAS_HOUSE, [{ key: 'w', renovation_component_type: 'EXTERIOR_WALL_INSULATION', quantity: 120 }], PRICING);
    expect(set.items['w']!.priced).toEqual(
      priceItem({
        node: 'EXTERIOR_WALL_INSULATION',
        quantity: 120,
        country: 'BE',
        region: 'FLANDERS',
        year: 2026,
        estate: { year_built: 1965, heating_type_after: 'GAS' },
        companions: ['EXTERIOR_WALL_INSULATION'],
      }),
    );
    expect(set.derived.map((d) => d.renovation_component_type)).toContain('SCAFFOLDING');
    expect(set.derived_error).toBeNull();
  });

  it('says why an item has no figures instead of failing the set', () => {
    const set = valueItemSet(GAS_HOUSE, [{ key: 'x', renovation_component_type: 'NO_SUCH_TYPE', quantity: 1 }], PRICING);
    expect(set.items['x']!.error).toMatch(/no longer in the catalogue/);
  });

  it('sums rounded figures exactly, in cents', () => {
    expect(
      sumFigures([
        { estimated_cost: 0.1, estimated_vat_cost: 0.2, subsidy_amount: 0.1 },
        { estimated_cost: 0.2, estimated_vat_cost: 0.1, subsidy_amount: 0 },
      ]),
    ).toEqual({ estimated_cost: 0.3, estimated_vat_cost: 0.3, subsidy_amount: 0.1, total_estimated_cost_incl_vat: 0.6 });
  });

  it('values a hand-added hybrid as the planner does: the system, its boiler part at 21% in Belgium from July 2025, its heat-pump part at 6%', () => {
    const item = (date: string) =>
      priceItem({
        node: 'HEAT_PUMP_HYBRID',
        quantity: 1,
        country: 'BE',
        region: 'FLANDERS',
        year: 2026,
        date,
        estate: { year_built: 1965, heating_type_after: 'GAS' },
      });
    const after = item('2026-03-01');
    const row = DATA.unitPrices.rows.find((r) => r.id === 'PRICE_HEAT_PUMP_HYBRID_BE')!;
    const boiler = DATA.unitPrices.rows.find((r) => r.id === 'PRICE_CONDENSING_BOILER_BE')!;
    // The system: the heat-pump part and a new condensing boiler, the boiler's share taxed at 21%.
    expect(row.fossil_share).toBeCloseTo(boiler.unit_cost / row.unit_cost, 2);
    expect(after.vat_rate).toBeCloseTo(0.06 * (1 - row.fossil_share!) + 0.21 * row.fossil_share!, 4);
    expect(after.sources.vat_case).toBe('BE_HYBRID_OLD_FROM_2025_07');
    // Before July 2025 the whole system was at the 6% renovation rate.
    expect(item('2025-03-01').vat_rate).toBe(0.06);
    // In a renovation the client fills by hand, the same figures.
    const set = valueItemSet(GAS_HOUSE, [{ key: 'h', renovation_component_type: 'HEAT_PUMP_HYBRID', quantity: 1 }], PRICING);
    expect(set.items['h']!.priced!.vat_rate).toBe(item('2026-07-01').vat_rate);
  });

  it("prices the oil tank's removal, which a client may add by hand as the planner does when leaving fuel oil", () => {
    const set = valueItemSet(
      { ...GAS_HOUSE, heating_type: 'FUEL_OIL' },
      [
        { key: 'p', renovation_component_type: 'HEAT_PUMP_AIR_WATER', quantity: 1 },
        { key: 't', renovation_component_type: 'OIL_TANK_REMOVAL', quantity: 1 },
      ],
      PRICING,
    );
    expect(set.items['t']!.priced!.estimated_cost).toBeGreaterThan(0);
    expect(set.items['t']!.priced!.vat_rate).toBe(0.06);
  });
});
