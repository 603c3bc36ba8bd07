import type { PropertyDescription } from '@renopath/contracts';
import { calibration, climate, MODEL_VERSION, systems } from './data.ts';
import { certificateFactor, DEFAULT_PARAMETERS, type ModelParameters } from './parameters.ts';
import { confidenceScore } from './confidence.ts';
import { deliveredEnergy, hotWaterNeed, weigh } from './energy.ts';
import { computeGeometry } from './geometry.ts';
import { heatBalance, heatLoss, type BalanceInput } from './heat-balance.ts';
import { expectedPriceErrorFor, labelFor, qualityLabelFor } from './labels.ts';
import { resolveProperty, type Resolved, type SourceOverrides } from './resolve.ts';
import type { CalibrationInfo, DataQualityFlag, Evaluation, HeatBalance, HeatLoss, PerCarrier } from './types.ts';
import { CARRIERS } from './types.ts';
import { envelopeU } from './uvalues.ts';

export interface EvaluateOptions {
  /** Where given fields came from (EPC_DOCUMENT, LIDAR, PROVIDER); given fields default to INPUT. */
  sources?: SourceOverrides;
  /** Alternative fitted parameters (calibration tooling only). */
  parameters?: ModelParameters;
}

interface Run {
  resolved: Resolved;
  geometry: Evaluation['geometry'];
  loss: HeatLoss;
  tabula: HeatBalance;
  certificate: HeatBalance;
  hotWater: number;
  delivered: PerCarrier;
  pv: number;
  /** Certificate correction of the home (data/calibration.json): modelled primary per m2 -> score. */
  scale: number;
  primaryGross: number;
  pvPrimaryCredit: number;
  modelledScore: number;
}

interface Adjustment { mode: 'RATIO' | 'SHIFT'; factor: number; shift: number }

function run(p: PropertyDescription, options: EvaluateOptions): Run {
  const params = options.parameters ?? DEFAULT_PARAMETERS;
  const resolved = resolveProperty(p, options.sources);
  const { assumed: a, cell } = resolved;
  const geometry = computeGeometry(resolved);
  const env = envelopeU(cell, a);
  const e = geometry.envelope;
  const input: BalanceInput = {
    area: a.habitable_space_m2,
    areas: { roof: e.roof_m2, wall: e.wall_m2, floor: e.floor_m2, window: e.window_m2, door: e.door_m2 },
    u: env.u,
    floorB: env.floorB,
    duTb: cell.duTb,
    nInf: cell.nInf,
    heatRecovery: systems.ventilation.heat_recovery[a.ventilation_type] ?? 0,
    g: env.g,
    orientationShare: cell.orientationShare,
    apartment: resolved.apartment,
  };
  const loss = heatLoss(input);
  const tabulaClimate = climate.countries[a.country];
  const tabula = heatBalance(input, loss, {
    setPoint: climate.tabula.set_point_c, reducedHeating: climate.tabula.reduced_heating,
    heatingDays: tabulaClimate.heating_days, meanOutdoor: tabulaClimate.mean_outdoor_c, solar: tabulaClimate.solar_kwh_per_m2,
  });
  const method = climate.certificate_methods[resolved.region];
  const certClimate = climate.countries[method.climate];
  const certificate = heatBalance(input, loss, {
    setPoint: method.set_point_c, reducedHeating: method.reduced_heating,
    heatingDays: certClimate.heating_days, meanOutdoor: certClimate.mean_outdoor_c, solar: certClimate.solar_kwh_per_m2,
  });
  const hotWater = hotWaterNeed(a.habitable_space_m2, resolved.apartment);
  const { byCarrier, pvProduction } = deliveredEnergy(a, a.country, certificate.heating_need_kwh, hotWater);
  const w = weigh(byCarrier, pvProduction, a.country);
  const scale = certificateFactor(params, resolved.region, a.year_built, a.estate_format, a.habitable_space_m2, resolved.apartment);
  return {
    resolved, geometry, loss, tabula, certificate, hotWater, delivered: byCarrier, pv: pvProduction, scale,
    primaryGross: w.primaryGross, pvPrimaryCredit: w.pvPrimaryCredit,
    modelledScore: (scale * (w.primaryGross - w.pvPrimaryCredit)) / a.habitable_space_m2,
  };
}

