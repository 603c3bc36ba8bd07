import {
  CATALOGUE_VERSION,
  appliesIfLet,
  endedGrantRule,
  getNode,
  grantRulesKnown,
  heatPumpBand,
  heatPumpLeaf,
  leafOfType,
  meetsMilestone,
  milestonesFor,
  PLANNER_DATA,
  type regionalTarget,
  specificationOf,
  valueItemSet,
  type PricedItem,
  type SetPricing,
  type ValuedSet,
} from '@renopath/catalog';
import { MODEL_VERSION, labelsOf, type Evaluation } from '@renopath/energy';
import type {
  BillIncrease,
  GrantConditions,
  PlanMilestone,
  PlanOmission,
  PropertyDescription,
  RenovationObligationMark,
  TrajectoryPlan,
  TrajectoryStep,
  TrajectorySupportingWork,
} from '@renopath/contracts';
import { CO_OWNED, ENVELOPE_ELEMENTS, round0, round1, round2, roofKindOf, type Chosen, type PlanOptions } from './common.ts';
import { isFlat } from './elements.ts';
import { boilerEndOfLife } from './order.ts';
import { rationaleOf } from './rationale.ts';

/**
 * The plan made of the chosen steps: each step valued in the one item set a renovation made of the plan
 * is valued with (so the plan's figures are the renovation's), its supporting works, milestones,
 * specification, grant conditions and rationale, and the plan's totals and assumptions.
 */

export interface AssembleContext {
  meetsTarget(label: string): boolean;
  target: ReturnType<typeof regionalTarget>;
  /** The panels fill the usable roof because a size on the electricity use would miss the target. */
  pvForTarget: boolean;
  stopped: TrajectoryPlan['stopped'];
  /** The panels' size and how it was reached (said in the assumptions). */
  pvSizing?: string | null;
}

type Part = Pick<
  PricedItem,
  'renovation_component_type' | 'quantity' | 'unit' | 'estimated_cost' | 'estimated_vat_cost' | 'subsidy_amount'
> & {
  scheme?: string | null;
  conditions: readonly string[];
};

/** Splits `total` (in cents) by `weights`, the remainders to the largest fractions, so the parts add up to the total exactly. */
function splitCents(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  const cents = Math.round(total * 100);
  const raw = weights.map((w) => (cents * w) / sum);
  const parts = raw.map((r) => Math.floor(r));
  let left = cents - parts.reduce((s, p) => s + p, 0);
  const byFraction = raw.map((r, i) => ({ i, f: r - Math.floor(r) })).sort((a, b) => b.f - a.f);
  for (const { i } of byFraction) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts.map((p) => p / 100);
}

/**
 * Rule SUPPORTING_WORKS_ON_THEIR_STEP (docs/domain.md "The planner", 6): each supporting work goes on the
 * steps whose measures cause it, by how much each causes (the demolition of the floor on the floor's
 * step, the window's on the window's), never all on the first step; a one-off (an asbestos inventory, an
 * audit) on the first step that needs it. The parts add up, cent for cent, to the work the renovation counts.
 */
function worksByStep(chosen: readonly Chosen[], valued: ValuedSet): Map<number, (PricedItem & { share: number })[]> {
  const out = new Map<number, (PricedItem & { share: number })[]>();
  const leafTypeOf = (type: string) => leafOfType(type)!.renovation_component_type;
  const typesOf = chosen.map((c) => [leafTypeOf(c.type), ...(c.joined ? [leafTypeOf(c.joined.type)] : [])]);
  for (const work of valued.derived) {
    let weights = typesOf.map((types) => types.reduce((s, t) => s + (work.weights[t] ?? 0), 0));
    if (!(weights.reduce((s, w) => s + w, 0) > 0)) {
      const first = typesOf.findIndex((types) => types.some((t) => work.supports.includes(t)));
      weights = typesOf.map((_, i) => (i === Math.max(0, first) ? 1 : 0));
    }
    const steps = weights.map((w, i) => ({ w, i })).filter((x) => x.w > 0);
    const total = steps.reduce((s, x) => s + x.w, 0);
    const ws = steps.map((x) => x.w);
    const cost = splitCents(work.estimated_cost, ws);
    const vat = splitCents(work.estimated_vat_cost, ws);
    const subsidy = splitCents(work.subsidy_amount, ws);
    steps.forEach(({ w, i }, k) => {
      const share = w / total;
      out.set(i, [
        ...(out.get(i) ?? []),
        {
          ...work,
          quantity: round2(work.quantity * share),
          estimated_cost: cost[k]!,
          estimated_vat_cost: vat[k]!,
          subsidy_amount: subsidy[k]!,
          net_cost: round2(cost[k]! + vat[k]! - subsidy[k]!),
          share,
        },
      ]);
    });
  }
  return out;
}

