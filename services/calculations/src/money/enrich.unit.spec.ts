import { describe, expect, it } from 'vitest';
import { annuity } from '@renopath/catalog/loans.ts';
import { PLANNER_DATA } from '@renopath/catalog/planner-data.ts';
import { MeteredUse, type PropertyDescription, type Region, type TrajectoryPlan } from '@renopath/contracts';
import { evaluate } from '@renopath/energy';
import { daysIn, homeModelOf, normalDegreeDays, normalYearDegreeDays, stationOf } from '@renopath/energy/metered/index.ts';
import { planTrajectory } from '../planner/planner.ts';
import { enrichTrajectory } from './enrich.ts';

/**
 * The seam on real plans: metered use changes the bill, the savings and the heat pump, never the EPC
 * score; every step and the plan carry a financing whose loan is an annuity and whose payback with a
 * grant is never longer than without.
 */
const YEAR = 2026;
const HOMES: Record<Region, PropertyDescription> = {
  FLANDERS: {
    year_built: 1930,
    estate_format: 'CLOSED',
    habitable_space_m2: 120,
    zip_code: '9000',
    country: 'BE',
    estate_type: 'HOUSE',
    roof_type: 'INCLINED',
    attic_usage: 'LIVING_SPACE',
    inclined_roof_insulation_type: 'NONE',
    outer_wall_insulation_type: 'NONE',
    has_cavity_wall: false,
    window_glazing_type: 'SINGLE_GLAZING',
    basement_type: 'NONE',
    solid_ground_floor_insulation_type: 'NONE',
    heating_type: 'GAS',
    heating_device: 'NON_CONDENSING_BOILER',
    installation_age: 'OLDER_THAN_TEN_YEARS',
    sanitary_heating_device: 'NOT_SEPARATED',
    ventilation_type: 'NONE',
    has_solar_panels: false,
  },
  BRUSSELS: {
    year_built: 1910,
    estate_format: 'CLOSED',
    habitable_space_m2: 140,
    zip_code: '1060',
    country: 'BE',
    estate_type: 'HOUSE',
    heating_type: 'GAS',
    heating_device: 'CONDENSING_BOILER',
    window_glazing_type: 'DOUBLE_GLAZING',
  },
  WALLONIA: {
    year_built: 1955,
    estate_format: 'OPEN',
    habitable_space_m2: 160,
    zip_code: '5000',
    country: 'BE',
    estate_type: 'HOUSE',
    roof_type: 'INCLINED',
    attic_usage: 'NOT_USED',
    inclined_roof_insulation_type: 'NONE',
    outer_wall_insulation_type: 'NONE',
    has_cavity_wall: true,
    cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
    has_cavity_wall_insulation: false,
    window_glazing_type: 'DOUBLE_GLAZING',
    basement_type: 'FULL',
    basement_ceiling_height: 'HIGHER_THAN_120_CM',
    floor_above_basement_insulation_type: 'NONE',
    heating_type: 'FUEL_OIL',
    heating_device: 'NON_CONDENSING_BOILER',
    installation_age: 'OLDER_THAN_TEN_YEARS',
    sanitary_heating_device: 'NOT_SEPARATED',
    ventilation_type: 'NONE',
    has_solar_panels: false,
  },
  NETHERLANDS: {
    year_built: 1930,
    estate_format: 'CLOSED',
    habitable_space_m2: 110,
    zip_code: '3531',
    country: 'NL',
    estate_type: 'HOUSE',
    roof_type: 'INCLINED',
    attic_usage: 'LIVING_SPACE',
    inclined_roof_insulation_type: 'NONE',
    outer_wall_insulation_type: 'NONE',
    has_cavity_wall: true,
    cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
    has_cavity_wall_insulation: false,
    window_glazing_type: 'SINGLE_GLAZING',
    basement_type: 'CRAWL_SPACE',
    floor_above_basement_insulation_type: 'NONE',
    heating_type: 'GAS',
    heating_device: 'CONDENSING_BOILER',
    installation_age: 'OLDER_THAN_TEN_YEARS',
    sanitary_heating_device: 'NOT_SEPARATED',
    ventilation_type: 'NONE',
    has_solar_panels: false,
  },
};

const plans = new Map<Region, TrajectoryPlan>();
function planOf(region: Region): TrajectoryPlan {
  if (!plans.has(region)) plans.set(region, planTrajectory(HOMES[region], { year: YEAR }));
  return plans.get(region)!;
}

/** Monthly gas of the described home if it lost `lossWPerK` (the model's heating per W/K and baseload), 24 months. */
function gasReadings(region: Region, lossWPerK: number): MeteredUse {
  const p = HOMES[region];
  const home = homeModelOf(evaluate(p), PLANNER_DATA.pv_sizing.household_kwh_per_year[p.country])!;
  const perWK = (home.modelled_kwh_year - home.baseload_kwh_year) / home.heat_loss_w_per_k;
  const station = stationOf(region);
  const yearDd = normalYearDegreeDays(station);
  const monthly = [];
  for (let i = 0; i < 24; i++) {
    const month = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    const days = daysIn(month);
    const dd = normalDegreeDays(station, (i % 12) + 1, days);
    monthly.push({ month, gas_kwh: (home.baseload_kwh_year * days) / 365.25 + (lossWPerK * perWK * dd) / yearDd });
  }
  return MeteredUse.parse({ monthly });
}

