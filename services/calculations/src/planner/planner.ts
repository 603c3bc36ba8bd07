import {
  CATALOGUE_VERSION,
  MEASURES_FOR_PLANNER,
  PLANNER_DATA,
  applyEffect,
  canPlan,
  getNode,
  leafOfType,
  priceItem,
  quantityFor,
  regionalTarget,
  renovationObligationRule,
  stateOrderBlocks,
  supportingWorks,
  valueItemSet,
  type IncomeCategory,
  type PlannerMeasure,
  type PricedItem,
  type QuantityContext,
  type SetPricing,
} from '@renopath/catalog';
import { evaluateVariants, labelsOf, MODEL_VERSION, variantScorer, type Evaluation, type SourceOverrides, type VariantScore } from '@renopath/energy';
import type {
  PropertyDescription,
  RenovationObligationMark,
  TrajectoryPlan,
  TrajectoryStep,
  TrajectorySupportingWork,
} from '@renopath/contracts';
import { rationaleOf } from './rationale.ts';

/**
 * The suggested renovation trajectory (INTERFACE.md 2, DOMAIN.md 5), pure: greedy from the current
 * state, each round the measure the home can take that lowers the EPC score most (ties: cheaper after
 * grants, then the one with a grant), in the catalogue's order rules, until the region's long-term
 * target or until nothing helps. The figures come from the catalogue's item-set valuation, the same
 * code a renovation made of these steps is valued with.
 */

export interface PlanOptions {
  /** Price and rule year. */
  year: number;
  /** Where given fields came from (EPC_DOCUMENT, LIDAR, PROVIDER); given fields default to INPUT. */
  sources?: SourceOverrides;
  /** Unset: the grant data's default (MIDDLE), stated in `assumptions`. */
  incomeCategory?: IncomeCategory;
  /** Date of the purchase deed (YYYY-MM-DD) the Flemish obligation is read for; default 1 January of `year` (a purchase now). */
  deedDate?: string;
}

interface Candidate {
  measure: PlannerMeasure;
  quantity: number;
  state: Partial<PropertyDescription>;
  evaluation: VariantScore;
  gain: number;
}

interface Chosen extends Candidate {
  before: VariantScore;
  wonOnCost: boolean;
}

const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;
const round1 = (x: number): number => Math.round(x * 10) / 10;
const round0 = (x: number): number => Math.round(x);
const SELECTION = PLANNER_DATA.selection;

/** The roof an item of this quantity rule sits on (null: not a roof item). */
function roofKindOf(measure: PlannerMeasure): 'INCLINED' | 'FLAT' | null {
  if (getNode(measure.renovation_component_type).scope !== 'roof') return null;
  return measure.quantity_rule === 'flat_roof_surface' ? 'FLAT' : 'INCLINED';
}

/**
 * What the catalogue's predicates read: the property as described, its gaps filled with the model's
 * typology defaults (an undescribed roof is the period's roof), so a rule is judged on the home the
 * model computes. Effects and the model itself keep reading the described property only.
 */
function viewOf(state: Partial<PropertyDescription>, assumed: VariantScore['assumed']): Partial<PropertyDescription> {
  const view: Record<string, unknown> = { ...state };
  for (const [field, value] of Object.entries(assumed)) {
    if (view[field] === undefined && value !== null) view[field] = value;
  }
  return view as Partial<PropertyDescription>;
}

/** Surfaces for quantities: what the client gave, else the model's geometry (the roof split by its flat share). */
function quantityContext(view: Partial<PropertyDescription>, base: Evaluation, kind: 'INCLINED' | 'FLAT' | null): QuantityContext {
  const env = base.geometry.envelope;
  const flatShare = base.assumed.flat_roof_share;
  const roof = kind === 'FLAT' ? env.roof_m2 * flatShare : kind === 'INCLINED' ? env.roof_m2 * (1 - flatShare) : env.roof_m2;
  return {
    ...view,
    outer_wall_surface: view.outer_wall_surface ?? env.wall_m2,
    window_glazing_surface: view.window_glazing_surface ?? env.window_m2,
    floor_surface: view.ground_floor_surface ?? env.floor_m2,
    attic_floor_surface: base.geometry.footprint_m2,
    roof_surface: roof,
  };
}