/** The adjustment that makes the current score equal the given one: a factor on the modelled consumption, else a shift. */
function adjustmentTo(r: Run, given: number): Adjustment {
  const A = r.resolved.assumed.habitable_space_m2;
  const factor = ((given * A) / r.scale + r.pvPrimaryCredit) / r.primaryGross;
  if (r.primaryGross > 0 && Number.isFinite(factor) && factor > 0) return { mode: 'RATIO', factor, shift: 0 };
  return { mode: 'SHIFT', factor: 1, shift: given - r.modelledScore };
}

function finish(r: Run, options: EvaluateOptions, p: PropertyDescription, adj: Adjustment | null, givenScore: number | null): Evaluation {
  const { resolved } = r;
  const a = resolved.assumed;
  const A = a.habitable_space_m2;
  const factor = adj?.factor ?? 1;
  const delivered = { ...r.delivered };
  if (factor !== 1) for (const c of CARRIERS) delivered[c] *= factor;
  const w = weigh(delivered, r.pv, a.country);
  const score = (r.scale * (w.primaryGross - w.pvPrimaryCredit)) / A + (adj?.shift ?? 0);
  const flags: DataQualityFlag[] = resolved.flags.slice();
  let cal: CalibrationInfo | null = null;
  if (adj && givenScore !== null) {
    cal = { given_score: givenScore, modelled_score: r.modelledScore, mode: adj.mode, factor: adj.factor, shift: adj.shift };
    const g = calibration.given_score;
    if (adj.mode === 'SHIFT' || adj.factor < g.plausible_factor_min || adj.factor > g.plausible_factor_max) {
      flags.push({
        field: 'energy_efficiency_score', code: 'CALIBRATION_FAR_FROM_MODEL',
        message: `energy_efficiency_score ${givenScore} is far from the modelled ${Math.round(r.modelledScore)}: check the score and the described home`,
      });
    }
  }
  const conf = confidenceScore(p, options.sources);
  return {
    region: resolved.region,
    country: a.country,
    energy_efficiency_type: resolved.scale,
    epc_score: score,
    epc_label: labelFor(resolved.scale, score),
    modelled_epc_score: r.modelledScore,
    calibration: cal,
    confidence_score: conf,
    quality_label: qualityLabelFor(conf),
    expected_price_error: expectedPriceErrorFor(conf),
    data_quality: { sources: resolved.sources, flags },
    assumed: a,
    typology: { period: resolved.cell.period, archetypes: resolved.cell.archetypes },
    geometry: r.geometry,
    heat_loss: r.loss,
    heating_need_kwh_per_m2: r.tabula.heating_need_kwh_per_m2,
    heating_need_kwh_per_year: r.tabula.heating_need_kwh,
    heat_balance: r.tabula,
    certificate_heat_balance: r.certificate,
    hot_water_need_kwh_per_year: r.hotWater,
    delivered_energy_kwh_per_year: delivered,
    pv_production_kwh_per_year: r.pv,
    primary_energy_by_carrier_kwh_per_year: w.primaryByCarrier,
    primary_energy_kwh_per_year: w.primaryGross - w.pvPrimaryCredit,
    co2_kg_per_year: w.co2,
    energy_cost_eur_per_year: w.cost,
    versions: { model: MODEL_VERSION },
  };
}

/**
 * Evaluate one property: region and scale, typology defaults with their sources, geometry, heat balance,
 * delivered/primary energy, CO2, cost, EPC score and label, confidence. Pure and deterministic.
 * With energy_efficiency_score the current score is calibrated to it.
 */
export function evaluate(property: PropertyDescription, options: EvaluateOptions = {}): Evaluation {
  const r = run(property, options);
  const given = property.energy_efficiency_score;
  const adj = given !== undefined ? adjustmentTo(r, given) : null;
  return finish(r, options, property, adj, given ?? null);
}

export interface VariantsResult {
  base: Evaluation;
  variants: Evaluation[];
}

/**
 * Evaluate the base once and each patched variant. With a given score on the base, every variant keeps the
 * base's calibration, so a measure moves the calibrated score by its modelled relative effect.
 */
export function evaluateVariants(
  base: PropertyDescription,
  patches: readonly Partial<PropertyDescription>[],
  options: EvaluateOptions = {},
): VariantsResult {
  const r = run(base, options);
  const given = base.energy_efficiency_score;
  const adj = given !== undefined ? adjustmentTo(r, given) : null;
  const baseEval = finish(r, options, base, adj, given ?? null);
  const variants = patches.map((patch) => {
    const merged = { ...base, ...patch } as PropertyDescription;
    return finish(run(merged, options), options, merged, adj, given ?? null);
  });
  return { base: baseEval, variants };
}
