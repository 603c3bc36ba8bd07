import { describe, expect, it } from 'vitest';
import { allNodes, costIndexFactor, groupByGrantCategory, isLeaf, priceItem, type PriceItemInput } from './index.ts';
import { DATA } from './data.ts';

const OLD_HOUSE = { year_built: 1975 };
const flanders = (node: string, quantity: number, extra: Partial<PriceItemInput> = {}) =>
  priceItem({ node, quantity, country: 'BE', region: 'FLANDERS', year: 2025, estate: OLD_HOUSE, ...extra });
const netherlands = (node: string, quantity: number, extra: Partial<PriceItemInput> = {}) =>
  priceItem({ node, quantity, country: 'NL', region: 'NETHERLANDS', year: 2025, estate: OLD_HOUSE, ...extra });

describe('VAT', () => {
  it('BE: 6% for a dwelling first occupied >= 10 years ago, 21% otherwise', () => {
    const old = flanders('CAVITY_WALL_INSULATION', 80);
    expect(old.vat_rate).toBe(0.06);
    expect(old.estimated_vat_cost).toBe(100.8); // 80 m2 x €21 (PRICE_CAVITY_WALL_INSULATION_BE) x 6%
    expect(old.sources.vat_case).toBe('BE_RENOVATION_OLD_DWELLING');
    const young = flanders('CAVITY_WALL_INSULATION', 80, { estate: { year_built: 2018 } });
    expect(young.vat_rate).toBe(0.21);
    expect(young.estimated_vat_cost).toBe(352.8);
    // First occupation decides, not the construction year.
    expect(flanders('CAVITY_WALL_INSULATION', 80, { estate: { year_built: 2010, first_occupied_years_ago: 9 } }).vat_rate).toBe(0.21);
    expect(flanders('CAVITY_WALL_INSULATION', 80, { estate: { year_built: 2015, first_occupied_years_ago: 10 } }).vat_rate).toBe(0.06);
  });

  it('BE: fossil-fuel heating at 21% from 1 July 2025, also in old dwellings', () => {
    expect(flanders('CONDENSING_BOILER', 1, { date: '2025-06-30' }).vat_rate).toBe(0.06);
    const after = flanders('CONDENSING_BOILER', 1, { date: '2025-07-01' });
    expect(after.vat_rate).toBe(0.21);
    expect(after.sources.vat_case).toBe('BE_FOSSIL_FROM_2025_07');
    expect(flanders('CONDENSING_BOILER', 1, { year: 2026 }).vat_rate).toBe(0.21);
    // Emitters follow the system they serve.
    const gas = { ...OLD_HOUSE, heating_type_after: 'GAS' as const };
    const electric = { ...OLD_HOUSE, heating_type_after: 'ELECTRIC' as const };
    expect(flanders('RADIATOR_REPLACEMENT', 6, { date: '2025-08-01', estate: gas }).vat_rate).toBe(0.21);
    expect(flanders('RADIATOR_REPLACEMENT', 6, { date: '2025-08-01', estate: electric }).vat_rate).toBe(0.06);
    // A heat pump is not fossil heating.
    expect(flanders('HEAT_PUMP_AIR_WATER', 1, { date: '2025-08-01' }).vat_rate).toBe(0.06);
  });

  it('BE: heat pumps in young dwellings at 6% until the end of 2024 only', () => {
    const young = { year_built: 2020 };
    expect(flanders('HEAT_PUMP_AIR_WATER', 1, { year: 2024, estate: young }).vat_rate).toBe(0.06);
    expect(flanders('HEAT_PUMP_AIR_WATER', 1, { year: 2025, estate: young }).vat_rate).toBe(0.21);
    expect(flanders('SOLAR_PANELS', 4, { year: 2024, estate: young }).vat_rate).toBe(0.21);
  });

  it('NL: 0% on PV, 9% on the labour share of insulation, 21% on the rest', () => {
    const pv = netherlands('SOLAR_PANELS', 5);
    expect(pv.vat_rate).toBe(0);
    expect(pv.estimated_vat_cost).toBe(0);
    expect(pv.estimated_cost).toBe(5200); // 5 kWp x €1,040 (PRICE_SOLAR_PANELS_NL)
    // PRICE_INCLINED_ROOF_INSULATION_INSIDE_NL: €82/m2, labour share 0.5 -> 0.5 x 9% + 0.5 x 21% = 15%.
    const roof = netherlands('INCLINED_ROOF_INSULATION_INSIDE', 90);
    expect(roof.estimated_cost).toBe(7380);
    expect(roof.vat_rate).toBe(0.15);
    expect(roof.estimated_vat_cost).toBe(1107);
    expect(netherlands('HEAT_PUMP_AIR_WATER', 1).vat_rate).toBe(0.21);
    // Homes up to 2 years old: no reduced rate.
    expect(netherlands('INCLINED_ROOF_INSULATION_INSIDE', 90, { estate: { year_built: 2024 } }).vat_rate).toBe(0.21);
  });
});