/** The milestones that apply to the home (its region, label today, deed and occupancy), soonest first. */
function openMilestones(base: Evaluation, options: PlanOptions) {
  const givenDeed = options.deedDate ?? options.household?.purchase_date;
  const deedDate = givenDeed ?? `${options.year}-07-01`;
  const context = {
    deedGiven: givenDeed !== undefined,
    ifLet: true,
    today: options.today ?? `${options.year}-07-01`,
    ...(options.household?.occupancy ? { occupancy: options.household.occupancy } : {}),
  };
  const open: PlanMilestone[] = milestonesFor(base.region, base.epc_label, labelsOf(base.energy_efficiency_type), deedDate, context).map(
    ({ kind, rule_id, label, description, source, deadline, applies_because, binds, checked_on, conditional_on }) => ({
      kind,
      rule_id,
      label,
      description,
      source,
      deadline,
      applies_because,
      binds,
      checked_on,
      ...(conditional_on ? { conditional_on } : {}),
    }),
  );
  return { open, deedDate, context };
}

/** The Flemish purchase obligation a step reaches, as the step's `renovation_obligation` mark. */
function obligationMark(milestones: readonly PlanMilestone[]): RenovationObligationMark | null {
  const obligation = milestones.find((m) => m.kind === 'OBLIGATION' && m.rule_id.startsWith('FL_'));
  if (!obligation) return null;
  const row = PLANNER_DATA.renovation_obligation.rows.find((r) => r.id === obligation.rule_id)!;
  return {
    rule_id: obligation.rule_id,
    label: obligation.label,
    within_years: PLANNER_DATA.renovation_obligation.within_years,
    deeds_from: row.deeds_from,
    description: obligation.description,
    source: obligation.source,
  };
}

/** The grant beside its amount: granted, not eligible, or not yet sourced for the region (a 0 that means unknown). */
function grantConditionsOf(
  region: Evaluation['region'],
  item: PricedItem,
  type: string,
  all: readonly Part[],
  subsidy: number,
  year: number,
): GrantConditions {
  const hasRules = grantRulesKnown(region, item.priced_as) || grantRulesKnown(region, type);
  // A scheme that has ended is said to have ended: its 0 is a "none", with the date and the source.
  const ended = subsidy > 0 ? null : endedGrantRule(region, item.priced_as, `${year}-07-01`);
  if (ended)
    return {
      status: 'NOT_ELIGIBLE',
      schemes: [ended.scheme],
      conditions: [
        `No grant: ${ended.scheme} ended on ${ended.valid_to}; none is in force for this measure in ${year} (${ended.source}).`,
        ...new Set(all.flatMap((p) => p.conditions)),
      ],
    };
  return {
    status: subsidy > 0 ? 'GRANTED' : hasRules ? 'NOT_ELIGIBLE' : 'NOT_YET_SOURCED',
    schemes: [...new Set(all.filter((p) => p.scheme).map((p) => p.scheme!))],
    conditions:
      subsidy > 0 || hasRules
        ? [...new Set(all.flatMap((p) => p.conditions))]
        : [
            `No ${region.charAt(0)}${region.slice(1).toLowerCase()} grant for this measure is sourced in the catalogue yet: the 0 shown means unknown, not none.`,
          ],
  };
}

const asWork = (w: Part): TrajectorySupportingWork => ({
  renovation_component_type: w.renovation_component_type,
  title: getNode(w.renovation_component_type).name,
  quantity: w.quantity,
  unit: w.unit,
  estimated_cost: w.estimated_cost,
  estimated_vat_cost: w.estimated_vat_cost,
  subsidy_amount: w.subsidy_amount,
});

interface StepInput {
  property: PropertyDescription;
  options: PlanOptions;
  base: Evaluation;
  chosen: readonly Chosen[];
  valued: ValuedSet;
  works: Map<number, (PricedItem & { share: number })[]>;
  /** The design heat load (kW) the home has before step i (the step before's model run). */
  loadBefore: (i: number) => number;
  generatorYear: number | null;
  take: (label: string) => PlanMilestone[];
  /** The milestones no step has reached yet (after `take`), and whether one binds the household. */
  pending: () => readonly PlanMilestone[];
  binding: (m: PlanMilestone) => boolean;
}