function modelLoss(region: Region): number {
  const e = evaluate(HOMES[region]);
  return e.heat_loss.h_transmission_w_per_k + e.heat_loss.h_ventilation_w_per_k;
}

const epcOf = (p: TrajectoryPlan) => ({
  current: [p.current.epc_score, p.current.epc_label, p.current.primary_energy_kwh_per_year],
  final: [p.final_epc_score, p.energy_efficiency_indication],
  steps: p.steps.map((s) => [s.epc_score_after, s.epc_label_after, s.energy_savings_kwh_per_year, s.co2_savings_kg_per_year]),
});

describe('metered use fits the bill, the savings and the heat pump to the household', () => {
  const region = 'FLANDERS' as const;
  const H = modelLoss(region);

  it('never changes the EPC score or label (the asset rating), whatever the readings', () => {
    const plan = planOf(region);
    const base = epcOf(enrichTrajectory(plan, { property: HOMES[region] }));
    for (const metered_use of [gasReadings(region, 0.5 * H), gasReadings(region, 1.6 * H), MeteredUse.parse({ gas_kwh: 9000 })]) {
      const fitted = enrichTrajectory(plan, { property: HOMES[region], metered_use });
      expect(fitted.calibration).toBeDefined();
      expect(epcOf(fitted)).toEqual(base);
    }
  });

  it('two homes described alike, one losing twice the heat of the other: recovered within 10%, heat pumps in ratio 2', () => {
    const plan = planOf(region);
    const small = enrichTrajectory(plan, { property: HOMES[region], metered_use: gasReadings(region, 0.4 * H) });
    const large = enrichTrajectory(plan, { property: HOMES[region], metered_use: gasReadings(region, 0.8 * H) });
    expect(Math.abs(small.calibration!.heat_loss_w_per_k / (0.4 * H) - 1)).toBeLessThan(0.1);
    expect(Math.abs(large.calibration!.heat_loss_w_per_k / (0.8 * H) - 1)).toBeLessThan(0.1);
    expect(small.calibration!.method).toBe('MONTHLY');
    const kw = (p: TrajectoryPlan) => p.steps.find((s) => s.heat_pump_kw !== undefined)!.heat_pump_kw!;
    expect(kw(large) / kw(small)).toBeGreaterThan(1.95);
    expect(kw(large) / kw(small)).toBeLessThan(2.05);
  });

  it('a household using less than modelled gets a lower bill and smaller heating savings, each inside its 80% interval', () => {
    const plan = planOf(region);
    const fitted = enrichTrajectory(plan, { property: HOMES[region], metered_use: gasReadings(region, 0.5 * H) });
    const c = fitted.calibration!;
    expect(c.ratio).toBeLessThan(1);
    expect(fitted.current.energy_cost_eur_per_year).toBeLessThan(plan.current.energy_cost_eur_per_year);
    expect(c.bill_interval_eur_per_year.low).toBeLessThanOrEqual(c.bill_eur_per_year);
    expect(c.bill_interval_eur_per_year.high).toBeGreaterThanOrEqual(c.bill_eur_per_year);
    const roof = fitted.steps.find((s) => s.element === 'ROOF')!;
    const roofModel = plan.steps.find((s) => s.element === 'ROOF')!;
    expect(roof.cost_savings_eur_per_year).toBeLessThan(roofModel.cost_savings_eur_per_year);
    expect(roof.cost_savings_interval_eur_per_year!.low).toBeLessThanOrEqual(roof.cost_savings_eur_per_year);
    expect(roof.cost_savings_interval_eur_per_year!.high).toBeGreaterThanOrEqual(roof.cost_savings_eur_per_year);
    const pv = fitted.steps.find((s) => s.element === 'SOLAR_PANELS');
    if (pv) expect(pv.cost_savings_eur_per_year).toBe(plan.steps.find((s) => s.element === 'SOLAR_PANELS')!.cost_savings_eur_per_year);
  });

  it('a yearly figure alone calibrates (ANNUAL) and the Dutch m3 are read as kWh', () => {
    const nl = planOf('NETHERLANDS');
    const fitted = enrichTrajectory(nl, {
      property: HOMES.NETHERLANDS,
      metered_use: MeteredUse.parse({ gas_m3: 1400, period_end: '2025-12' }),
    });
    expect(fitted.calibration!.method).toBe('ANNUAL');
    expect(fitted.calibration!.metered_kwh_year).toBe(Math.round(1400 * 9.77));
    expect(fitted.calibration!.heat_loss_interval_w_per_k.low).toBeLessThan(fitted.calibration!.heat_loss_w_per_k);
  });

  it("without metered use the bill stays the model's and the heat pump is sized on the modelled, insulated home", () => {
    const plan = planOf(region);
    const out = enrichTrajectory(plan, { property: HOMES[region] });
    expect(out.calibration).toBeUndefined();
    expect(out.current.energy_cost_eur_per_year).toBe(plan.current.energy_cost_eur_per_year);
    const hp = out.steps.find((s) => s.heat_pump_kw !== undefined);
    if (hp) expect(hp.heat_pump_kw!).toBeLessThan(evaluate(HOMES[region]).design_heat_load_kw);
  });
});

