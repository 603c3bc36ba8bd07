import { InsulationLevel, type Country, type PropertyDescription, type Region } from '@renopath/contracts';
import { calibration, climate, levelOfU, glazingOfU, MODEL_VERSION, stock, systems, type TypologyCell } from './data.ts';
import { DEFAULT_PARAMETERS, stockLevel, type ModelParameters } from './parameters.ts';
import { confidenceScore, expectedScoreError } from './confidence.ts';
import { costOf, deliveredEnergy, expectedUseShare, heatPumpSpf, hotWaterNeed, weigh, type StockSystems } from './energy.ts';
import { computeGeometry } from './geometry.ts';
import { heatBalance, heatLoss, type BalanceInput } from './heat-balance.ts';
import { expectedPriceErrorFor, labelFor, qualityLabelFor } from './labels.ts';
import { resolveProperty, typicalKwp, type Resolved, type SourceOverrides } from './resolve.ts';
import type {
  AssumedProperty,
  CalibrationInfo,
  DataQualityFlag,
  Evaluation,
  HeatBalance,
  HeatLoss,
  PerCarrier,
  StockInfo,
} from './types.ts';
import { CARRIERS } from './types.ts';
import { envelopeU, hasNewFrames, type EnvelopeU, type Known } from './uvalues.ts';

export interface EvaluateOptions {
  /** Where given fields came from (EPC_DOCUMENT, LIDAR, PROVIDER); given fields default to INPUT. */
  sources?: SourceOverrides;
  /** Alternative stock parameters (calibration tooling only). */
  parameters?: ModelParameters;
}

interface Run {
  resolved: Resolved;
  assumed: AssumedProperty;
  stock: StockInfo;
  geometry: Evaluation['geometry'];
  loss: HeatLoss;
  tabula: HeatBalance;
  certificate: HeatBalance;
  hotWater: number;
  delivered: PerCarrier;
  /** Delivered energy of the household's expected use (the prebound effect on space heating): what the bill is of. */
  expectedUse: PerCarrier;
  /** The storage heaters' electricity, charged on the night tariff. */
  nightKwh: number;
  pv: number;
  primaryGross: number;
  pvPrimaryCredit: number;
  modelledScore: number;
  designLoadKw: number;
}

interface Adjustment {
  mode: 'RATIO' | 'SHIFT';
  factor: number;
  shift: number;
}

const STATE = stock.renovated_state;
const INFILTRATION = systems.ventilation.infiltration.flow_per_v50;
const RENEWED = systems.ventilation.infiltration.renovated;
const LEVELS = InsulationLevel.options;

/**
 * The archetype's infiltration, moved towards a recent airtight home's by the share of envelope the client describes
 * as renewed: better than the period built it (a home described as built keeps its archetype's infiltration).
 */
function renewedInfiltration(
  archetype: number,
  a: AssumedProperty,
  known: Resolved['known'],
  cell: TypologyCell,
  u: EnvelopeU['u'],
): number {
  if (archetype <= RENEWED.n_inf) return archetype;
  // Renewed: at least the minimum level, and clearly better than the period's own construction (data/systems.json better_than_built).
  const renewed = (l: InsulationLevel | null, e: 'roof' | 'wall') =>
    l !== null && LEVELS.indexOf(l) >= LEVELS.indexOf(RENEWED.min_level) && u[e] < (1 - RENEWED.better_than_built) * cell.u[e];
  const w = RENEWED.weights;
  // Triple glass in a period built with it is its own construction, not a renewal.
  const windows = known.window && hasNewFrames(a) && (a.has_renewed_window_frames === true || cell.typical.window !== 'TRIPLE_GLAZING');
  const roof =
    (known.inclinedRoof && renewed(a.inclined_roof_insulation_type, 'roof')) ||
    (known.flatRoof && renewed(a.flat_roof_insulation_type, 'roof'));
  const wall = known.wall && renewed(a.outer_wall_insulation_type, 'wall');
  const share = (windows ? w.windows : 0) + (roof ? w.roof : 0) + (wall ? w.wall : 0);
  return archetype - share * (archetype - RENEWED.n_inf);
}
const RECOVERY: Readonly<Record<string, number>> = systems.ventilation.heat_recovery;
const has = (p: PropertyDescription, f: string) => p.eco_facilities !== undefined && (p.eco_facilities as readonly string[]).includes(f);