/**
 * Rule BILL_INCREASE_IS_LABEL_PRICE: a step that raises the household's bill is the price of a label or
 * of an obligation, never advice: the obligation that asks for it is the first binding one not met
 * before the step (reached by it or later, or missed); without one the step is optional.
 */
function billIncreaseOf(
  input: StepInput,
  reached: readonly PlanMilestone[],
  costSavings: number,
): (BillIncrease & { obligation: PlanMilestone | null }) | null {
  if (costSavings > -1) return null;
  const obligation = [...reached, ...input.pending()].find((m) => m.kind !== 'TARGET' && input.binding(m)) ?? null;
  return {
    eur_per_year: round2(-costSavings),
    serves: obligation ? (obligation.kind === 'OBLIGATION' ? 'OBLIGATION' : 'RENTAL_NORM') : 'LABEL',
    optional: obligation === null,
    rule_id: obligation?.rule_id ?? null,
    obligation,
  };
}

/** A step's money: its item, joined measure and share of supporting works, summed in cents. */
function moneyOf(all: readonly Part[]) {
  const estimated_cost = round2(all.reduce((s, p) => s + p.estimated_cost, 0));
  const estimated_vat_cost = round2(all.reduce((s, p) => s + p.estimated_vat_cost, 0));
  const subsidy_amount = round2(all.reduce((s, p) => s + p.subsidy_amount, 0));
  return { estimated_cost, estimated_vat_cost, subsidy_amount, net_cost: round2(estimated_cost + estimated_vat_cost - subsidy_amount) };
}

/** Rule CO_OWNERSHIP: a flat's step on the building's roof, facades or common floors is the association's decision. */
function coOwnershipOf(property: PropertyDescription, base: Evaluation, c: Chosen) {
  const association = PLANNER_DATA.co_ownership.association[base.country];
  const co_ownership =
    isFlat(property) && CO_OWNED.has(c.element)
      ? { decided_by: 'CO_OWNERS' as const, association, share: property.co_ownership_share ?? null }
      : null;
  return { association, co_ownership };
}

/** One step of the plan: its priced item, joined measure and share of supporting works, and what it says. */
function stepOf(input: StepInput, c: Chosen, i: number): TrajectoryStep {
  const { property, options, base, chosen, valued } = input;
  const result = valued.items[String(i + 1)]!;
  if (!result.priced) throw new Error(`planner: step ${c.type} could not be priced: ${result.error}`);
  const item = result.priced;
  const joinedResult = c.joined ? valued.items[`${i + 1}+`] : undefined;
  if (joinedResult && !joinedResult.priced) throw new Error(`planner: ${c.joined!.type} could not be priced: ${joinedResult.error}`);
  const joined = joinedResult?.priced ? [joinedResult.priced] : [];
  const works = input.works.get(i) ?? [];
  const supporting_works = [...joined.map((w) => ({ ...asWork(w), joined: true })), ...works.map(asWork)];
  const all: Part[] = [item, ...joined, ...works];
  const { estimated_cost, estimated_vat_cost, subsidy_amount, net_cost } = moneyOf(all);
  const after = c.evaluation;
  const milestones = input.take(after.epc_label);
  const cost_savings = round2(c.before.energy_cost_eur_per_year - after.energy_cost_eur_per_year);
  const billIncrease = billIncreaseOf(input, milestones, cost_savings);
  const node = getNode(c.type);
  const { isPump, designLoadKw, planned_year } = heatingOf(input, c, i);
  const ended = subsidy_amount > 0 ? null : endedGrantRule(base.region, item.priced_as, `${options.year}-07-01`);
  const grant_conditions = grantConditionsOf(base.region, item, c.type, all, subsidy_amount, options.year);
  const power = isPump ? heatPumpBand(input.loadBefore(i)) : c.type === 'SOLAR_PANELS' ? item.quantity : null;
  const flat = isFlat(property);
  const { association, co_ownership } = coOwnershipOf(property, base, c);
  // OWN_STEPS_FIRST: an own step of a flat says it comes first where co-owners' steps follow it.
  const coOwnersLater = flat && !co_ownership && chosen.slice(i + 1).some((x) => CO_OWNED.has(x.element));
  const life = PLANNER_DATA.measure_life.years[c.element] ?? null;
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
    net_cost,
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
      incomeCategory: options.incomeCategory ?? null,
      priceYear: options.year,
      designLoadKw,
      joined: c.joined?.type ?? null,
      reason: c.reason ?? null,
      permit: c.permit ?? null,
      coOwnership: co_ownership,
      ownFirst: coOwnersLater ? { association } : null,
      afterCoOwners: c.afterCoOwners ?? null,
      facadeScaffold: chosen.some((x) => x.type === 'EXTERIOR_WALL_INSULATION'),
      outdoorUnitOnCommonParts: flat && isPump && !c.type.startsWith('HEAT_PUMP_GEOTHERMAL'),
      plannedYear: planned_year,
      grantStatus: grant_conditions.status,
      grantEnded: ended ? { scheme: ended.scheme, on: ended.valid_to! } : null,
      life,
      netCost: net_cost,
      billIncrease,
      co2SavingsPerYear: c.before.co2_kg_per_year - after.co2_kg_per_year,
      grantScheme: [...new Set(all.filter((p) => p.subsidy_amount > 0 && p.scheme).map((p) => p.scheme!))].join(', ') || null,
    }),
    renovation_obligation: obligationMark(milestones),
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
    bill_increase: billIncrease && billMark(billIncrease),
  };
}