type Option = Omit<Candidate, 'evaluation' | 'gain'>;

/** Two field values differ: arrays (eco_facilities) by their content. */
const differs = (a: unknown, b: unknown): boolean =>
  a !== b && (typeof a !== 'object' || typeof b !== 'object' || JSON.stringify(a) !== JSON.stringify(b));

/**
 * What a measure changes in the state, as text ('' if nothing): two measures with the same key lead
 * to the same home. Only the changed fields are written, not the whole state (tens of fields), for
 * each of a round's measures.
 */
function changeKey(state: Partial<PropertyDescription>, next: Partial<PropertyDescription>): string {
  const before = state as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  let key = '';
  for (const field in after) if (differs(before[field], after[field])) key += `${field}=${JSON.stringify(after[field]) ?? 'undefined'};`;
  for (const field in before) if (!(field in after) && before[field] !== undefined) key += `-${field};`;
  return key;
}

/** The measures the home can take now (canPlan, the planner's state order rules, a price and a quantity), each with the state it leads to. */
function optionsFor(state: Partial<PropertyDescription>, current: VariantScore, base: Evaluation, planned: readonly string[], canPrice: (type: string) => boolean): Option[] {
  const view = viewOf(state, current.assumed);
  const options: Option[] = [];
  // A measure's quantity context depends on it only through its roof kind: one per kind is made.
  const contexts = new Map<string | null, QuantityContext>();
  for (const measure of MEASURES_FOR_PLANNER) {
    const type = measure.renovation_component_type;
    if (!canPlan(type, view, planned).ok || stateOrderBlocks(type, view).length > 0 || !canPrice(type)) continue;
    const kind = roofKindOf(measure);
    let context = contexts.get(kind);
    if (context === undefined) contexts.set(kind, (context = quantityContext(view, base, kind)));
    let quantity: number;
    try {
      quantity = quantityFor(type, context);
    } catch {
      continue;
    }
    if (!(quantity > 0)) continue;
    options.push({ measure, quantity, state: applyEffect(type, state, quantity) });
  }
  return options;
}

/** The measures the planner would consider for this home before any step (whatever their gain): what the home can take. */
export function plannableTypes(property: PropertyDescription, options: Pick<PlanOptions, 'sources'> = {}): string[] {
  const { base } = evaluateVariants(property, [], options.sources ? { sources: options.sources } : {});
  return optionsFor(property, base, base, [], () => true).map((o) => o.measure.renovation_component_type);
}