/** An undescribed boiler: condensing with a probability that ramps with the year, moved by the stock level. */
function condensingShareOf(p: PropertyDescription, a: AssumedProperty, level: number): number | null {
  if (p.heating_device !== undefined || (a.heating_device !== 'NON_CONDENSING_BOILER' && a.heating_device !== 'CONDENSING_BOILER'))
    return null;
  const d = systems.defaults;
  const from = d.condensing_from_year_built[a.country];
  const prior =
    p.installation_age === undefined && p.year_renovated === undefined
      ? Math.min(1, Math.max(0, (a.year_built - from + d.condensing_ramp_half_width_years) / (2 * d.condensing_ramp_half_width_years)))
      : a.heating_device === 'CONDENSING_BOILER'
        ? 1
        : 0;
  return level >= 0 ? prior + (1 - prior) * Math.min(1, level) : prior + level;
}

/** `detail` false: the figures only, without the data quality (resolveProperty). */
function run(p: PropertyDescription, options: EvaluateOptions, detail = true): Run {
  const params = options.parameters ?? DEFAULT_PARAMETERS;
  const resolved = resolveProperty(p, options.sources, detail);
  const { cell } = resolved;
  let a = resolved.assumed;
  // The stock level fills what the client did not describe (data/stock.json); described parts stay as given.
  const level = stockLevel(params, resolved.region, resolved.apartment, a.year_built, a.habitable_space_m2, a.zip_code);
  const stocked = withStockSystems(p, resolved, a, level);
  const { stockSystems, expectedKwp } = stocked;
  a = stocked.assumed;
  const geometry = computeGeometry(resolved);
  const env = envelopeU(resolved.blend, cell, a, resolved.known, level);
  const e = geometry.envelope;
  // A measured v50 replaces the archetype's infiltration (EPB: 0.04 x v50 x envelope area, per ventilated volume);
  // without one, a described renewed envelope leaks less than the archetype (data/systems.json infiltration.renovated).
  const nInf =
    a.air_tightness_v50 !== null
      ? (INFILTRATION * a.air_tightness_v50 * e.total_m2) / (climate.heat_balance.room_height_m * a.habitable_space_m2)
      : renewedInfiltration(cell.nInf, a, resolved.known, cell, env.u);
  const input: BalanceInput = {
    area: a.habitable_space_m2,
    areas: { roof: e.roof_m2, wall: e.wall_m2, floor: e.floor_m2, window: e.window_m2, door: e.door_m2 },
    u: env.u,
    floorB: env.floorB,
    duTb: cell.duTb,
    nInf,
    heatRecovery:
      (1 - stockSystems.heatRecoveryShare) * (RECOVERY[a.ventilation_type] ?? 0) +
      stockSystems.heatRecoveryShare * (RECOVERY.SYSTEM_D ?? 0),
    g: env.g,
    orientationShare: cell.orientationShare,
    apartment: resolved.apartment,
  };
  const loss = heatLoss(input);
  const { tabula, certificate } = balancesOf(input, loss, a.country, resolved.region);
  const hotWater = hotWaterNeed(a.habitable_space_m2, resolved.apartment, a.country);
  const { byCarrier, pvProduction } = deliveredEnergy(a, a.country, certificate.heating_need_kwh, hotWater, stockSystems);
  // The bill: the need at TABULA's everyday conditions, of which a household uses the expected share (data/factors.json).
  const expectedUse = deliveredEnergy(
    a,
    a.country,
    tabula.heating_need_kwh * expectedUseShare(tabula.heating_need_kwh_per_m2),
    hotWater,
    stockSystems,
  ).byCarrier;
  // Storage heaters charge on the night tariff: their space-heating electricity (the use without hot water's part).
  const nightKwh =
    a.heating_device === 'DIRECT_ACCUMULATION'
      ? expectedUse.ELECTRICITY - deliveredEnergy(a, a.country, 0, hotWater, stockSystems).byCarrier.ELECTRICITY
      : 0;
  const w = weigh(byCarrier, pvProduction, a.country);
  const design = climate.design;
  const designLoadKw =
    ((loss.h_transmission_w_per_k + loss.h_ventilation_w_per_k) * (design.indoor_c - design.outdoor_c[a.country])) / 1000;
  a = reportedLevels(a, resolved.known, env.u);
  return {
    resolved,
    assumed: a,
    geometry,
    loss,
    tabula,
    certificate,
    hotWater,
    delivered: byCarrier,
    expectedUse,
    nightKwh,
    pv: pvProduction,
    stock: {
      level,
      condensing_share: stockSystems.condensingShare,
      heat_pump_share: stockSystems.heatPumpShare,
      expected_pv_kwp: expectedKwp,
      heat_recovery_share: stockSystems.heatRecoveryShare,
    },
    primaryGross: w.primaryGross,
    pvPrimaryCredit: w.pvPrimaryCredit,
    modelledScore: (w.primaryGross - w.pvPrimaryCredit) / a.habitable_space_m2,
    designLoadKw,
  };
}

