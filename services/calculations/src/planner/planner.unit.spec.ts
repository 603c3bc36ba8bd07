import { describe, expect, it } from 'vitest';
import { PLANNER_DATA, applyEffect, quantityFor, valueItemSet } from '@renopath/catalog';
import { evaluate, labelsOf } from '@renopath/energy';
import { TrajectoryJobMetadata, type PropertyDescription, type TrajectoryPlan } from '@renopath/contracts';
import { planTrajectory, plannableTypes } from './index.ts';

const YEAR = 2026;

/** The reference case: an uninsulated 1960 semi-detached house in Gent. */
const GENT_1960: PropertyDescription = {
  year_built: 1960,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 150,
  zip_code: '9000',
  country: 'BE',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
  window_glazing_type: 'SINGLE_GLAZING',
  inclined_roof_insulation_type: 'NONE',
  outer_wall_insulation_type: 'NONE',
  solid_ground_floor_insulation_type: 'NONE',
};

const ENVELOPE = new Set(['ROOF_INSULATION', 'OUTER_WALL_INSULATION', 'WINDOWS', 'FLOOR_INSULATION']);
const round2 = (x: number) => Math.round(x * 100) / 100;
const types = (plan: TrajectoryPlan) => plan.steps.map((s) => s.renovation_component_type);

function expectTotalsAreSums(plan: TrajectoryPlan) {
  const sum = (f: (s: TrajectoryPlan['steps'][number]) => number) => round2(plan.steps.reduce((a, s) => a + f(s), 0));
  expect(plan.totals.estimated_cost).toBe(sum((s) => s.estimated_cost));
  expect(plan.totals.estimated_vat_cost).toBe(sum((s) => s.estimated_vat_cost));
  expect(plan.totals.subsidy_amount).toBe(sum((s) => s.subsidy_amount));
  expect(plan.totals.net_cost).toBe(sum((s) => s.net_cost));
  expect(plan.totals.total_estimated_cost_incl_vat).toBe(round2(plan.totals.estimated_cost + plan.totals.estimated_vat_cost));
  for (const s of plan.steps) {
    // A step's figures are its item plus the supporting works that joined it.
    expect(s.net_cost).toBe(round2(s.estimated_cost + s.estimated_vat_cost - s.subsidy_amount));
    expect(s.estimated_cost).toBeGreaterThanOrEqual(round2(s.supporting_works.reduce((a, w) => a + w.estimated_cost, 0)));
    for (const value of [s.estimated_cost, s.estimated_vat_cost, s.subsidy_amount, s.net_cost]) expect(round2(value)).toBe(value);
  }
}

