import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { evaluate, evaluateVariants } from './evaluate.ts';
import { windowOf } from './uvalues.ts';

// The measures the catalogue patches must act physically, each on its own (issue 10).
const old: PropertyDescription = {
  year_built: 1965,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 150,
  zip_code: '9000',
  country: 'BE',
  window_glazing_type: 'DOUBLE_GLAZING',
  outer_wall_insulation_type: 'NONE',
  inclined_roof_insulation_type: 'LIGHT',
  heating_type: 'GAS',
  heating_device: 'CONDENSING_BOILER',
  has_solar_panels: false,
};

describe('windows (data/envelope.json windows)', () => {
  it('HR glass in new frames reaches 2025 products (Uw 1.2-1.5, Flemish Uw <= 1.5); glass-only stays worse', () => {
    expect(windowOf('HR', true, 1965).u).toBeGreaterThanOrEqual(1.2);
    expect(windowOf('HR', true, 1965).u).toBeLessThanOrEqual(1.5);
    expect(windowOf('HR', false, 1965).u).toBeGreaterThan(1.7);
  });

  it('full replacement saves more than glass-only replacement, which saves more than nothing', () => {
    const { base, variants } = evaluateVariants(old, [
      { window_glazing_type: 'HR' },
      { window_glazing_type: 'HR', has_renewed_window_frames: true },
    ]);
    const [glassOnly, full] = variants;
    expect(glassOnly!.epc_score).toBeLessThan(base.epc_score);
    expect(full!.epc_score).toBeLessThan(glassOnly!.epc_score);
  });

  it('a recent home stated with "double glazing" keeps its own HR-era windows', () => {
    const e = evaluate({
      year_built: 2018,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 150,
      zip_code: '9000',
      country: 'BE',
      window_glazing_type: 'DOUBLE_GLAZING',
    });
    expect(e.heat_loss.u_values_w_per_m2k.window).toBeLessThan(2);
  });
});

describe('walls, airtightness, emitters, design load', () => {
  it('a cavity fill alone brings the wall to about U 0.55, not to MODERATE (0.3-0.45)', () => {
    const u = evaluate({ ...old, has_cavity_wall: true, has_cavity_wall_insulation: true }).heat_loss.u_values_w_per_m2k.wall;
    expect(u).toBeGreaterThan(0.45);
    expect(u).toBeLessThan(0.65);
    expect(evaluate({ ...old, outer_wall_insulation_type: 'MODERATE' }).heat_loss.u_values_w_per_m2k.wall).toBeLessThan(0.45);
  });

  it('airtightness works (a measured v50) lower the ventilation loss and the score', () => {
    const leaky = evaluate({ ...old, air_tightness_v50: 12 });
    const tight = evaluate({ ...old, air_tightness_v50: 3 });
    expect(tight.heat_loss.h_ventilation_w_per_k).toBeLessThan(leaky.heat_loss.h_ventilation_w_per_k);
    expect(tight.epc_score).toBeLessThan(leaky.epc_score);
  });

  it('a heat pump works better on floor heating than on radiators, and the planner sees its SPF', () => {
    const hp = { ...old, heating_type: 'HEAT_PUMP', heating_device: 'AIR_WATER_HEAT_PUMP' } as const;
    const radiators = evaluate({ ...hp, heat_emitter_type: 'RADIATORS' });
    const floor = evaluate({ ...hp, heat_emitter_type: 'FLOOR_HEATING' });
    expect(floor.heat_pump_spf.AIR_WATER_HEAT_PUMP).toBeGreaterThan(radiators.heat_pump_spf.AIR_WATER_HEAT_PUMP);
    expect(floor.epc_score).toBeLessThan(radiators.epc_score);
  });

  it('exposes the design heat load (kW), lower after insulation', () => {
    const e = evaluate(old);
    expect(e.design_heat_load_kw).toBeGreaterThan(5);
    expect(e.design_heat_load_kw).toBeLessThan(40);
    expect(evaluate({ ...old, outer_wall_insulation_type: 'STRONG' }).design_heat_load_kw).toBeLessThan(e.design_heat_load_kw);
  });
});

describe('the Netherlands', () => {
  it('an undescribed Dutch boiler of any age is an HR (condensing) boiler', () => {
    expect(
      evaluate({ year_built: 1965, estate_format: 'CLOSED', habitable_space_m2: 110, zip_code: '3731 AB', country: 'NL' }).assumed
        .heating_device,
    ).toBe('CONDENSING_BOILER');
  });
});

describe('confidence is honest', () => {
  const be: PropertyDescription = { year_built: 1965, estate_format: 'CLOSED', habitable_space_m2: 110, zip_code: '9000', country: 'BE' };
  it('lower where no certificate validated the model (the Netherlands)', () => {
    expect(evaluate({ ...be, zip_code: '3731 AB', country: 'NL' }).confidence_score).toBeLessThan(evaluate(be).confidence_score);
  });
  it('lower with a warning flag such as CALIBRATION_FAR_FROM_MODEL', () => {
    const far = evaluate({ ...be, energy_efficiency_score: 5000 });
    expect(far.data_quality.flags.map((f) => f.code)).toContain('CALIBRATION_FAR_FROM_MODEL');
    expect(far.confidence_score).toBeLessThan(evaluate({ ...be, energy_efficiency_score: evaluate(be).epc_score }).confidence_score);
  });
  it('gives the expected score error measured for its level', () => {
    const e = evaluate(be);
    expect(e.expected_score_error.extrapolated).toBe(false);
    expect(e.expected_score_error.median_pct).toBeGreaterThan(0);
  });
});