export function planTrajectory(property: PropertyDescription, options: PlanOptions): TrajectoryPlan {
  const scorer = variantScorer(property, options.sources ? { sources: options.sources } : {});
  const { base } = scorer;
  const { region, energy_efficiency_type: scale, country } = base;
  const labels = labelsOf(scale);
  const rank = (label: string) => labels.indexOf(label);
  const target = regionalTarget(region);
  const meetsTarget = (label: string) => rank(label) <= rank(target.worst_label_meeting_target);
  const pricing: SetPricing = {
    country, region, year: options.year, year_built: property.year_built,
    ...(options.incomeCategory ? { income_category: options.incomeCategory } : {}),
  };

  // Whether the catalogue has a price for a type here (a measure it cannot price is never proposed).
  const priceable = new Map<string, boolean>();
  const canPrice = (type: string): boolean => {
    let ok = priceable.get(type);
    if (ok === undefined) {
      try {
        priceItem({ node: type, quantity: 1, country, region, year: options.year, estate: { year_built: property.year_built } });
        ok = true;
      } catch {
        ok = false;
      }
      priceable.set(type, ok);
    }
    return ok;
  };

  /** Net cost after grants of a candidate with its own supporting works, for the tie-breaks. */
  const netOf = (c: Candidate, planned: readonly string[]): { net: number; subsidy: number } => {
    const heating_type_after = c.state.heating_type ?? undefined;
    const estate = { year_built: property.year_built, ...(pricing.income_category ? { income_category: pricing.income_category } : {}), ...(heating_type_after ? { heating_type_after } : {}) };
    const companions = [...planned, c.measure.renovation_component_type];
    const item = priceItem({ node: c.measure.renovation_component_type, quantity: c.quantity, country, region, year: options.year, estate, companions });
    const works = supportingWorks([{ renovation_component_type: item.priced_as, quantity: c.quantity, estimated_cost: item.estimated_cost }], { ...estate, country, region, year: options.year });
    const all: PricedItem[] = [item, ...works];
    return { net: all.reduce((s, p) => s + p.net_cost, 0), subsidy: all.reduce((s, p) => s + p.subsidy_amount, 0) };
  };

  const chosen: Chosen[] = [];
  // A measure that made the score worse once is not tried again: later steps shrink gains, they do not turn a loss into one.
  const worsening = new Set<string>();
  let state: Partial<PropertyDescription> = property;
  let current: VariantScore = base;
  while (!meetsTarget(current.epc_label)) {
    const planned = chosen.map((c) => c.measure.renovation_component_type);
    const reachable = optionsFor(state, current, base, planned, canPrice).filter((o) => !worsening.has(o.measure.renovation_component_type));
    // Measures with the same effect (three ways to insulate a pitched roof) are one evaluation; one that changes nothing needs none.
    const keys = reachable.map((o) => changeKey(state, o.state));
    const unique = new Map<string, Partial<PropertyDescription>>();
    reachable.forEach((o, i) => {
      if (keys[i] !== '' && !unique.has(keys[i]!)) unique.set(keys[i]!, o.state);
    });
    const byKey = new Map([...unique].map(([k, patch]) => [k, scorer.score(patch)]));
    const candidates: Candidate[] = reachable
      .flatMap((o, i) => {
        const evaluation = byKey.get(keys[i]!);
        if (!evaluation) return [];
        const gain = current.epc_score - evaluation.epc_score;
        if (gain < 0) worsening.add(o.measure.renovation_component_type);
        return [{ ...o, evaluation, gain }];
      })
      .filter((c) => c.gain >= SELECTION.min_gain_score_points);
    if (candidates.length === 0) break;

    const best = Math.max(...candidates.map((c) => c.gain));
    const tolerance = Math.max(SELECTION.tie_score_points, SELECTION.tie_share_of_best_gain * best);
    const tied = candidates.filter((c) => c.gain >= best - tolerance);
    let pick = tied.find((c) => c.gain === best)!;
    let wonOnCost = false;
    if (tied.length > 1) {
      const costed = tied.map((c) => {
        try {
          return { c, ...netOf(c, planned) };
        } catch {
          return { c, net: Number.POSITIVE_INFINITY, subsidy: 0 };
        }
      });
      const cheapest = Math.min(...costed.map((x) => x.net));
      const near = costed.filter((x) => x.net <= cheapest + Math.abs(cheapest) * SELECTION.tie_net_cost_share);
      // Equal cost: the one with a grant (the larger), then the catalogue's order (a stable choice).
      near.sort((a, b) => b.subsidy - a.subsidy || MEASURES_FOR_PLANNER.indexOf(a.c.measure) - MEASURES_FOR_PLANNER.indexOf(b.c.measure));
      const winner = near[0]!;
      wonOnCost = costed.some((x) => x.c !== winner.c && x.net > winner.net);
      pick = winner.c;
    }
    chosen.push({ ...pick, before: current, wonOnCost });
    state = pick.state;
    current = pick.evaluation;
  }

  return assemble(property, options, base, chosen, pricing, { meetsTarget, rank, target });
}

