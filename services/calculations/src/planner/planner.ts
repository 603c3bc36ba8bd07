import {
  CATALOGUE_VERSION,
  PLANNER_DATA,
  applyEffect,
  getNode,
  grantRulesKnown,
  heatPumpBand,
  leafOfType,
  meetsMilestone,
  appliesIfLet,
  milestonesFor,
  priceItem,
  quantityFor,
  regionalTarget,
  specificationOf,
  supportingWorks,
  valueItemSet,
  type IncomeCategory,
  type PricedItem,
  type QuantityContext,
  type SetPricing,
} from '@renopath/catalog';
import {
  evaluate,
  evaluateVariants,
  labelsOf,
  MODEL_VERSION,
  variantScorer,
  type Evaluation,
  type SourceOverrides,
  type VariantScore,
} from '@renopath/energy';
import type {
  GrantConditions,
  Household,
  PlanElement,
  PlanMilestone,
  PlanOmission,
  PlanPhase,
  PropertyDescription,
  RenovationObligationMark,
  TrajectoryPlan,
  TrajectoryStep,
  TrajectorySupportingWork,
} from '@renopath/contracts';
import { ELEMENT_RULES, PHASES, isFlat, type ElementContext, type ElementDecision, type ElementRule } from './elements.ts';
import { rationaleOf } from './rationale.ts';

/**
 * The suggested renovation trajectory (docs/http-contract.md; docs/domain.md "The planner"), pure: the home
 * as an energy advisor plans it. Element by element in the advisor's phases (roof; walls and windows;
 * floor; ventilation; heat generator with its emitters and the oil tank; hot water; solar panels),
 * every element below the long-term standard gets its step with the cheapest adequate variant, what
 * works is kept, and inside a phase the element with the largest EPC gain goes first (ties: cheaper
 * after grants). The target label is an outcome marked on the step that reaches it. The figures come
 * from the catalogue's item-set valuation, the same code a renovation made of these steps is valued with.
 */

export interface PlanOptions {
  /** Price and rule year. */
  year: number;
  /** Where given fields came from (EPC_DOCUMENT, LIDAR, PROVIDER); given fields default to INPUT. */
  sources?: SourceOverrides;
  /** Unset: the grant data's default (MIDDLE), stated in `assumptions`. */
  incomeCategory?: IncomeCategory;
  /** Date of the purchase deed (YYYY-MM-DD) the obligations after a purchase are read for; default the household's purchase date, else 1 July of `year` (a purchase now, mid-year as invoices are). */
  deedDate?: string;
  /** The request's household: its purchase date and occupancy pick the dated rules that apply. */
  household?: Household;
}

interface Candidate {
  element: PlanElement;
  phase: PlanPhase;
  type: string;
  quantity: number;
  state: Partial<PropertyDescription>;
  evaluation: VariantScore;
  gain: number;
  net: number;
  /** Other adequate variants were dearer after grants. */
  cheaperThanOthers: boolean;
  /** What the step assumed of the home that the client did not say (the element rule's `assume`). */
  assumption?: string;
  /** The permit the works need on a protected home. */
  permit?: string;
  /** Why this variant, from the home's own facts (a named rule). */
  reason?: string;
}

interface Chosen extends Candidate {
  before: VariantScore;
  /** A measure planned with this step as its supporting work (ventilation with the step that makes the envelope airtight). */
  joined?: { type: string; quantity: number };
}

const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;
const round1 = (x: number): number => Math.round(x * 10) / 10;
const round0 = (x: number): number => Math.round(x);
const SELECTION = PLANNER_DATA.selection;
const ENVELOPE_ELEMENTS = new Set<PlanElement>(['ROOF', 'WALLS', 'WINDOWS', 'FLOOR']);

/** The roof an item of this type sits on (null: not a roof item). */
function roofKindOf(type: string): 'INCLINED' | 'FLAT' | null {
  const node = getNode(type);
  if (node.scope !== 'roof') return null;
  return node.quantity_rule === 'flat_roof_surface' ? 'FLAT' : 'INCLINED';
}