describe('planTrajectory: the reference house (1960, uninsulated, Gent)', () => {
  const plan = planTrajectory(GENT_1960, { year: YEAR });

  it('plans at least four steps, envelope before the heat pump, each envelope and heating step improving the score', () => {
    expect(plan.steps.length).toBeGreaterThanOrEqual(4);
    expect(plan.steps.map((s) => s.order)).toEqual(plan.steps.map((_, i) => i + 1));
    const heatPump = plan.steps.findIndex((s) => s.renovation_component_type.startsWith('HEAT_PUMP'));
    expect(heatPump).toBeGreaterThan(0);
    // PREREQ_ENVELOPE_BEFORE_HEAT_PUMP read on the planned state: two envelope elements come first.
    expect(plan.steps.slice(0, heatPump).filter((s) => ENVELOPE.has(s.root_renovation_component_type)).length).toBeGreaterThanOrEqual(2);
    let before = plan.current.epc_score;
    for (const step of plan.steps) {
      // No step raises the score (ventilation rides with the airtight step); an oil tank's removal or new radiators change no figure.
      expect(step.epc_score_after).toBeLessThanOrEqual(before);
      if (!['OIL_TANK', 'HEAT_EMITTERS'].includes(step.element)) {
        expect(step.epc_score_after).toBeLessThan(before);
        expect(step.energy_savings_kwh_per_year).toBeGreaterThan(0);
      }
      before = step.epc_score_after;
    }
    // The advisor's phases, in order.
    const phases = ['ROOF', 'WALLS_AND_WINDOWS', 'FLOOR', 'VENTILATION', 'HEAT_GENERATOR', 'HOT_WATER', 'SOLAR_PANELS'];
    const order = plan.steps.map((s) => phases.indexOf(s.phase));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(types(plan)).size).toBe(plan.steps.length);
  });

  it('puts PV after the heating decision', () => {
    const pv = types(plan).indexOf('SOLAR_PANELS');
    if (pv >= 0) expect(plan.steps.slice(0, pv).some((s) => s.root_renovation_component_type === 'HEATING')).toBe(true);
  });

  it('totals are the exact sums of the steps, supporting works included in their step', () => {
    expectTotalsAreSums(plan);
    expect(plan.steps.flatMap((s) => s.supporting_works.map((w) => w.renovation_component_type))).toContain('SCAFFOLDING');
  });

  it('ends at least three labels better than today, at the Flemish target A', () => {
    const labels = labelsOf('EPC_FLANDERS');
    expect(plan.current.epc_label).toBe('E');
    expect(labels.indexOf(plan.current.epc_label) - labels.indexOf(plan.energy_efficiency_indication)).toBeGreaterThanOrEqual(3);
    expect(plan.energy_efficiency_indication).toBe(plan.steps.at(-1)!.epc_label_after);
    expect(plan.final_epc_score).toBe(plan.steps.at(-1)!.epc_score_after);
    expect(plan.target).toMatchObject({ label: 'A', reached: true });
  });

  it('marks the Flemish renovation obligation (label D for a purchase now) on the step that reaches it, once', () => {
    const marked = plan.steps.filter((s) => s.renovation_obligation !== null);
    expect(marked).toHaveLength(1);
    const step = marked[0]!;
    expect(step.renovation_obligation).toMatchObject({ rule_id: 'FL_RENOVATION_OBLIGATION_2023', label: 'D', within_years: 5 });
    const labels = labelsOf('EPC_FLANDERS');
    expect(labels.indexOf(step.epc_label_after)).toBeLessThanOrEqual(labels.indexOf('D'));
    const previous = plan.steps[step.order - 2];
    if (previous) expect(labels.indexOf(previous.epc_label_after)).toBeGreaterThan(labels.indexOf('D'));
    // A deed from 2028 on asks label C (FL_RENOVATION_OBLIGATION_2028).
    const later = planTrajectory(GENT_1960, { year: YEAR, deedDate: '2028-03-01' });
    expect(later.steps.find((s) => s.renovation_obligation)?.renovation_obligation).toMatchObject({
      label: 'C',
      rule_id: 'FL_RENOVATION_OBLIGATION_2028',
    });
  });

  it('explains every step in plain words', () => {
    for (const s of plan.steps) {
      expect(s.rationale).toMatch(/EPC score/);
      expect(s.rationale.length).toBeGreaterThan(60);
    }
    expect(plan.steps.find((s) => s.renovation_obligation)!.rationale).toMatch(/renovation obligation/);
  });

  it('says what each step does to the energy bill, a rise as plainly as a saving', () => {
    for (const s of plan.steps) {
      const words =
        s.cost_savings_eur_per_year >= 1
          ? /Expected saving on the energy bill: about EUR [\d,]+ a year/
          : s.cost_savings_eur_per_year <= -1
            ? /raises the energy bill by about EUR [\d,]+ a year/
            : null;
      if (words) expect(s.rationale, s.renovation_component_type).toMatch(words);
    }
  });

  it('prices the steps as the catalogue values the same set of items (what the renovation will show)', () => {
    const valued = valueItemSet(
      GENT_1960,
      // The renovation's items: each step's measure and a measure joined to a step (ventilation).
      plan.steps.flatMap((s) => [
        { key: String(s.order), renovation_component_type: s.renovation_component_type, quantity: s.quantity },
        ...s.supporting_works
          .filter((w) => w.joined)
          .map((w) => ({ key: `${s.order}+`, renovation_component_type: w.renovation_component_type, quantity: w.quantity })),
      ]),
      {
        country: 'BE',
        region: 'FLANDERS',
        year: YEAR,
        year_built: GENT_1960.year_built,
      },
    );
    const all = [...Object.values(valued.items).map((r) => r.priced!), ...valued.derived];
    expect(round2(all.reduce((a, p) => a + p.estimated_cost, 0))).toBe(plan.totals.estimated_cost);
    expect(round2(all.reduce((a, p) => a + p.subsidy_amount, 0))).toBe(plan.totals.subsidy_amount);
  });

  it('is a valid job metadata once the renovation id is added, with the model and catalogue versions', () => {
    const metadata = TrajectoryJobMetadata.parse({ ...plan, renovation_id: '11111111-2222-4333-8444-555555555555' });
    expect(metadata.versions.model).toMatch(/\S/);
    expect(metadata.quality_label).toMatch(/^[ABCD]$/);
    expect(metadata.expected_price_error.average_pct).toBeGreaterThan(0);
  });

  it('is deterministic', () => {
    expect(planTrajectory(GENT_1960, { year: YEAR })).toEqual(plan);
  });
});