interface AssembleContext {
  meetsTarget(label: string): boolean;
  rank(label: string): number;
  target: ReturnType<typeof regionalTarget>;
}

/** The obligation a purchase on the deed date brings for this home (Flanders only; null when the current label already meets it). */
function obligationFor(base: Evaluation, options: PlanOptions) {
  if (base.region !== PLANNER_DATA.renovation_obligation.region) return null;
  const rule = renovationObligationRule(options.deedDate ?? `${options.year}-01-01`);
  if (!rule || !rule.applies_to_labels.includes(base.epc_label)) return null;
  return rule;
}

function assemble(
  property: PropertyDescription,
  options: PlanOptions,
  base: Evaluation,
  chosen: readonly Chosen[],
  pricing: SetPricing,
  ctx: AssembleContext,
): TrajectoryPlan {
  const items = chosen.map((c, i) => ({ key: String(i + 1), renovation_component_type: c.measure.renovation_component_type, quantity: c.quantity }));
  const valued = valueItemSet(property, items, pricing);
  // A supporting work joins the first step it supports: it is set up (or paid) before that step's works.
  const worksOf = new Map<number, typeof valued.derived>();
  for (const work of valued.derived) {
    const at = chosen.findIndex((c) => work.supports.includes(leafOfType(c.measure.renovation_component_type)!.renovation_component_type));
    const index = at < 0 ? 0 : at;
    worksOf.set(index, [...(worksOf.get(index) ?? []), work]);
  }

  const obligation = obligationFor(base, options);
  let obligationMarked = false;
  const steps: TrajectoryStep[] = chosen.map((c, i) => {
    const result = valued.items[String(i + 1)]!;
    if (!result.priced) throw new Error(`planner: step ${c.measure.renovation_component_type} could not be priced: ${result.error}`);
    const item = result.priced;
    const works = worksOf.get(i) ?? [];
    const supporting_works: TrajectorySupportingWork[] = works.map((w) => ({
      renovation_component_type: w.renovation_component_type,
      title: getNode(w.renovation_component_type).name,
      quantity: w.quantity,
      unit: w.unit,
      estimated_cost: w.estimated_cost,
      estimated_vat_cost: w.estimated_vat_cost,
      subsidy_amount: w.subsidy_amount,
    }));
    const all = [item, ...works];
    const estimated_cost = round2(all.reduce((s, p) => s + p.estimated_cost, 0));
    const estimated_vat_cost = round2(all.reduce((s, p) => s + p.estimated_vat_cost, 0));
    const subsidy_amount = round2(all.reduce((s, p) => s + p.subsidy_amount, 0));
    const after = c.evaluation;
    let mark: RenovationObligationMark | null = null;
    if (obligation && !obligationMarked && ctx.rank(after.epc_label) <= ctx.rank(obligation.label)) {
      obligationMarked = true;
      const within = PLANNER_DATA.renovation_obligation.within_years;
      mark = {
        rule_id: obligation.id,
        label: obligation.label,
        within_years: within,
        deeds_from: obligation.deeds_from,
        description: `A home bought with label ${base.epc_label} (deed from ${obligation.deeds_from}) must reach label ${obligation.label} within ${within} years of the deed.`,
        source: obligation.source,
      };
    }
    const cost_savings = round2(c.before.energy_cost_eur_per_year - after.energy_cost_eur_per_year);
    const plannedBefore = chosen.slice(0, i).map((x) => x.measure.renovation_component_type);
    const generatorLater = chosen.slice(i + 1).some((x) => x.measure.root_renovation_component_type === 'HEATING');
    return {
      order: i + 1,
      root_renovation_component_type: c.measure.root_renovation_component_type,
      renovation_component_type: c.measure.renovation_component_type,
      title: c.measure.name,
      quantity: item.quantity,
      unit: item.unit,
      estimated_cost,
      estimated_vat_cost,
      subsidy_amount,
      net_cost: round2(estimated_cost + estimated_vat_cost - subsidy_amount),
      supporting_works,
      epc_score_after: round1(after.epc_score),
      epc_label_after: after.epc_label,
      energy_savings_kwh_per_year: round0(c.before.primary_energy_kwh_per_year - after.primary_energy_kwh_per_year),
      co2_savings_kg_per_year: round0(c.before.co2_kg_per_year - after.co2_kg_per_year),
      cost_savings_eur_per_year: cost_savings,
      rationale: rationaleOf({
        root: c.measure.root_renovation_component_type,
        title: c.measure.name,
        order: i + 1,
        scoreBefore: c.before.epc_score,
        scoreAfter: after.epc_score,
        labelBefore: c.before.epc_label,
        labelAfter: after.epc_label,
        costSavingsPerYear: cost_savings,
        subsidy: subsidy_amount,
        wonOnCost: c.wonOnCost,
        plannedBefore,
        generatorLater,
        obligationLabel: mark?.label ?? null,
        targetLabel: ctx.target.label,
        reachesTarget: i === chosen.length - 1 && ctx.meetsTarget(after.epc_label),
      }),
      renovation_obligation: mark,
      scope: getNode(c.measure.renovation_component_type).scope === 'roof' ? 'ROOF' : 'GENERAL',
      roof_kind: roofKindOf(c.measure),
    };
  });

  const sum = (f: (s: TrajectoryStep) => number) => round2(steps.reduce((acc, s) => acc + f(s), 0));
  const estimated_cost = sum((s) => s.estimated_cost);
  const estimated_vat_cost = sum((s) => s.estimated_vat_cost);
  const final = chosen.length ? chosen[chosen.length - 1]!.evaluation : base;
  const assumptions = [...new Set([...valued.derived.flatMap((w) => w.assumptions), ...Object.values(valued.items).flatMap((r) => r.priced?.assumptions ?? [])])];
  if (valued.derived_error) assumptions.push(`Supporting works are not included: ${valued.derived_error}.`);
  if (obligation && !obligationMarked) {
    assumptions.push(`The plan does not reach label ${obligation.label}, which the Flemish renovation obligation requires within ${PLANNER_DATA.renovation_obligation.within_years} years of a purchase.`);
  }
  const { at_least, average_pct, standard_deviation_pct } = base.expected_price_error;
  return {
    region: base.region,
    energy_efficiency_type: base.energy_efficiency_type,
    current: {
      epc_score: round1(base.epc_score),
      epc_label: base.epc_label,
      primary_energy_kwh_per_year: round0(base.primary_energy_kwh_per_year),
      heating_need_kwh_per_year: round0(base.heating_need_kwh_per_year),
      co2_kg_per_year: round0(base.co2_kg_per_year),
      energy_cost_eur_per_year: round2(base.energy_cost_eur_per_year),
    },
    steps,
    totals: {
      estimated_cost,
      estimated_vat_cost,
      subsidy_amount: sum((s) => s.subsidy_amount),
      total_estimated_cost_incl_vat: round2(estimated_cost + estimated_vat_cost),
      net_cost: sum((s) => s.net_cost),
    },
    energy_efficiency_indication: final.epc_label,
    final_epc_score: round1(final.epc_score),
    confidence_score: Math.round(base.confidence_score * 1000) / 1000,
    quality_label: base.quality_label,
    expected_price_error: { average_pct, standard_deviation_pct, at_least },
    data_quality: { sources: base.data_quality.sources, flags: base.data_quality.flags },
    versions: { model: MODEL_VERSION, catalogue: CATALOGUE_VERSION },
    target: { label: ctx.target.label, reached: ctx.meetsTarget(final.epc_label), source: ctx.target.source },
    assumptions,
    price_year: options.year,
  };
}