/**
 * The stock's share of condensing boilers, heat pumps, heat recovery and PV at the home's stock level, for what the
 * client did not describe; the assumed home takes the likelier boiler and the expected PV.
 */
function withStockSystems(p: PropertyDescription, resolved: Resolved, assumed: AssumedProperty, level: number) {
  let a = assumed;
  const beyond = Math.min(1, Math.max(0, level - 1));
  const ventilationKnown = p.ventilation_type !== undefined || has(p, 'VENTILATION_C') || has(p, 'VENTILATION_D');
  const stockSystems: StockSystems = {
    condensingShare: condensingShareOf(p, a, level),
    heatPumpShare: resolved.heatingKnown ? 0 : beyond * STATE.heat_pump_share_max,
    heatRecoveryShare: ventilationKnown ? 0 : Math.min(1, Math.max(0, level - 2)) * STATE.heat_recovery_share_max,
  };
  if (stockSystems.condensingShare !== null) {
    a = { ...a, heating_device: stockSystems.condensingShare >= 0.5 ? 'CONDENSING_BOILER' : 'NON_CONDENSING_BOILER' };
  }
  const expectedKwp = resolved.pvKnown ? 0 : beyond * STATE.pv_share_max * typicalKwp(a.habitable_space_m2, resolved.apartment);
  if (expectedKwp > 0) a = { ...a, solar_panels_kwp: expectedKwp };
  return { assumed: a, stockSystems, expectedKwp };
}

/** The heat balance at TABULA's everyday conditions and at the region's certificate method's. */
function balancesOf(input: BalanceInput, loss: HeatLoss, country: Country, region: Region) {
  const tabulaClimate = climate.countries[country];
  const tabula = heatBalance(input, loss, {
    setPoint: climate.tabula.set_point_c,
    reducedHeating: climate.tabula.reduced_heating,
    heatingDays: tabulaClimate.heating_days,
    meanOutdoor: tabulaClimate.mean_outdoor_c,
    solar: tabulaClimate.solar_kwh_per_m2,
  });
  const method = climate.certificate_methods[region];
  const certClimate = climate.countries[method.climate];
  const certificate = heatBalance(input, loss, {
    setPoint: method.set_point_c,
    reducedHeating: method.reduced_heating,
    heatingDays: certClimate.heating_days,
    meanOutdoor: certClimate.mean_outdoor_c,
    solar: certClimate.solar_kwh_per_m2,
  });
  return { tabula, certificate };
}