/**
 * What the catalogue's predicates and the element rules read: the property as described, its gaps
 * filled with the model's typology defaults (an undescribed roof is the period's roof), so a rule is
 * judged on the home the model computes. Effects and the model itself keep reading the described property only.
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

/** The measures the planner would consider for this home before any step: the variants of the elements it would treat first in each phase. */
export function plannableTypes(property: PropertyDescription, options: Pick<PlanOptions, 'sources'> = {}): string[] {
  const { base } = evaluateVariants(property, [], options.sources ? { sources: options.sources } : {});
  const view = viewOf(property, base.assumed);
  const ctx: ElementContext = { view, original: view, stated: property, region: base.region, base, planned: [] };
  return ELEMENT_RULES.flatMap((rule) => {
    const decision = rule.decide(ctx);
    return 'variants' in decision ? decision.variants : [];
  });
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
    country,
    region,
    year: options.year,
    year_built: property.year_built,
    ...(options.incomeCategory ? { income_category: options.incomeCategory } : {}),
  };

  /** Net cost after grants of a variant with its own supporting works, given the steps planned so far. */
  const netOf = (
    type: string,
    quantity: number,
    state: Partial<PropertyDescription>,
    planned: readonly string[],
  ): { net: number; subsidy: number } => {
    const heating_type_after = state.heating_type ?? undefined;
    const estate = {
      year_built: property.year_built,
      ...(pricing.income_category ? { income_category: pricing.income_category } : {}),
      ...(heating_type_after ? { heating_type_after } : {}),
    };
    const item = priceItem({ node: type, quantity, country, region, year: options.year, estate, companions: [...planned, type] });
    const works = supportingWorks([{ renovation_component_type: item.priced_as, quantity, estimated_cost: item.estimated_cost }], {
      ...estate,
      country,
      region,
      year: options.year,
    });
    const all: PricedItem[] = [item, ...works];
    return { net: all.reduce((s, p) => s + p.net_cost, 0), subsidy: all.reduce((s, p) => s + p.subsidy_amount, 0) };
  };

  /** The cheapest adequate variant after grants (net costs within the tie share: the larger gain, then the larger grant); null when none can be priced. */
  const cheapestAdequate = (
    rule: ElementRule,
    decision: Extract<ElementDecision, { variants: string[] }>,
    before: Partial<PropertyDescription>,
    current: VariantScore,
    seen: Partial<PropertyDescription>,
    planned: readonly string[],
  ): Candidate | null => {
    const { variants, assume } = decision;
    // An assumed fact (a crawl space under an undescribed Dutch floor) joins the home with the step.
    const state = assume ? { ...before, ...assume.facts } : before;
    const view = assume ? { ...seen, ...assume.facts } : seen;
    const costed: { type: string; quantity: number; state: Partial<PropertyDescription>; net: number; subsidy: number }[] = [];
    for (const type of variants) {
      let quantity: number;
      try {
        quantity = quantityFor(type, quantityContext(view, base, roofKindOf(type)));
      } catch {
        continue;
      }
      if (!(quantity > 0)) continue;
      if (type === 'SOLAR_PANELS') quantity = pvSized(state, quantity);
      const next = applyEffect(type, state, quantity);
      let priced: { net: number; subsidy: number };
      try {
        priced = netOf(type, quantity, next, planned);
      } catch {
        continue;
      }
      costed.push({ type, quantity, state: next, net: priced.net, subsidy: priced.subsidy });
    }
    if (costed.length === 0) return null;
    const cheapest = Math.min(...costed.map((c) => c.net));
    // Only the variants tied on cost need their gain (a model run each): the dearer ones are out already.
    const near = costed
      .filter((c) => c.net <= cheapest + Math.abs(cheapest) * SELECTION.tie_net_cost_share)
      .map((c) => ({ ...c, evaluation: scorer.score(c.state) }));
    // The larger gain (the lower score after), then the larger grant, then the element's own order.
    near.sort(
      (a, b) =>
        a.evaluation.epc_score - b.evaluation.epc_score || b.subsidy - a.subsidy || variants.indexOf(a.type) - variants.indexOf(b.type),
    );
    const { subsidy: _s, ...pick } = near[0]!;
    return {
      ...pick,
      element: rule.element,
      phase: rule.phase,
      gain: current.epc_score - pick.evaluation.epc_score,
      cheaperThanOthers: costed.some((c) => c.net > pick.net),
      ...(assume ? { assumption: assume.assumption } : {}),
      ...(decision.permit ? { permit: decision.permit } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
    };
  };

  /**
   * Panels sized on the home's electricity use after the works (what the model counts, heat pump
   * included, plus an average household's own use), within the usable roof (`roofKwp`). Where that
   * size leaves the home short of the region's target and the roof's would reach it, the roof's.
   */
  let pvForTarget = false;
  const pvSized = (state: Partial<PropertyDescription>, roofKwp: number): number => {
    const opts = options.sources ? { sources: options.sources } : {};
    const yieldPerKwp =
      evaluate(applyEffect('SOLAR_PANELS', state, roofKwp) as PropertyDescription, opts).pv_production_kwh_per_year / roofKwp;
    const use =
      evaluate(state as PropertyDescription, opts).delivered_energy_kwh_per_year.ELECTRICITY +
      PLANNER_DATA.pv_sizing.household_kwh_per_year[country];
    if (!(yieldPerKwp > 0)) return roofKwp;
    const sized = Math.min(roofKwp, Math.max(0.4, Math.round((use / yieldPerKwp) * 10) / 10));
    if (
      sized < roofKwp &&
      !meetsTarget(scorer.score(applyEffect('SOLAR_PANELS', state, sized)).epc_label) &&
      meetsTarget(scorer.score(applyEffect('SOLAR_PANELS', state, roofKwp)).epc_label)
    ) {
      pvForTarget = true;
      return roofKwp;
    }
    return sized;
  };

  const chosen: Chosen[] = [];
  const leftOut: PlanOmission[] = [];
  const stopped = calibrationConflict(property, base, options);
  if (stopped) return assemble(property, options, base, [], pricing, leftOut, { meetsTarget, rank, target, pvForTarget, stopped });
  const original = viewOf(property, base.assumed);
  let state: Partial<PropertyDescription> = property;
  let current: VariantScore = base;
  for (const phase of PHASES) {
    const pending = ELEMENT_RULES.filter((r) => r.phase === phase);
    while (pending.length > 0) {
      const ready = pending.filter((r) => !r.follows || !pending.some((p) => p.element === r.follows));
      const view = viewOf(state, current.assumed);
      const planned = chosen.map((c) => c.type);
      const ctx: ElementContext = { view, original, stated: state, region, base, planned, current };
      const candidates: { candidate: Candidate; note: PlanOmission | null }[] = [];
      for (const rule of ready) {
        const decision = rule.decide(ctx);
        if ('omit' in decision) {
          if (decision.omit) leftOut.push({ element: rule.element, ...decision.omit });
          pending.splice(pending.indexOf(rule), 1);
          continue;
        }
        const candidate = cheapestAdequate(rule, decision, state, current, view, planned);
        if (!candidate) {
          leftOut.push({
            element: rule.element,
            code: 'NOT_PRICED',
            reason: `${rule.element.toLowerCase().replaceAll('_', ' ')}: no adequate variant can be priced for this home.`,
          });
          pending.splice(pending.indexOf(rule), 1);
          continue;
        }
        // TOP_UP_LIGHT_INSULATION: a top-up only where its saving repays it within the measure's life; else the plan says so.
        if (decision.topUp) {
          const life = PLANNER_DATA.measure_life.years[rule.element] ?? 0;
          const saving = current.energy_cost_eur_per_year - candidate.evaluation.energy_cost_eur_per_year;
          if (saving * life < candidate.net) {
            leftOut.push({
              element: rule.element,
              code: 'KEPT',
              reason: `${decision.topUp} is kept: a top-up would cost about EUR ${Math.round(candidate.net)} after grants and save about EUR ${Math.round(saving)} a year, not repaid within its ${life}-year life.`,
            });
            pending.splice(pending.indexOf(rule), 1);
            continue;
          }
        }
        candidates.push({ candidate, note: decision.note ? { element: rule.element, ...decision.note } : null });
      }
      if (candidates.length === 0) continue;
      // Inside a phase: (a) the largest EPC gain first; (b) on an equal gain the cheaper after grants.
      const best = Math.max(...candidates.map((c) => c.candidate.gain));
      const tolerance = Math.max(SELECTION.tie_score_points, SELECTION.tie_share_of_best_gain * Math.abs(best));
      const tied = candidates.filter((c) => c.candidate.gain >= best - tolerance);
      tied.sort((a, b) => a.candidate.net - b.candidate.net);
      const { candidate, note } = tied[0]!;
      chosen.push({ ...candidate, before: current });
      if (note) leftOut.push(note);
      pending.splice(
        pending.findIndex((r) => r.element === candidate.element),
        1,
      );
      state = candidate.state;
      current = candidate.evaluation;
    }
  }

  const steps = joinVentilation(chosen, leftOut, (state) => scorer.score(state));
  return assemble(property, options, base, steps, pricing, leftOut, { meetsTarget, rank, target, pvForTarget, stopped: null });
}