describe('planTrajectory: what a home can take', () => {
  it('never fills a cavity that is missing, unknown or narrower than 5 cm', () => {
    const fillable = {
      ...GENT_1960,
      has_cavity_wall: true,
      cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM' as const,
      has_cavity_wall_insulation: false,
    };
    expect(plannableTypes(fillable)).toContain('CAVITY_WALL_INSULATION');
    for (const walls of [{ has_cavity_wall: false }, { has_cavity_wall: true, cavity_wall_width: 'LESS_THAN_5_CM' as const }, {}]) {
      const home = { ...GENT_1960, ...walls };
      expect(plannableTypes(home)).not.toContain('CAVITY_WALL_INSULATION');
      expect(types(planTrajectory(home, { year: YEAR }))).not.toContain('CAVITY_WALL_INSULATION');
    }
  });

  it('offers an all-electric heat pump only to an insulated envelope; a hybrid at once', () => {
    expect(plannableTypes(GENT_1960)).toEqual(expect.arrayContaining(['HEAT_PUMP_HYBRID', 'EXTERIOR_WALL_INSULATION']));
    expect(plannableTypes(GENT_1960)).not.toContain('HEAT_PUMP_AIR_WATER');
    expect(plannableTypes({ ...GENT_1960, outer_wall_insulation_type: 'MODERATE', window_glazing_type: 'HR' })).toContain(
      'HEAT_PUMP_AIR_WATER',
    );
  });

  it('plans nothing for a home whose every element is at the standard, and says what it kept', () => {
    const plan = planTrajectory(
      {
        year_built: 2019,
        estate_format: 'SEMI_OPEN',
        habitable_space_m2: 150,
        zip_code: '9000',
        country: 'BE',
        roof_type: 'INCLINED',
        inclined_roof_insulation_type: 'STRONG',
        outer_wall_insulation_type: 'STRONG',
        window_glazing_type: 'TRIPLE_GLAZING',
        basement_type: 'NONE',
        solid_ground_floor_insulation_type: 'STRONG',
        ventilation_type: 'SYSTEM_D',
        heating_type: 'HEAT_PUMP',
        heating_device: 'AIR_WATER_HEAT_PUMP',
        installation_age: 'FIVE_TO_TEN_YEARS_OLD',
        heat_emitter_type: 'FLOOR_HEATING',
        sanitary_heating_device: 'NOT_SEPARATED',
        has_solar_panels: true,
        solar_panels_kwp: 5,
      },
      { year: YEAR },
    );
    expect(plan.steps).toEqual([]);
    expect(plan.totals).toEqual({
      estimated_cost: 0,
      estimated_vat_cost: 0,
      subsidy_amount: 0,
      total_estimated_cost_incl_vat: 0,
      net_cost: 0,
    });
    expect(plan.target.reached).toBe(true);
    expect(plan.left_out.find((o) => o.element === 'HEAT_GENERATOR')).toMatchObject({
      code: 'KEPT',
      reason: expect.stringMatching(/under ten years/),
    });
    expect(plan.left_out.find((o) => o.element === 'SOLAR_PANELS')).toMatchObject({ code: 'KEPT' });
  });

  it('stops with CALIBRATION_CONFLICT when a given score contradicts the described home (an A on a bare house): no works, the reason', () => {
    const plan = planTrajectory({ ...GENT_1960, year_built: 2020, energy_efficiency_score: 60 }, { year: YEAR });
    expect(plan.current.epc_label).toBe('A');
    expect(plan.stopped?.code).toBe('CALIBRATION_CONFLICT');
    expect(plan.stopped?.reason).toMatch(/60/);
    expect(plan.steps).toEqual([]);
    expect(plan.totals.estimated_cost).toBe(0);
    // A score the description can have is planned on.
    const plausible = planTrajectory({ ...GENT_1960, energy_efficiency_score: 520 }, { year: YEAR });
    expect(plausible.stopped).toBeNull();
    expect(plausible.steps.length).toBeGreaterThan(0);
  });

  it('keeps a given score: the plan starts from the calibrated current score', () => {
    const plan = planTrajectory({ ...GENT_1960, energy_efficiency_score: 520 }, { year: YEAR });
    expect(plan.current).toMatchObject({ epc_score: 520, epc_label: 'F' });
    expect(plan.steps.length).toBeGreaterThan(0);
  });

  it('marks the Brussels target (class C: C+, C or C-) on the step that reaches it and goes on; walls are insulated from inside', () => {
    const plan = planTrajectory({ ...GENT_1960, zip_code: '1050' }, { year: YEAR });
    expect(plan.region).toBe('BRUSSELS');
    expect(plan.energy_efficiency_type).toBe('EPC_BRUSSELS');
    const target = PLANNER_DATA.targets.find((t) => t.region === 'BRUSSELS')!;
    const labels = labelsOf('EPC_BRUSSELS');
    const meets = (label: string) => labels.indexOf(label) <= labels.indexOf(target.worst_label_meeting_target);
    expect(plan.steps.length).toBeGreaterThan(0);
    expect(meets(plan.energy_efficiency_indication)).toBe(true);
    // The target is marked once, on the first step that meets it; the plan goes on to the other elements.
    const marked = plan.steps.filter((s) => s.milestones.some((m) => m.kind === 'TARGET'));
    expect(marked).toHaveLength(1);
    expect(meets(marked[0]!.epc_label_after)).toBe(true);
    for (const s of plan.steps.slice(0, marked[0]!.order - 1)) expect(meets(s.epc_label_after)).toBe(false);
    expect(plan.steps.at(-1)!.order).toBeGreaterThan(marked[0]!.order);
    expect(plan.steps.find((s) => s.element === 'WALLS')?.renovation_component_type).toBe('INTERIOR_WALL_INSULATION');
    expect(plan.left_out).toContainEqual(expect.objectContaining({ element: 'WALLS', code: 'PERMIT' }));
    // Flanders, same house, goes on to A.
    expect(labelsOf('EPC_FLANDERS').indexOf(planTrajectory(GENT_1960, { year: YEAR }).energy_efficiency_indication)).toBeLessThanOrEqual(1);
    expect(plan.steps.every((s) => s.renovation_obligation === null)).toBe(true);
  });

  it('plans a Dutch home on the NL label scale, priced in the Netherlands', () => {
    const plan = planTrajectory(
      {
        year_built: 1965,
        estate_format: 'CLOSED',
        habitable_space_m2: 110,
        zip_code: '3731 AB',
        country: 'NL',
        heating_type: 'GAS',
        heating_device: 'CONDENSING_BOILER',
        window_glazing_type: 'DOUBLE_GLAZING',
      },
      { year: YEAR },
    );
    expect(plan.region).toBe('NETHERLANDS');
    expect(plan.energy_efficiency_type).toBe('ENERGY_LABEL_NL');
    expect(plan.steps.length).toBeGreaterThan(0);
    expect(labelsOf('ENERGY_LABEL_NL').indexOf(plan.energy_efficiency_indication)).toBeLessThan(
      labelsOf('ENERGY_LABEL_NL').indexOf(plan.current.epc_label),
    );
    expectTotalsAreSums(plan);
    expect(plan.steps.every((s) => s.renovation_obligation === null)).toBe(true);
  });

  it('says where each item goes: roof works on a roof of their kind, the rest in the general scope', () => {
    const plan = planTrajectory(
      { ...GENT_1960, roof_type: 'FLAT', inclined_roof_insulation_type: undefined, flat_roof_insulation_type: 'NONE' },
      { year: YEAR },
    );
    const roof = plan.steps.find((s) => s.root_renovation_component_type === 'ROOF_INSULATION')!;
    expect(roof).toMatchObject({ renovation_component_type: 'FLAT_ROOF_INSULATION', scope: 'ROOF', roof_kind: 'FLAT' });
    for (const s of plan.steps.filter((x) => x !== roof)) expect(s).toMatchObject({ scope: 'GENERAL', roof_kind: null });
  });

  it('states the income category it assumed, and a stated one changes the grants', () => {
    const middle = planTrajectory(GENT_1960, { year: YEAR });
    expect(middle.assumptions.join(' ')).toMatch(/MIDDLE/);
    const low = planTrajectory(GENT_1960, { year: YEAR, incomeCategory: 'LOW' });
    expect(low.assumptions.join(' ')).not.toMatch(/MIDDLE assumed/);
    expect(low.totals.subsidy_amount).toBeGreaterThan(middle.totals.subsidy_amount);
  });

  it("marks the Walloon buyers' obligation (postponed to deeds from 2028) with its deadline, and the rental norm on the step that reaches label D", () => {
    const namur = { ...GENT_1960, zip_code: '5000', heating_type: 'FUEL_OIL' as const };
    const after = planTrajectory(namur, { year: YEAR, household: { purchase_date: '2028-03-01' } });
    expect(after.region).toBe('WALLONIA');
    const marks = after.steps.flatMap((s) => s.milestones.map((m) => ({ ...m, order: s.order, label_after: s.epc_label_after })));
    const obligation = marks.find((m) => m.kind === 'OBLIGATION');
    expect(obligation).toMatchObject({ label: 'D', binds: 'BUYER', deadline: '2033-03-01' });
    expect(obligation!.applies_because).toContain('2028-03-01');
    const labels = labelsOf('EPC_WALLONIA');
    expect(labels.indexOf(obligation!.label_after)).toBeLessThanOrEqual(labels.indexOf('D'));
    expect(marks.filter((m) => m.kind === 'RENTAL_NORM').length).toBeGreaterThan(0);
    // A deed in 2026 brings no obligation (the July 2026 date was postponed); the rental norm stays unless the owner lives there.
    const before = planTrajectory(namur, { year: YEAR, household: { purchase_date: '2026-08-01' } });
    expect(before.steps.flatMap((s) => s.milestones).some((m) => m.kind === 'OBLIGATION')).toBe(false);
    const ifLet = before.steps.flatMap((s) => s.milestones).filter((m) => m.kind === 'RENTAL_NORM');
    expect(ifLet.length).toBeGreaterThan(0);
    // Occupancy not given: the landlords' norm applies only if the home is let, and is never a missed milestone.
    for (const m of ifLet) expect(m.applies_because).toMatch(/if the home is let/);
    const owner = planTrajectory(namur, { year: YEAR, household: { purchase_date: '2026-08-01', occupancy: 'OWNER_OCCUPIED' } });
    expect([...owner.steps.flatMap((s) => s.milestones), ...owner.milestones_missed].some((m) => m.kind === 'RENTAL_NORM')).toBe(false);
    // Leaving fuel oil: the tank goes right after the heat pump, in the heat generator's phase.
    const tank = after.steps.find((s) => s.element === 'OIL_TANK')!;
    expect(after.steps[tank.order - 2]!.phase).toBe('HEAT_GENERATOR');
    expect(tank.phase).toBe('HEAT_GENERATOR');
  });

  it('says which elements it left out and why: a kept heat pump, existing panels, an element already good', () => {
    const plan = planTrajectory(
      {
        ...GENT_1960,
        heating_type: 'HEAT_PUMP',
        heating_device: 'AIR_WATER_HEAT_PUMP',
        installation_age: 'ZERO_TO_FIVE_YEARS_OLD',
        has_solar_panels: true,
        solar_panels_kwp: 4,
        window_glazing_type: 'TRIPLE_GLAZING',
        has_renewed_window_frames: true,
      },
      { year: YEAR },
    );
    expect(plan.steps.map((s) => s.element)).not.toEqual(expect.arrayContaining(['HEAT_GENERATOR']));
    expect(plan.steps.map((s) => s.element)).not.toContain('SOLAR_PANELS');
    expect(plan.steps.map((s) => s.element)).not.toContain('WINDOWS');
    expect(plan.left_out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ element: 'HEAT_GENERATOR', code: 'KEPT', reason: expect.stringMatching(/under ten years old/) }),
        expect.objectContaining({ element: 'SOLAR_PANELS', code: 'KEPT' }),
        expect.objectContaining({ element: 'WINDOWS', code: 'ALREADY_GOOD' }),
      ]),
    );
  });

  it("sizes the panels on the electricity use after the works, within the roof, and the heat pump's rationale on the insulated home", () => {
    const plan = planTrajectory(GENT_1960, { year: YEAR });
    const pv = plan.steps.find((s) => s.element === 'SOLAR_PANELS')!;
    expect(pv.quantity).toBeGreaterThan(0);
    const sizing = plan.assumptions.find((a) => /solar panels (are sized|fill)/.test(a))!;
    expect(sizing).toMatch(/electricity use|fill the usable roof/);
    // Within the roof: what the usable pitched roof takes.
    const roofKwpOf = (home: PropertyDescription) => {
      const e = evaluate(home);
      return quantityFor('SOLAR_PANELS', {
        ...home,
        roof_type: 'INCLINED',
        roof_surface: e.geometry.envelope.roof_m2 * (1 - e.assumed.flat_roof_share),
      });
    };
    expect(pv.quantity).toBeLessThanOrEqual(roofKwpOf(GENT_1960));
    // A small insulated bungalow with a young heat pump uses less than its wide roof could make: fewer panels than the roof takes.
    const bungalow: PropertyDescription = {
      year_built: 2000,
      estate_format: 'OPEN',
      estate_type: 'BUNGALOW',
      number_of_floors: 1,
      habitable_space_m2: 90,
      zip_code: '9000',
      country: 'BE',
      roof_type: 'INCLINED',
      attic_usage: 'NOT_USED',
      inclined_roof_insulation_type: 'STRONG',
      outer_wall_insulation_type: 'MODERATE',
      window_glazing_type: 'HR',
      has_renewed_window_frames: true,
      basement_type: 'NONE',
      solid_ground_floor_insulation_type: 'MODERATE',
      ventilation_type: 'SYSTEM_C',
      heating_type: 'HEAT_PUMP',
      heating_device: 'AIR_WATER_HEAT_PUMP',
      installation_age: 'ZERO_TO_FIVE_YEARS_OLD',
      heat_emitter_type: 'FLOOR_HEATING',
      sanitary_heating_device: 'NOT_SEPARATED',
    };
    const small = planTrajectory(bungalow, { year: YEAR });
    expect(small.steps.map((s) => s.element)).toEqual(['SOLAR_PANELS']);
    expect(small.steps[0]!.quantity).toBeLessThan(roofKwpOf(bungalow));
    expect(small.assumptions.join(' ')).toMatch(
      /Rule PV_SIZED_ON_NEW_USE: the solar panels are sized to produce about \d+% of the home's electricity use/,
    );
    // Never sized to cover all of the use: beyond the share the home uses itself, extra kWh are exported at the feed-in price.
    const produced = evaluate(
      applyEffect('SOLAR_PANELS', bungalow, small.steps[0]!.quantity) as PropertyDescription,
    ).pv_production_kwh_per_year;
    const use = evaluate(bungalow).expected_use_kwh_per_year.ELECTRICITY + PLANNER_DATA.pv_sizing.household_kwh_per_year.BE;
    expect(produced).toBeLessThan(use);
    const hp = plan.steps.find((s) => s.element === 'HEAT_GENERATOR')!;
    expect(hp.rationale).toMatch(/needs about [\d.]+ kW on the coldest design day instead of [\d.]+ kW today/);
  });
});