/** Undescribed elements are reported at the level their stock U corresponds to. */
function reportedLevels(a: AssumedProperty, k: Known, u: EnvelopeU['u']): AssumedProperty {
  if (
    !k.wall ||
    !k.window ||
    (!k.inclinedRoof && a.inclined_roof_insulation_type !== null) ||
    (!k.flatRoof && a.flat_roof_insulation_type !== null)
  ) {
    a = {
      ...a,
      outer_wall_insulation_type: k.wall ? a.outer_wall_insulation_type : levelOfU('wall', u.wall),
      window_glazing_type: k.window ? a.window_glazing_type : glazingOfU(u.window),
      inclined_roof_insulation_type:
        k.inclinedRoof || a.inclined_roof_insulation_type === null ? a.inclined_roof_insulation_type : levelOfU('roof', u.roof),
      flat_roof_insulation_type:
        k.flatRoof || a.flat_roof_insulation_type === null ? a.flat_roof_insulation_type : levelOfU('roof', u.roof),
    };
  }
  return a;
}

/** The adjustment that makes the current score equal the given one: a factor on the modelled consumption, else a shift. */
function adjustmentTo(r: Run, given: number): Adjustment {
  const A = r.assumed.habitable_space_m2;
  const factor = (given * A + r.pvPrimaryCredit) / r.primaryGross;
  if (r.primaryGross > 0 && Number.isFinite(factor) && factor > 0) return { mode: 'RATIO', factor, shift: 0 };
  return { mode: 'SHIFT', factor: 1, shift: given - r.modelledScore };
}

/** The delivered energy as calibrated, weighed, and the score it gives. */
function scored(r: Run, adj: Adjustment | null) {
  const a = r.assumed;
  const factor = adj?.factor ?? 1;
  const delivered = { ...r.delivered };
  const expected = { ...r.expectedUse };
  if (factor !== 1)
    for (const c of CARRIERS) {
      delivered[c] *= factor;
      expected[c] *= factor;
    }
  const w = weigh(delivered, r.pv, a.country);
  const cost = costOf(expected, r.pv, a.country, r.nightKwh * factor);
  return { delivered, expected, w, cost, score: (w.primaryGross - w.pvPrimaryCredit) / a.habitable_space_m2 + (adj?.shift ?? 0) };
}

function finish(r: Run, options: EvaluateOptions, p: PropertyDescription, adj: Adjustment | null, givenScore: number | null): Evaluation {
  const { resolved } = r;
  const a = r.assumed;
  const { delivered, expected, w, cost, score } = scored(r, adj);
  const flags: DataQualityFlag[] = resolved.flags.slice();
  let cal: CalibrationInfo | null = null;
  if (adj && givenScore !== null) {
    cal = { given_score: givenScore, modelled_score: r.modelledScore, mode: adj.mode, factor: adj.factor, shift: adj.shift };
    const g = calibration.given_score;
    if (adj.mode === 'SHIFT' || adj.factor < g.plausible_factor_min || adj.factor > g.plausible_factor_max) {
      flags.push({
        field: 'energy_efficiency_score',
        code: 'CALIBRATION_FAR_FROM_MODEL',
        message: `energy_efficiency_score ${givenScore} is far from the modelled ${Math.round(r.modelledScore)}: check the score and the described home`,
      });
    }
  }
  const conf = confidenceScore(p, options.sources, { region: resolved.region, flags });
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
    expected_score_error: expectedScoreError(conf),
    data_quality: { sources: resolved.sources, flags },
    assumed: a,
    typology: { period: resolved.cell.period, archetypes: resolved.cell.archetypes },
    geometry: r.geometry,
    heat_loss: r.loss,
    design_heat_load_kw: r.designLoadKw,
    heat_pump_spf: heatPumpSpf(a),
    stock: r.stock,
    heating_need_kwh_per_m2: r.tabula.heating_need_kwh_per_m2,
    heating_need_kwh_per_year: r.tabula.heating_need_kwh,
    heat_balance: r.tabula,
    certificate_heat_balance: r.certificate,
    hot_water_need_kwh_per_year: r.hotWater,
    delivered_energy_kwh_per_year: delivered,
    expected_use_kwh_per_year: expected,
    pv_production_kwh_per_year: r.pv,
    primary_energy_by_carrier_kwh_per_year: w.primaryByCarrier,
    primary_energy_kwh_per_year: w.primaryGross - w.pvPrimaryCredit,
    co2_kg_per_year: w.co2,
    energy_cost_eur_per_year: cost,
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
  const { evaluation, adj } = calibratedBase(base, options);
  const given = base.energy_efficiency_score ?? null;
  const variants = patches.map((patch) => {
    const merged = { ...base, ...patch } as PropertyDescription;
    return finish(run(merged, options), options, merged, adj, given);
  });
  return { base: evaluation, variants };
}