describe('the money per step and per plan', () => {
  it.each(['FLANDERS', 'BRUSSELS', 'WALLONIA', 'NETHERLANDS'] as const)('%s offers a public loan for the plan', (region) => {
    const out = enrichTrajectory(planOf(region), { property: HOMES[region] });
    expect(out.totals.financing!.loan).not.toBeNull();
    expect(out.totals.financing!.loan!.source).toMatch(/https?:\/\//);
  });

  it.each(['FLANDERS', 'BRUSSELS', 'WALLONIA', 'NETHERLANDS'] as const)(
    '%s: every loan repays its principal (the payments discounted at its rate make the principal), paybacks with support never longer',
    (region) => {
      const out = enrichTrajectory(planOf(region), { property: HOMES[region] });
      for (const f of [...out.steps.map((s) => s.financing!), out.totals.financing!]) {
        if (f.payback_years !== null) expect(f.payback_years_with_support!).toBeLessThanOrEqual(f.payback_years);
        else expect(f.payback_years_with_support).toBeNull();
        if (!f.loan) continue;
        const r = f.loan.rate_percent / 1200;
        let pv = 0;
        for (let k = 1; k <= f.loan.term_months; k++) pv += f.loan.monthly_payment_eur / (1 + r) ** k;
        expect(Math.abs(pv - f.loan.principal_eur)).toBeLessThan(0.01 * f.loan.term_months);
      }
    },
  );

  it('a step with a grant pays back sooner than the same step without one', () => {
    const plan = planOf('FLANDERS');
    const step = plan.steps.find((s) => s.subsidy_amount > 0 && s.cost_savings_eur_per_year > 0)!;
    const out = enrichTrajectory(plan, { property: HOMES.FLANDERS }).steps.find((s) => s.order === step.order)!.financing!;
    expect(out.payback_years_with_support!).toBeLessThan(out.payback_years!);
    expect(out.grant_eur).toBe(step.subsidy_amount);
  });

  it('the household decides the loan: a Flemish income above the middle category gets none, a Dutch one above 60,000 pays interest', () => {
    const rich = enrichTrajectory(planOf('FLANDERS'), {
      property: HOMES.FLANDERS,
      household: { occupants: 1, taxable_income_eur: 90_000, occupancy: 'OWNER_OCCUPIED' },
    });
    expect(rich.totals.financing!.loan).toBeNull();
    const modest = enrichTrajectory(planOf('FLANDERS'), {
      property: HOMES.FLANDERS,
      household: { occupants: 2, taxable_income_eur: 40_000 },
    });
    expect(modest.totals.financing!.loan!.product).toBe('Mijn VerbouwLening');
    const nlLow = enrichTrajectory(planOf('NETHERLANDS'), { property: HOMES.NETHERLANDS, household: { taxable_income_eur: 45_000 } });
    const nlHigh = enrichTrajectory(planOf('NETHERLANDS'), { property: HOMES.NETHERLANDS, household: { taxable_income_eur: 80_000 } });
    expect(nlLow.totals.financing!.loan!.rate_percent).toBe(0);
    expect(nlHigh.totals.financing!.loan!.rate_percent).toBeGreaterThan(0);
    expect(nlHigh.totals.financing!.loan!.monthly_payment_eur).toBeGreaterThan(nlLow.totals.financing!.loan!.monthly_payment_eur);
  });

  it('an annuity at zero rate is the principal spread evenly; a positive rate costs more', () => {
    expect(annuity(12_000, 0, 120)).toBe(100);
    expect(annuity(12_000, 2.75, 120)).toBeGreaterThan(100);
    expect(annuity(12_000, 2.75, 120) * 120).toBeLessThan(12_000 * (1 + 0.0275 * 10));
  });
});

// The normal year's degree-days are the calibration's yardstick: checked here against the stations' normals.
describe('climate normals', () => {
  it('Uccle on a 16.5 C base and De Bilt on an 18 C base give a normal year in the range of their published degree-days', () => {
    expect(normalYearDegreeDays(stationOf('FLANDERS'))).toBeGreaterThan(2000);
    expect(normalYearDegreeDays(stationOf('FLANDERS'))).toBeLessThan(2600);
    // CBS: De Bilt's 1981-2010 normal is 2,884 graaddagen counted day by day; from monthly means it is lower.
    expect(normalYearDegreeDays(stationOf('NETHERLANDS'))).toBeGreaterThan(2500);
    expect(normalYearDegreeDays(stationOf('NETHERLANDS'))).toBeLessThan(2950);
  });
});