/**
 * Rule CALIBRATION_CONFLICT (docs/domain.md "The planner", 9): a given score far better than the home as
 * described can have (an A on a bare house) is not planned on: the plan stops for a check, with the reason.
 */
function calibrationConflict(property: PropertyDescription, base: Evaluation, options: PlanOptions): TrajectoryPlan['stopped'] {
  const given = property.energy_efficiency_score;
  if (given === undefined) return null;
  const { energy_efficiency_score: _given, ...described } = property;
  const modelled = evaluate(described, options.sources ? { sources: options.sources } : {});
  const share = PLANNER_DATA.calibration_conflict.min_share_of_described_score;
  if (!(modelled.epc_score > 0) || given >= share * modelled.epc_score) return null;
  return {
    code: 'CALIBRATION_CONFLICT',
    reason: `The given EPC score ${round0(given)} (label ${base.epc_label}) is less than ${Math.round(share * 100)}% of the ${round0(modelled.epc_score)} (label ${modelled.epc_label}) the home as described would have: the score or the description is wrong. No works are planned until one of them is checked (the certificate, or the insulation, glazing and heating described).`,
  };
}

/** Rule BOILER_END_OF_LIFE: the year a young gas or oil boiler reaches the end of its life (null: not young, or no boiler). */
function boilerEndOfLife(property: PropertyDescription, year: number): number | null {
  const device = property.heating_device;
  if (device !== 'CONDENSING_BOILER' && device !== 'NON_CONDENSING_BOILER') return null;
  const age = property.installation_age ? PLANNER_DATA.boiler_end_of_life.age_midpoints[property.installation_age] : undefined;
  if (age === undefined) return null;
  return year + Math.max(1, Math.round(PLANNER_DATA.boiler_end_of_life.life_years - age));
}

