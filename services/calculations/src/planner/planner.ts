import { PLANNER_DATA, regionalTarget, type SetPricing } from '@renopath/catalog';
import { evaluate, evaluateVariants, labelsOf, variantScorer, type Evaluation, type VariantScore } from '@renopath/energy';
import type { PlanOmission, PropertyDescription, TrajectoryPlan } from '@renopath/contracts';
import { assemble } from './assemble.ts';
import { makeChooser, type Chooser } from './choose.ts';
import { modelOptions, round0, viewOf, type Candidate, type Chosen, type PlanOptions } from './common.ts';
import { ELEMENT_RULES, PHASES, isFlat, type ElementContext, type ElementRule } from './elements.ts';
import { boilerEndOfLife, joinVentilation, ownStepsFirst } from './order.ts';

export type { PlanOptions } from './common.ts';

/**
 * The suggested renovation trajectory (docs/http-contract.md; docs/domain.md "The planner"), pure: the home
 * as an energy advisor plans it. Element by element in the advisor's phases (roof; walls and windows;
 * floor; ventilation; heat generator with its emitters and the oil tank; hot water; solar panels),
 * every element below the long-term standard gets its step with the cheapest adequate variant, what
 * works is kept, and inside a phase the element with the largest EPC gain goes first (ties: cheaper
 * after grants). The target label is an outcome marked on the step that reaches it. The figures come
 * from the catalogue's item-set valuation, the same code a renovation made of these steps is valued with.
 */

const SELECTION = PLANNER_DATA.selection;

/** The measures the planner would consider for this home before any step: the variants of the elements it would treat first in each phase. */
export function plannableTypes(property: PropertyDescription, options: Pick<PlanOptions, 'sources'> = {}): string[] {
  const { base } = evaluateVariants(property, [], modelOptions(options));
  const view = viewOf(property, base.assumed);
  const ctx: ElementContext = { view, original: view, stated: property, region: base.region, base, planned: [] };
  return ELEMENT_RULES.flatMap((rule) => {
    const decision = rule.decide(ctx);
    return 'variants' in decision ? decision.variants : [];
  });
}

export function planTrajectory(property: PropertyDescription, options: PlanOptions): TrajectoryPlan {
  const scorer = variantScorer(property, modelOptions(options));
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
  const chooser = makeChooser(property, options, scorer, pricing, meetsTarget);
  const leftOut: PlanOmission[] = [];
  const stopped = calibrationConflict(property, base, options);
  if (stopped) return assemble(property, options, base, [], pricing, leftOut, { meetsTarget, target, pvForTarget: false, stopped });
  const chosen = choosePhases(property, base, chooser, leftOut);
  const score = (state: Partial<PropertyDescription>) => scorer.score(state);
  const joined = joinVentilation(chosen, leftOut, score);
  const ordered = isFlat(property)
    ? ownStepsFirst(joined, property, base, score, boilerEndOfLife(property, options.year) !== null)
    : joined;
  return assemble(property, options, base, ordered, pricing, leftOut, {
    meetsTarget,
    target,
    pvForTarget: chooser.pv.forTarget,
    pvSizing: chooser.pv.words,
    stopped: null,
  });
}

/** An element rule's decision made into a candidate step, or its omission said in `leftOut` (null). */
function candidateOf(
  rule: ElementRule,
  ctx: ElementContext & { current: VariantScore },
  state: Partial<PropertyDescription>,
  chooser: Chooser,
  leftOut: PlanOmission[],
): { candidate: Candidate; note: PlanOmission | null } | null {
  const decision = rule.decide(ctx);
  if ('omit' in decision) {
    if (decision.omit) leftOut.push({ element: rule.element, ...decision.omit });
    return null;
  }
  const { current } = ctx;
  const candidate = chooser.cheapestAdequate(rule, decision, state, current, ctx.view, ctx.planned);
  if (!candidate) {
    leftOut.push({
      element: rule.element,
      code: 'NOT_PRICED',
      reason: `${rule.element.toLowerCase().replaceAll('_', ' ')}: no adequate variant can be priced for this home.`,
    });
    return null;
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
      return null;
    }
  }
  return { candidate, note: decision.note ? { element: rule.element, ...decision.note } : null };
}

/**
 * Every element in the advisor's phases: inside a phase, (a) the largest EPC gain first, (b) on an
 * equal gain the cheaper after grants; each step planned on the home as the steps before left it.
 */
function choosePhases(property: PropertyDescription, base: VariantScore & Evaluation, chooser: Chooser, leftOut: PlanOmission[]): Chosen[] {
  const chosen: Chosen[] = [];
  const original = viewOf(property, base.assumed);
  let state: Partial<PropertyDescription> = property;
  let current: VariantScore = base;
  // The home as the rules read it changes only with a pick: made once per pick, not once per pass of a phase.
  let view = viewOf(state, current.assumed);
  for (const phase of PHASES) {
    const pending = ELEMENT_RULES.filter((r) => r.phase === phase);
    while (pending.length > 0) {
      const ready = pending.filter((r) => !r.follows || !pending.some((p) => p.element === r.follows));
      const planned = chosen.map((c) => c.type);
      const ctx = { view, original, stated: state, region: base.region, base, planned, current };
      const candidates: { candidate: Candidate; note: PlanOmission | null }[] = [];
      for (const rule of ready) {
        const made = candidateOf(rule, ctx, state, chooser, leftOut);
        if (made) candidates.push(made);
        else pending.splice(pending.indexOf(rule), 1);
      }
      if (candidates.length === 0) continue;
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
      view = viewOf(state, current.assumed);
    }
  }
  return chosen;
}

/**
 * Rule CALIBRATION_CONFLICT (docs/domain.md "The planner", 9): a given score far better than the home as
 * described can have (an A on a bare house) is not planned on: the plan stops for a check, with the reason.
 */
function calibrationConflict(property: PropertyDescription, base: Evaluation, options: PlanOptions): TrajectoryPlan['stopped'] {
  const given = property.energy_efficiency_score;
  if (given === undefined) return null;
  const { energy_efficiency_score: _given, ...described } = property;
  const modelled = evaluate(described, modelOptions(options));
  const share = PLANNER_DATA.calibration_conflict.min_share_of_described_score;
  if (!(modelled.epc_score > 0) || given >= share * modelled.epc_score) return null;
  return {
    code: 'CALIBRATION_CONFLICT',
    reason: `The given EPC score ${round0(given)} (label ${base.epc_label}) is less than ${Math.round(share * 100)}% of the ${round0(modelled.epc_score)} (label ${modelled.epc_label}) the home as described would have: the score or the description is wrong. No works are planned until one of them is checked (the certificate, or the insulation, glazing and heating described).`,
  };
}