describe('prices', () => {
  it('rounds money to cents and moves the 2025 price level with the construction-cost index', () => {
    const p2025 = flanders('EXTERIOR_WALL_INSULATION', 33.33);
    expect(p2025.estimated_cost).toBe(5832.75); // 33.33 x €175 (PRICE_EXTERIOR_WALL_INSULATION_BE)
    const p2027 = flanders('EXTERIOR_WALL_INSULATION', 100, { year: 2027 });
    expect(p2027.unit_cost).toBeCloseTo(175 * 1.025 ** 2, 2); // ABEX_2025 extrapolated at 2.5%/yr
    expect(p2027.assumptions.join(' ')).toMatch(/extrapolated/);
    // CBS_2023 / CBS_2025 = 162.6 / 175.0
    expect(costIndexFactor('NL', 2023).factor).toBeCloseTo(162.6 / 175, 6);
  });

  it('prices the works the 2025 review found low at their new rows', () => {
    expect(flanders('INCLINED_ROOF_INSULATION_INSIDE', 100).estimated_cost).toBe(8200); // PRICE_INCLINED_ROOF_INSULATION_INSIDE_BE €82
    expect(flanders('INCLINED_ROOF_INSULATION_OUTSIDE', 100).estimated_cost).toBe(20000); // PRICE_INCLINED_ROOF_INSULATION_OUTSIDE_BE €200
    expect(flanders('EXTERIOR_WALL_INSULATION', 100).estimated_cost).toBe(17500); // PRICE_EXTERIOR_WALL_INSULATION_BE €175
    expect(flanders('VENTILATION_SYSTEM_D', 1).estimated_cost).toBe(9900); // PRICE_VENTILATION_SYSTEM_D_BE
    // Glass in old frames (PRICE_GLAZING_REPLACEMENT_HR_BE €175) against new PVC windows (PRICE_WINDOW_REPLACEMENT_PVC_HR_BE €615).
    expect(flanders('GLAZING_REPLACEMENT_HR', 20).estimated_cost).toBe(3500);
    expect(flanders('WINDOW_REPLACEMENT_PVC_HR', 20).estimated_cost).toBe(12300);
  });

  it('prices whole-home low-temperature radiators per m2 of habitable space, taxed with the system they serve', () => {
    // PRICE_LOW_TEMPERATURE_RADIATORS_WHOLE_HOME_BE: €46/m2.
    const withHeatPump = flanders('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', 140, {
      date: '2025-08-01',
      estate: { ...OLD_HOUSE, heating_type_after: 'HEAT_PUMP' },
    });
    expect(withHeatPump.estimated_cost).toBe(6440);
    expect(withHeatPump.sources.vat_case).toBe('BE_DISTRIBUTION_OLD');
    const withGas = flanders('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', 140, {
      date: '2025-08-01',
      estate: { ...OLD_HOUSE, heating_type_after: 'GAS' },
    });
    expect(withGas.vat_rate).toBe(0.21);
  });

  it('applies the Brussels regional factor (REGION_FACTOR_BRUSSELS 1.08)', () => {
    const bx = priceItem({ node: 'HEAT_PUMP_AIR_WATER', quantity: 1, country: 'BE', region: 'BRUSSELS', year: 2025, estate: OLD_HOUSE });
    expect(bx.estimated_cost).toBe(14256); // €13,200 x 1.08
  });

  it('prices an inner node as its default leaf and rejects a region of another country', () => {
    const hp = flanders('HEAT_PUMP', 1);
    expect(hp.renovation_component_type).toBe('HEAT_PUMP');
    expect(hp.priced_as).toBe('HEAT_PUMP_AIR_WATER');
    expect(() => priceItem({ node: 'HEAT_PUMP', quantity: 1, country: 'NL', region: 'FLANDERS', year: 2025, estate: OLD_HOUSE })).toThrow();
  });

  it('states net cost as cost + VAT - subsidy', () => {
    const p = flanders('CAVITY_WALL_INSULATION', 80);
    expect(p.net_cost).toBe(Math.round((p.estimated_cost + p.estimated_vat_cost - p.subsidy_amount) * 100) / 100);
  });
});