const billMark = ({ eur_per_year, serves, optional, rule_id }: BillIncrease): BillIncrease => ({ eur_per_year, serves, optional, rule_id });

/** A heat pump's design loads (today and once the envelope steps before it are done) and the heating's planned year. */
function heatingOf(input: StepInput, c: Chosen, i: number) {
  const { chosen, base } = input;
  const isPump = c.element === 'HEAT_GENERATOR' && c.type.startsWith('HEAT_PUMP');
  // A heat pump after envelope works: the design heat load it is sized on, against today's.
  const designLoadKw =
    isPump && chosen.slice(0, i).some((x) => ENVELOPE_ELEMENTS.has(x.element))
      ? { today: base.design_heat_load_kw, insulated: input.loadBefore(i) }
      : null;
  const generator = chosen.findIndex((x) => x.element === 'HEAT_GENERATOR');
  const planned_year =
    input.generatorYear !== null && ['HEAT_GENERATOR', 'HEAT_EMITTERS', 'OIL_TANK'].includes(c.element) && i >= generator
      ? input.generatorYear
      : null;
  return { isPump, designLoadKw, planned_year };
}

/** What the plan's figures rest on, said once for the whole plan. */
function planAssumptions(
  property: PropertyDescription,
  options: PlanOptions,
  base: Evaluation,
  chosen: readonly Chosen[],
  valued: ValuedSet,
  steps: readonly TrajectoryStep[],
  missed: readonly PlanMilestone[],
  deedDate: string,
  ctx: AssembleContext,
): string[] {
  const assumptions = [
    ...new Set([
      ...valued.derived.flatMap((w) => w.assumptions),
      ...Object.values(valued.items).flatMap((r) => r.priced?.assumptions ?? []),
    ]),
  ];
  if (valued.derived_error) assumptions.push(`Supporting works are not included: ${valued.derived_error}.`);
  for (const c of chosen) if (c.assumption) assumptions.push(c.assumption);
  for (const m of missed) assumptions.push(`The plan does not reach label ${m.label}: ${m.description}`);
  const pump = steps.find((s) => s.element === 'HEAT_GENERATOR' && s.renovation_component_type.startsWith('HEAT_PUMP'));
  if (pump)
    assumptions.push(
      /_\d+KW$/.test(pump.renovation_component_type)
        ? `Rule HEAT_PUMP_BY_BAND: the heat pump is priced at its ${pump.specification.power_kw} kW band, the band covering the home's design heat loss once the steps before it are done.`
        : "The heat pump's power is the kW band covering the insulated home's design heat loss (its specification); this kind of heat pump is still priced as the catalogue's typical unit, not by band.",
    );
  if (steps.some((s) => s.supporting_works.some((w) => !w.joined)))
    assumptions.push(
      'Rule SUPPORTING_WORKS_ON_THEIR_STEP: a supporting work several steps need (demolition, waste, scaffolding, safety coordination) is shared between them by what each causes; a one-off (an inventory, an audit) goes on the first step that needs it.',
    );
  if (steps.some((s) => s.co_ownership)) {
    const association = PLANNER_DATA.co_ownership.association[base.country];
    assumptions.push(
      `The steps on the building's roof, facades or common floors are decisions of ${association}, priced on this flat's own surfaces${property.co_ownership_share ? `; the association bills the building's works by the flat's share (${Math.round(property.co_ownership_share * 1000)}/1000)` : ''}; the flat's own steps come first (Rule OWN_STEPS_FIRST).`,
    );
  }
  if (steps.some((s) => s.element === 'SOLAR_PANELS')) {
    assumptions.push(
      ctx.pvForTarget
        ? "The solar panels fill the usable roof: sized on the home's electricity use alone, they would leave it short of the region's target label."
        : (ctx.pvSizing ??
            `The solar panels are sized on the home's electricity use after the works (the energy model's, plus ${PLANNER_DATA.pv_sizing.household_kwh_per_year[base.country]} kWh of household use a year), within the usable roof.`),
    );
  }
  const dated = steps.flatMap((s) => s.milestones).concat(missed);
  if (!options.deedDate && !options.household?.purchase_date && dated.some((m) => m.kind === 'OBLIGATION')) {
    assumptions.push(`A purchase deed dated ${deedDate} is assumed for the obligations after a purchase.`);
  }
  if (dated.some((m) => m.conditional_on === 'PURCHASE')) {
    assumptions.push(
      `The obligations after a purchase are read on the household's planned purchase (deed of ${deedDate}, after this plan was made): they apply only if that purchase goes ahead, and their deadlines are hypothetical until the deed is signed.`,
    );
  }
  return assumptions;
}