/** The envelope steps ventilation may join, the one that makes the home airtight first (the window's airtight joint). */
const AIRTIGHT_HOSTS: readonly PlanElement[] = ['WINDOWS', 'WALLS', 'ROOF', 'FLOOR'];

/** The fields a step's effect changed (its state against the one before). */
function patchOf(state: Partial<PropertyDescription>, before: Partial<PropertyDescription>): Partial<PropertyDescription> {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(state)) {
    if ((before as Record<string, unknown>)[field] !== value) patch[field] = value;
  }
  return patch as Partial<PropertyDescription>;
}

/**
 * Rule VENTILATION_JOINS_AIRTIGHT_STEP (docs/domain.md "The planner", 2): a ventilation system is the
 * supporting work of the step that makes the envelope airtight, never a step of its own, because its
 * fans add electricity to the score and a step that raises the score would undo a milestone marked
 * before it. The host is the first envelope step, in the order windows, walls, roof, floor, whose
 * gain covers the fans; the steps between the host and the ventilation's place are scored again with
 * the system in. With no envelope step to host it, the ventilation is left out and the plan says so.
 */
function joinVentilation(
  chosen: Chosen[],
  leftOut: PlanOmission[],
  score: (state: Partial<PropertyDescription>) => VariantScore,
): Chosen[] {
  const at = chosen.findIndex((c) => c.element === 'VENTILATION');
  if (at < 0) return chosen;
  const vent = chosen[at]!;
  const before = at > 0 ? chosen[at - 1]!.state : null;
  const patch = before ? patchOf(vent.state, before) : vent.state;
  const penalty = vent.evaluation.epc_score - vent.before.epc_score;
  const hosts = AIRTIGHT_HOSTS.map((e) => chosen.findIndex((c, i) => i < at && c.element === e)).filter((i) => i >= 0);
  const host = hosts.find((i) => chosen[i]!.gain > penalty);
  const rest = [...chosen.slice(0, at), ...chosen.slice(at + 1)];
  if (host === undefined) {
    leftOut.push({
      element: 'VENTILATION',
      code: 'NOT_IN_THIS_HOME',
      reason:
        'ventilation: no planned work makes the envelope more airtight, so no system is planned now; system C with demand control joins the next window or insulation work.',
    });
    return rest;
  }
  const out: Chosen[] = chosen.slice(0, host);
  for (let i = host; i < at; i++) {
    const c = chosen[i]!;
    const state = { ...c.state, ...patch };
    const evaluation = score(state);
    const prev = out.length ? out[out.length - 1]!.evaluation : c.before;
    out.push({
      ...c,
      state,
      evaluation,
      before: prev,
      gain: prev.epc_score - evaluation.epc_score,
      ...(i === host ? { joined: { type: vent.type, quantity: vent.quantity } } : {}),
    });
  }
  for (let i = at + 1; i < chosen.length; i++) {
    const c = chosen[i]!;
    out.push(i === at + 1 ? { ...c, before: out[out.length - 1]!.evaluation } : c);
  }
  return out;
}