/** The base evaluated in full, and the calibration to its given score that its variants keep. */
function calibratedBase(base: PropertyDescription, options: EvaluateOptions): { evaluation: Evaluation; adj: Adjustment | null } {
  const r = run(base, options);
  const given = base.energy_efficiency_score;
  const adj = given !== undefined ? adjustmentTo(r, given) : null;
  return { evaluation: finish(r, options, base, adj, given ?? null), adj };
}

/** A variant's figures, without its data quality: what comparing measures needs (the planner's candidates). */
export type VariantScore = Pick<
  Evaluation,
  | 'region'
  | 'energy_efficiency_type'
  | 'epc_score'
  | 'epc_label'
  | 'assumed'
  | 'primary_energy_kwh_per_year'
  | 'co2_kg_per_year'
  | 'energy_cost_eur_per_year'
  | 'design_heat_load_kw'
>;

export interface VariantScorer {
  /** The base, evaluated in full. */
  base: Evaluation;
  /** A variant (the base with this patch), scored with the base's calibration as `evaluateVariants` does. */
  score(patch: Partial<PropertyDescription>): VariantScore;
}

/**
 * `evaluateVariants` for a caller that compares many variants of one home by their figures (the
 * planner, round after round): the base is evaluated once, and each variant without its sources,
 * flags and confidence, which are much of a variant's cost besides the heat balance. A variant's
 * figures are those `evaluateVariants` gives it.
 */
export function variantScorer(base: PropertyDescription, options: EvaluateOptions = {}): VariantScorer {
  const { evaluation, adj } = calibratedBase(base, options);
  return { base: evaluation, score: (patch) => scoreWith(base, patch, options, adj) };
}

/**
 * One variant's figures, as `variantScorer(base).score(patch)` gives them, for a caller that needs
 * nothing of the base (a renovation's valuation: the home its works reach). The base is run only to
 * calibrate to a given score, and then for its figures alone.
 */
export function scoreVariant(base: PropertyDescription, patch: Partial<PropertyDescription>, options: EvaluateOptions = {}): VariantScore {
  const given = base.energy_efficiency_score;
  const adj = given !== undefined ? adjustmentTo(run(base, options, false), given) : null;
  return scoreWith(base, patch, options, adj);
}

function scoreWith(
  base: PropertyDescription,
  patch: Partial<PropertyDescription>,
  options: EvaluateOptions,
  adj: Adjustment | null,
): VariantScore {
  const v = run({ ...base, ...patch } as PropertyDescription, options, false);
  const { w, cost, score } = scored(v, adj);
  return {
    region: v.resolved.region,
    energy_efficiency_type: v.resolved.scale,
    epc_score: score,
    epc_label: labelFor(v.resolved.scale, score),
    assumed: v.assumed,
    primary_energy_kwh_per_year: w.primaryGross - w.pvPrimaryCredit,
    co2_kg_per_year: w.co2,
    energy_cost_eur_per_year: cost,
    design_heat_load_kw: v.designLoadKw,
  };
}