describe('grants, checked by hand against their data rows', () => {
  it('FL_MVP_2025_OUTER_WALLS_MIDDLE: 25% of the invoice, up to an €11,000 invoice', () => {
    const cavity = flanders('CAVITY_WALL_INSULATION', 80);
    expect(cavity.subsidy_amount).toBe(420); // 25% x 80 x €21
    expect(cavity.sources.grant_rules).toEqual(['FL_MVP_2025_OUTER_WALLS_MIDDLE']);
    expect(cavity.assumptions.join(' ')).toMatch(/MIDDLE assumed/);
    const etics = flanders('EXTERIOR_WALL_INSULATION', 100);
    expect(etics.subsidy_amount).toBe(2750); // 25% x min(€17,500, €11,000)
  });

  it('FL_MVP_2025_ROOF_INSULATION_HIGH: €8/m2; FL_MVP_2026_ROOF_INSULATION_HIGH: €4/m2', () => {
    const high = { ...OLD_HOUSE, income_category: 'HIGH' as const };
    expect(flanders('INCLINED_ROOF_INSULATION_INSIDE', 90, { estate: high }).subsidy_amount).toBe(720);
    expect(flanders('INCLINED_ROOF_INSULATION_INSIDE', 90, { estate: high, year: 2026 }).subsidy_amount).toBe(360);
  });

  it('FL_MVP_2025H2_HEAT_PUMP_*: fixed amount within the income cap from 1 July 2025', () => {
    // MIDDLE: €1,500, cap 25% x €13,200 = €3,300.
    expect(flanders('HEAT_PUMP_AIR_WATER', 1).subsidy_amount).toBe(1500);
    // LOW: €1,500 x 1.6 = €2,400, cap 35%.
    expect(flanders('HEAT_PUMP_AIR_WATER', 1, { estate: { ...OLD_HOUSE, income_category: 'LOW' } }).subsidy_amount).toBe(2400);
    // GEOTHERMAL HIGH: €4,000, cap 20% x €23,600 = €4,720 -> €4,000.
    expect(flanders('HEAT_PUMP_GEOTHERMAL', 1, { estate: { ...OLD_HOUSE, income_category: 'HIGH' } }).subsidy_amount).toBe(4000);
    // Before July 2025 (FL_MVP_2025H1_*): cap 40%.
    const h1 = flanders('HEAT_PUMP_HYBRID', 1, { date: '2025-03-01' });
    expect(h1.subsidy_amount).toBe(800);
    expect(h1.sources.grant_rules).toEqual(['FL_MVP_2025H1_HEAT_PUMP_HYBRID_MIDDLE']);
  });

  it('FL asbestos bonus only with roof insulation in the same renovation', () => {
    expect(flanders('ASBESTOS_REMOVAL_ROOF', 60).subsidy_amount).toBe(0);
    expect(flanders('ASBESTOS_REMOVAL_ROOF', 60).conditions.join(' ')).toMatch(/Not eligible/);
    expect(flanders('ASBESTOS_REMOVAL_ROOF', 60, { companions: ['INCLINED_ROOF_INSULATION_OUTSIDE'] }).subsidy_amount).toBe(480); // €8 x 60
  });

  it('NL_ISDE_2025_ROOF: €16.25/m2 single, €32.50/m2 with a second measure, nothing under 20 m2', () => {
    expect(netherlands('INCLINED_ROOF_INSULATION_INSIDE', 90).subsidy_amount).toBe(1462.5);
    expect(netherlands('INCLINED_ROOF_INSULATION_INSIDE', 90, { companions: ['CAVITY_WALL_INSULATION'] }).subsidy_amount).toBe(2925);
    const small = netherlands('INCLINED_ROOF_INSULATION_INSIDE', 15);
    expect(small.subsidy_amount).toBe(0);
    expect(small.conditions.join(' ')).toMatch(/minimum quantity 20/);
    expect(netherlands('INCLINED_ROOF_INSULATION_INSIDE', 90, { estate: { year_built: 2020 } }).subsidy_amount).toBe(0);
  });

  it('NL_ISDE_2025_HR_GLASS: €25/m2 up to 45 m2', () => {
    expect(netherlands('WINDOW_REPLACEMENT_PVC_HR', 60).subsidy_amount).toBe(1125); // 45 x €25
  });

  it('NL_ISDE_2025_HEAT_PUMP_*: €1,250 for the first kW + €225 per further kW, in 2025 and 2026', () => {
    // Air-water, 8 kW assumed: €1,025 + €225 x 8.
    const air = netherlands('HEAT_PUMP_AIR_WATER', 1);
    expect(air.subsidy_amount).toBe(2825);
    expect(air.sources.grant_rules).toEqual(['NL_ISDE_2025_HEAT_PUMP_AIR_WATER']);
    expect(netherlands('HEAT_PUMP_AIR_WATER', 1, { year: 2026 }).subsidy_amount).toBe(2825);
    // Hybrid, 4 kW assumed: €1,025 + €225 x 4.
    expect(netherlands('HEAT_PUMP_HYBRID', 1).subsidy_amount).toBe(1925);
    // Ground-source keeps the fixed reference amount (NL_ISDE_2025_HEAT_PUMP_GEOTHERMAL).
    expect(netherlands('HEAT_PUMP_GEOTHERMAL', 1).subsidy_amount).toBe(4500);
  });

  it('NL_ISDE_2025_* insulation: capped at the maximum area per dwelling', () => {
    // NL_ISDE_2025_CAVITY: €5.25/m2 up to 170 m2.
    expect(netherlands('CAVITY_WALL_INSULATION', 250).subsidy_amount).toBe(892.5);
    // NL_ISDE_2025_ROOF: €16.25/m2 up to 200 m2.
    expect(netherlands('FLAT_ROOF_INSULATION', 260).subsidy_amount).toBe(3250);
    // NL_ISDE_2025_FLOOR: €5.50/m2 up to 130 m2; with a second measure €11.
    expect(netherlands('CRAWL_SPACE_FLOOR_INSULATION', 150, { companions: ['CAVITY_WALL_INSULATION'] }).subsidy_amount).toBe(1430);
  });

  it('NL_ISDE_2025_TRIPLE_GLASS: €111/m2 with a new frame, nothing for triple glass in an old frame', () => {
    expect(netherlands('WINDOW_REPLACEMENT_PVC_TRIPLE', 20).subsidy_amount).toBe(2220);
    expect(netherlands('WINDOW_REPLACEMENT_PVC_TRIPLE', 20, { companions: ['FLAT_ROOF_INSULATION'] }).subsidy_amount).toBe(4440);
    expect(netherlands('GLAZING_REPLACEMENT_TRIPLE', 20).subsidy_amount).toBe(0);
    // NL_ISDE_2025_HR_GLASS still pays glass-only HR++: €25/m2.
    expect(netherlands('GLAZING_REPLACEMENT_HR', 20).subsidy_amount).toBe(500);
  });

  it('WL_2025_ROOF_INSULATION_LOW: €120/m2 capped at 70% of the cost', () => {
    const p = priceItem({
      node: 'INCLINED_ROOF_INSULATION_INSIDE',
      quantity: 90,
      country: 'BE',
      region: 'WALLONIA',
      year: 2025,
      estate: { ...OLD_HOUSE, income_category: 'LOW' },
    });
    // Cost 90 x €82 x 0.97 (REGION_FACTOR_WALLONIA) = €7,158.60; 90 x €120 = €10,800 > 70% cap = €5,011.02.
    expect(p.estimated_cost).toBe(7158.6);
    expect(p.subsidy_amount).toBe(5011.02);
  });

  it('WL_2025_WINDOWS_*: €156 / €78 / €52 per m2 for R1 / R3 / R4, new windows only, until 30 Sep 2026', () => {
    const wallonia = (node: string, income_category: 'LOW' | 'MIDDLE' | 'HIGH', extra: Partial<PriceItemInput> = {}) =>
      priceItem({
        node,
        quantity: 20,
        country: 'BE',
        region: 'WALLONIA',
        year: 2025,
        estate: { ...OLD_HOUSE, income_category },
        ...extra,
      });
    // Cost 20 x €615 x 0.97 = €11,931; R1 20 x €156 = €3,120 (under the 70% cap).
    expect(wallonia('WINDOW_REPLACEMENT_PVC_HR', 'LOW').subsidy_amount).toBe(3120);
    expect(wallonia('WINDOW_REPLACEMENT_PVC_HR', 'MIDDLE').subsidy_amount).toBe(1560);
    expect(wallonia('WINDOW_REPLACEMENT_PVC_HR', 'HIGH').sources.grant_rules).toEqual(['WL_2025_WINDOWS_HIGH']);
    expect(wallonia('WINDOW_REPLACEMENT_PVC_HR', 'HIGH').subsidy_amount).toBe(1040);
    expect(wallonia('GLAZING_REPLACEMENT_HR', 'LOW').subsidy_amount).toBe(0);
    expect(wallonia('WINDOW_REPLACEMENT_PVC_HR', 'LOW', { date: '2026-10-01', year: 2026 }).subsidy_amount).toBe(0);
  });

  it('Brussels: no RENOLUTION premium for 2025 invoices, the 2024 rule before', () => {
    const bx = (year: number) =>
      priceItem({ node: 'HEAT_PUMP_AIR_WATER', quantity: 1, country: 'BE', region: 'BRUSSELS', year, estate: OLD_HOUSE });
    expect(bx(2024).subsidy_amount).toBe(4500); // BX_RENOLUTION_2024_HEAT_PUMP_AIR_WATER_MIDDLE
    expect(bx(2025).subsidy_amount).toBe(0);
    expect(bx(2025).scheme).toBeNull();
    expect(bx(2025).assumptions.join(' ')).toMatch(/No RENOLUTION grant/);
  });

  it('never grants more than the cost, for any leaf, region, income and year', () => {
    const places = [
      ['BE', 'FLANDERS'],
      ['BE', 'BRUSSELS'],
      ['BE', 'WALLONIA'],
      ['NL', 'NETHERLANDS'],
    ] as const;
    const companions = DATA.grants.flatMap((r) => r.nodes);
    let checked = 0;
    for (const leaf of allNodes().filter((n) => isLeaf(n) && n.scope !== 'derived')) {
      for (const [country, region] of places) {
        for (const income_category of ['LOW', 'MIDDLE', 'HIGH'] as const) {
          for (const year of [2024, 2025, 2026]) {
            for (const quantity of [0.5, 1, 25, 400]) {
              const p = priceItem({
                node: leaf,
                quantity,
                country,
                region,
                year,
                estate: { year_built: 1960, income_category },
                companions,
              });
              expect(p.subsidy_amount, `${leaf.renovation_component_type} ${region} ${income_category} ${year}`).toBeLessThanOrEqual(
                p.estimated_cost,
              );
              expect(p.subsidy_amount).toBeGreaterThanOrEqual(0);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('government grants grouping', () => {
  it('has the API shape and only categories with eligible items', () => {
    const items = [
      { ...flanders('CAVITY_WALL_INSULATION', 80), renovation_item_id: 'a' },
      { ...flanders('EXTERIOR_WALL_INSULATION', 20), renovation_item_id: 'b' },
      { ...flanders('HEAT_PUMP_AIR_WATER', 1), renovation_item_id: 'c' },
      { ...flanders('KITCHEN', 1), renovation_item_id: 'd' },
    ];
    const grants = groupByGrantCategory(items);
    expect(Object.keys(grants).sort()).toEqual(['OUTER_WALLS', 'TECHNICAL_INSTALLATIONS']);
    expect(grants.OUTER_WALLS).toEqual({
      total_subsidy_amount: 420 + 875, // 25% x 80 x €21 + 25% x 20 x €175
      total_estimated_cost: 1680 + 3500,
      total_estimated_vat_cost: 100.8 + 210,
      eligible_renovation_items: [
        {
          renovation_item_id: 'a',
          renovation_component_type: 'CAVITY_WALL_INSULATION',
          estimated_cost: 1680,
          subsidy_amount: 420,
          scheme: 'Mijn VerbouwPremie',
          conditions: expect.any(Array),
        },
        {
          renovation_item_id: 'b',
          renovation_component_type: 'EXTERIOR_WALL_INSULATION',
          estimated_cost: 3500,
          subsidy_amount: 875,
          scheme: 'Mijn VerbouwPremie',
          conditions: expect.any(Array),
        },
      ],
    });
    expect(grants.TECHNICAL_INSTALLATIONS!.eligible_renovation_items.map((i) => i.renovation_item_id)).toEqual(['c']);
    expect(groupByGrantCategory([])).toEqual({});
  });
});