export function assemble(
  property: PropertyDescription,
  options: PlanOptions,
  base: Evaluation,
  planned: readonly Chosen[],
  pricing: SetPricing,
  leftOut: PlanOmission[],
  ctx: AssembleContext,
): TrajectoryPlan {
  // The design heat load as the steps before step i leave the home: the energy model's run of that state, which the
  // step before already scored (its VariantScore), so no second full evaluation is made for it.
  const loadBefore = (i: number) => (i > 0 ? planned[i - 1]!.evaluation : base).design_heat_load_kw;
  // HEAT_PUMP_BY_BAND: a heat pump is the catalogue leaf of the kW band that covers the home's design heat loss as the steps before leave it.
  const chosen = planned.map((c, i) => (c.element === 'HEAT_GENERATOR' ? { ...c, type: heatPumpLeaf(c.type, loadBefore(i)) } : c));
  const items = chosen.flatMap((c, i) => [
    { key: String(i + 1), renovation_component_type: c.type, quantity: c.quantity },
    ...(c.joined ? [{ key: `${i + 1}+`, renovation_component_type: c.joined.type, quantity: c.joined.quantity }] : []),
  ]);
  const valued = valueItemSet(property, items, pricing);
  const { open, deedDate, context } = openMilestones(base, options);
  const scale = labelsOf(base.energy_efficiency_type);
  const take = (label: string) => {
    const reached = open.filter((m) => meetsMilestone(m, label, scale, base.region));
    for (const m of reached) open.splice(open.indexOf(m), 1);
    return reached;
  };
  // BOILER_END_OF_LIFE: a young boiler is replaced when it wears out, unless the bill falls by doing it now.
  const generator = chosen.find((c) => c.element === 'HEAT_GENERATOR');
  const endOfLife = boilerEndOfLife(property, options.year);
  const generatorYear =
    generator && endOfLife !== null && generator.before.energy_cost_eur_per_year - generator.evaluation.energy_cost_eur_per_year <= 0
      ? endOfLife
      : null;
  const input: StepInput = {
    property,
    options,
    base,
    chosen,
    valued,
    works: worksByStep(chosen, valued),
    loadBefore,
    generatorYear,
    take,
    pending: () => open,
    // A landlord's norm listed only because the home might be let binds no one yet.
    binding: (m) => !appliesIfLet(m, context),
  };
  const steps = chosen.map((c, i) => stepOf(input, c, i));

  const sum = (f: (s: TrajectoryStep) => number) => round2(steps.reduce((acc, s) => acc + f(s), 0));
  const estimated_cost = sum((s) => s.estimated_cost);
  const estimated_vat_cost = sum((s) => s.estimated_vat_cost);
  const final = chosen.length ? chosen[chosen.length - 1]!.evaluation : base;
  // A landlord's norm listed only because the home might be let is marked where a step reaches it, never missed.
  const missed = open.filter((m) => !appliesIfLet(m, context));
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
    assumptions: planAssumptions(property, options, base, chosen, valued, steps, missed, deedDate, ctx),
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