interface AssembleContext {
  meetsTarget(label: string): boolean;
  rank(label: string): number;
  target: ReturnType<typeof regionalTarget>;
  /** The panels fill the usable roof because a size on the electricity use would miss the target. */
  pvForTarget: boolean;
  stopped: TrajectoryPlan['stopped'];
}

function assemble(
  property: PropertyDescription,
  options: PlanOptions,
  base: Evaluation,
  chosen: readonly Chosen[],
  pricing: SetPricing,
  leftOut: PlanOmission[],
  ctx: AssembleContext,
): TrajectoryPlan {
  const items = chosen.flatMap((c, i) => [
    { key: String(i + 1), renovation_component_type: c.type, quantity: c.quantity },
    ...(c.joined ? [{ key: `${i + 1}+`, renovation_component_type: c.joined.type, quantity: c.joined.quantity }] : []),
  ]);
  const valued = valueItemSet(property, items, pricing);
  // A supporting work joins the first step it supports: it is set up (or paid) before that step's works.
  const worksOf = new Map<number, typeof valued.derived>();
  const leafTypeOf = (type: string) => leafOfType(type)!.renovation_component_type;
  for (const work of valued.derived) {
    const at = chosen.findIndex(
      (c) => work.supports.includes(leafTypeOf(c.type)) || (c.joined !== undefined && work.supports.includes(leafTypeOf(c.joined.type))),
    );
    const index = at < 0 ? 0 : at;
    worksOf.set(index, [...(worksOf.get(index) ?? []), work]);
  }

  const givenDeed = options.deedDate ?? options.household?.purchase_date;
  const deedDate = givenDeed ?? `${options.year}-07-01`;
  const milestoneContext = {
    deedGiven: givenDeed !== undefined,
    ifLet: true,
    ...(options.household?.occupancy ? { occupancy: options.household.occupancy } : {}),
  };
  const open: PlanMilestone[] = milestonesFor(
    base.region,
    base.epc_label,
    labelsOf(base.energy_efficiency_type),
    deedDate,
    milestoneContext,
  ).map(({ kind, rule_id, label, description, source, deadline, applies_because, binds, checked_on }) => ({
    kind,
    rule_id,
    label,
    description,
    source,
    deadline,
    applies_because,
    binds,
    checked_on,
  }));
  const flat = isFlat(property);
  const association = PLANNER_DATA.co_ownership.association[base.country];
  const coOwned = new Set<PlanElement>(PLANNER_DATA.co_ownership.elements);
  // BOILER_END_OF_LIFE: a young boiler is replaced when it wears out, unless the bill falls by doing it now.
  const generator = chosen.find((c) => c.element === 'HEAT_GENERATOR');
  const endOfLife = boilerEndOfLife(property, options.year);
  const generatorYear =
    generator && endOfLife !== null && generator.before.energy_cost_eur_per_year - generator.evaluation.energy_cost_eur_per_year <= 0
      ? endOfLife
      : null;
  const reaches = (m: PlanMilestone, label: string) => meetsMilestone(m, label, labelsOf(base.energy_efficiency_type), base.region);
  const income = options.incomeCategory ?? null;
  const steps: TrajectoryStep[] = chosen.map((c, i) => {
    const result = valued.items[String(i + 1)]!;
    if (!result.priced) throw new Error(`planner: step ${c.type} could not be priced: ${result.error}`);
    const item = result.priced;
    const joinedResult = c.joined ? valued.items[`${i + 1}+`] : undefined;
    if (joinedResult && !joinedResult.priced) throw new Error(`planner: ${c.joined!.type} could not be priced: ${joinedResult.error}`);
    const joined = joinedResult?.priced ? [joinedResult.priced] : [];
    const works = worksOf.get(i) ?? [];
    const asWork = (w: (typeof joined)[number]): TrajectorySupportingWork => ({
      renovation_component_type: w.renovation_component_type,
      title: getNode(w.renovation_component_type).name,
      quantity: w.quantity,
      unit: w.unit,
      estimated_cost: w.estimated_cost,
      estimated_vat_cost: w.estimated_vat_cost,
      subsidy_amount: w.subsidy_amount,
    });
    const supporting_works: TrajectorySupportingWork[] = [...joined.map((w) => ({ ...asWork(w), joined: true })), ...works.map(asWork)];
    const all = [item, ...joined, ...works];
    const estimated_cost = round2(all.reduce((s, p) => s + p.estimated_cost, 0));
    const estimated_vat_cost = round2(all.reduce((s, p) => s + p.estimated_vat_cost, 0));
    const subsidy_amount = round2(all.reduce((s, p) => s + p.subsidy_amount, 0));
    const after = c.evaluation;
    const milestones = open.filter((m) => reaches(m, after.epc_label));
    for (const m of milestones) open.splice(open.indexOf(m), 1);
    const obligation = milestones.find((m) => m.kind === 'OBLIGATION' && m.rule_id.startsWith('FL_'));
    let mark: RenovationObligationMark | null = null;
    if (obligation) {
      const row = PLANNER_DATA.renovation_obligation.rows.find((r) => r.id === obligation.rule_id)!;
      mark = {
        rule_id: obligation.rule_id,
        label: obligation.label,
        within_years: PLANNER_DATA.renovation_obligation.within_years,
        deeds_from: row.deeds_from,
        description: obligation.description,
        source: obligation.source,
      };
    }
    const cost_savings = round2(c.before.energy_cost_eur_per_year - after.energy_cost_eur_per_year);
    const node = getNode(c.type);
    // A heat pump after envelope works: the design heat load it is sized on, against today's.
    let designLoadKw: { today: number; insulated: number } | null = null;
    if (
      c.element === 'HEAT_GENERATOR' &&
      c.type.startsWith('HEAT_PUMP') &&
      chosen.slice(0, i).some((x) => ENVELOPE_ELEMENTS.has(x.element))
    ) {
      const insulated = evaluate(chosen[i - 1]!.state as PropertyDescription, options.sources ? { sources: options.sources } : {});
      designLoadKw = { today: base.design_heat_load_kw, insulated: insulated.design_heat_load_kw };
    }
    const hasRules = grantRulesKnown(base.region, item.priced_as) || grantRulesKnown(base.region, c.type);
    const grant_conditions: GrantConditions = {
      status: subsidy_amount > 0 ? 'GRANTED' : hasRules ? 'NOT_ELIGIBLE' : 'NOT_YET_SOURCED',
      schemes: [...new Set(all.filter((p) => p.scheme).map((p) => p.scheme!))],
      conditions:
        subsidy_amount > 0 || hasRules
          ? [...new Set(all.flatMap((p) => p.conditions))]
          : [
              `No ${base.region.charAt(0)}${base.region.slice(1).toLowerCase()} grant for this measure is sourced in the catalogue yet: the 0 shown means unknown, not none.`,
            ],
    };
    const isPump = c.element === 'HEAT_GENERATOR' && c.type.startsWith('HEAT_PUMP');
    const power = isPump
      ? heatPumpBand(
          evaluate((i > 0 ? chosen[i - 1]!.state : property) as PropertyDescription, options.sources ? { sources: options.sources } : {})
            .design_heat_load_kw,
        )
      : c.type === 'SOLAR_PANELS'
        ? item.quantity
        : null;
    const planned_year =
      generatorYear !== null && ['HEAT_GENERATOR', 'HEAT_EMITTERS', 'OIL_TANK'].includes(c.element) && i >= chosen.indexOf(generator!)
        ? generatorYear
        : null;
    const co_ownership =
      flat && coOwned.has(c.element) ? { decided_by: 'CO_OWNERS' as const, association, share: property.co_ownership_share ?? null } : null;
    return {
      order: i + 1,
      root_renovation_component_type: leafRoot(c.type),
      renovation_component_type: c.type,
      title: node.name,
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
        element: c.element,
        phase: c.phase,
        title: node.name,
        type: c.type,
        // The published scores (one decimal), so the words round what the step shows.
        scoreBefore: round1(c.before.epc_score),
        scoreAfter: round1(after.epc_score),
        labelBefore: c.before.epc_label,
        labelAfter: after.epc_label,
        cost: round2(estimated_cost + estimated_vat_cost),
        subsidy: subsidy_amount,
        costSavingsPerYear: cost_savings,
        cheaperThanOthers: c.cheaperThanOthers,
        milestones,
        incomeCategory: income,
        priceYear: options.year,
        designLoadKw,
        joined: c.joined?.type ?? null,
        reason: c.reason ?? null,
        permit: c.permit ?? null,
        coOwnership: co_ownership,
        plannedYear: planned_year,
        grantStatus: grant_conditions.status,
        life: PLANNER_DATA.measure_life.years[c.element] ?? null,
        netCost: round2(estimated_cost + estimated_vat_cost - subsidy_amount),
        grantScheme: [...new Set(all.filter((p) => p.subsidy_amount > 0 && p.scheme).map((p) => p.scheme!))].join(', ') || null,
      }),
      renovation_obligation: mark,
      scope: node.scope === 'roof' ? 'ROOF' : 'GENERAL',
      roof_kind: roofKindOf(c.type),
      element: c.element,
      phase: c.phase,
      milestones,
      specification: specificationOf(c.type, base.region, power),
      grant_conditions,
      planned_year,
      permit: c.permit ?? null,
      co_ownership,
    };
  });

  const sum = (f: (s: TrajectoryStep) => number) => round2(steps.reduce((acc, s) => acc + f(s), 0));
  const estimated_cost = sum((s) => s.estimated_cost);
  const estimated_vat_cost = sum((s) => s.estimated_vat_cost);
  const final = chosen.length ? chosen[chosen.length - 1]!.evaluation : base;
  const assumptions = [
    ...new Set([
      ...valued.derived.flatMap((w) => w.assumptions),
      ...Object.values(valued.items).flatMap((r) => r.priced?.assumptions ?? []),
    ]),
  ];
  if (valued.derived_error) assumptions.push(`Supporting works are not included: ${valued.derived_error}.`);
  for (const c of chosen) if (c.assumption) assumptions.push(c.assumption);
  // A landlord's norm listed only because the home might be let is marked where a step reaches it, never missed.
  const missed = open.filter((m) => !appliesIfLet(m, milestoneContext));
  for (const m of missed) {
    assumptions.push(`The plan does not reach label ${m.label}: ${m.description}`);
  }
  // What the figures do not size yet, said where it matters.
  if (steps.some((s) => s.element === 'HEAT_GENERATOR' && s.renovation_component_type.startsWith('HEAT_PUMP'))) {
    assumptions.push(
      "The heat pump's power is the kW band covering the insulated home's design heat loss (its specification); its price is still the catalogue's typical unit, not a price per band.",
    );
  }
  if (steps.some((s) => s.co_ownership)) {
    assumptions.push(
      `The steps on the building's roof, facades or common floors are decisions of ${association}, priced on this flat's own surfaces${property.co_ownership_share ? `; the association bills the building's works by the flat's share (${Math.round(property.co_ownership_share * 1000)}/1000)` : ''}.`,
    );
  }
  if (steps.some((s) => s.element === 'SOLAR_PANELS')) {
    assumptions.push(
      ctx.pvForTarget
        ? "The solar panels fill the usable roof: sized on the home's electricity use alone, they would leave it short of the region's target label."
        : `The solar panels are sized on the home's electricity use after the works (the energy model's, plus ${PLANNER_DATA.pv_sizing.household_kwh_per_year[base.country]} kWh of household use a year), within the usable roof.`,
    );
  }
  if (!options.deedDate && open.concat(steps.flatMap((s) => s.milestones)).some((m) => m.kind === 'OBLIGATION')) {
    assumptions.push(`A purchase deed dated ${deedDate} is assumed for the obligations after a purchase.`);
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
    left_out: leftOut,
    milestones_missed: missed,
    stopped: ctx.stopped,
    inputs_needed: inputsNeeded(base),
  };
}

/** The inputs that rest on the model's defaults, most important first (planner.json `inputs_needed`); every plan lists them, a quality D plan must. */
function inputsNeeded(base: Evaluation): string[] {
  const sources = base.data_quality.sources as Record<string, string | undefined>;
  // A roof or floor the home does not have (a flat's middle floor) needs no description.
  const absent = new Set([
    ...(base.geometry.exposed.roof ? [] : ['inclined_roof_insulation_type']),
    ...(base.geometry.exposed.floor ? [] : ['solid_ground_floor_insulation_type', 'basement_type']),
  ]);
  return PLANNER_DATA.inputs_needed.fields.filter((f) => !absent.has(f) && (sources[f] === undefined || sources[f] === 'MODEL'));
}

/** The root of a type's branch of the catalogue (ROOF_INSULATION, HEATING, ...). */
function leafRoot(type: string): string {
  let node = getNode(type);
  while (node.parent) node = getNode(node.parent);
  return node.renovation_component_type;
}
