import { z } from 'zod';
import {
  AdviceContact,
  TrajectoryJobMetadata,
  type PassportStep,
  type PassportStepEdit,
  type Region,
  type RenovationPassportContent,
  type SiteVisit,
} from '@renopath/contracts';
import { regionalTarget } from '@renopath/catalog/planner-data.ts';
import { labelFor, labelsOf } from '@renopath/energy';
import { factors } from '@renopath/energy/model/data.ts';
import passportJson from '../../data/passport.json' with { type: 'json' };

/** The passport's own figures (data/passport.json): the regions' public advice services. */
const PassportData = z.object({
  advice_contacts: z.array(AdviceContact.extend({ region: z.string(), year: z.number().int(), note: z.string() })).length(4),
});
const PASSPORT_DATA = PassportData.parse(passportJson);

/** The energy prices the model's yearly bills use, with their year and source (one definition: the model's factors). */
const PRICES = factors.prices_eur_per_kwh;

export function adviceContactOf(region: Region): RenovationPassportContent['advice_contact'] {
  const row = PASSPORT_DATA.advice_contacts.find((c) => c.region === region)!;
  return { name: row.name, url: row.url, phone: row.phone, source: row.source };
}

/** What the estate says of itself (estates' reply as the caller sees it). */
export interface EstateFacts {
  address: {
    street: string | null;
    house_number: string | null;
    house_number_extra: string | null;
    zip_code: string | null;
    place: string | null;
    country: string | null;
  };
  estate_type: string | null;
  estate_format: string | null;
  year_built: number | null;
  habitable_space_m2: number | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round0 = (x: number) => Math.round(x);

/** A field the plan does not define yet (a step's lifetime and maintenance, the household's income category): read when present, else null. */
function optional<T>(record: Record<string, unknown> | undefined, key: string, schema: z.ZodType<T>): T | null {
  if (!record || !(key in record)) return null;
  const parsed = schema.safeParse(record[key]);
  return parsed.success ? parsed.data : null;
}

type Plan = ReturnType<typeof TrajectoryJobMetadata.parse>;
type PlanStep = Plan['steps'][number];

/**
 * The passport's content pre-filled from a FINISHED trajectory job's `metadata` (docs/job-metadata.md)
 * and the estate: annex VIII point 1 (the building today, the staged roadmap, the target and the
 * legal milestones, the assumptions, the advice contact) and point 2 where the plan has the data.
 */
export function prefillContent(metadata: Record<string, unknown>, estate: EstateFacts): RenovationPassportContent {
  const plan = TrajectoryJobMetadata.parse(metadata);
  const rawSteps = (Array.isArray(metadata['steps']) ? metadata['steps'] : []) as Array<Record<string, unknown>>;
  const steps = plan.steps.map((step, i) => passportStep(step, rawSteps[i]));
  const target = regionalTarget(plan.region);
  return {
    building: buildingOf(plan, estate),
    steps,
    totals: totalsOf(steps),
    target: {
      label: target.label,
      year: target.year,
      reached: plan.target.reached,
      reached_by_step:
        plan.steps.find((s) => s.milestones.some((m) => m.label === plan.target.label && m.kind === 'TARGET'))?.order ?? null,
      source: target.source,
    },
    milestones: milestonesOf(plan),
    assumptions: assumptionsOf(plan, metadata),
    advice_contact: adviceContactOf(plan.region),
    site_visit: null,
  };
}

/** The fields of a plan's step the passport shows as the plan has them, in the passport's order. */
const AS_PLANNED = [
  'phase',
  'element',
  'root_renovation_component_type',
  'renovation_component_type',
  'title',
  'quantity',
  'unit',
  'specification',
  'rationale',
  'epc_label_after',
  'epc_score_after',
  'energy_savings_kwh_per_year',
  'cost_savings_eur_per_year',
  'co2_savings_kg_per_year',
  'estimated_cost',
  'estimated_vat_cost',
  'subsidy_amount',
  'net_cost',
  'grant_conditions',
  'planned_year',
] as const satisfies readonly (keyof PlanStep & keyof PassportStep)[];
const WORK_AS_PLANNED = ['renovation_component_type', 'title', 'quantity', 'unit', 'estimated_cost'] as const;

function pick<T, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = record[key];
  return picked;
}

/** A plan's step as the passport's: its figures as planned, and what the plan may add (lifetime, maintenance) when it has it. */
function passportStep(step: PlanStep, raw: Record<string, unknown> | undefined): PassportStep {
  return {
    order: step.order,
    plan_order: step.order,
    ...pick(step, AS_PLANNED),
    supporting_works: step.supporting_works.map((work) => pick(work, WORK_AS_PLANNED)),
    financing: step.financing ?? null,
    heat_pump_kw: step.heat_pump_kw ?? null,
    lifetime_years: optional(raw, 'lifetime_years', z.number()),
    maintenance: optional(raw, 'maintenance', z.string()),
    override: null,
  };
}

/** The building today: the estate's own facts, the plan's current figures, and which inputs were measured. */
function buildingOf(plan: Plan, estate: EstateFacts): RenovationPassportContent['building'] {
  const sources = plan.data_quality.sources;
  const { address, estate_type, estate_format, year_built, habitable_space_m2: area } = estate;
  const { epc_label, epc_score, primary_energy_kwh_per_year, heating_need_kwh_per_year, energy_cost_eur_per_year } = plan.current;
  return {
    address,
    estate_type,
    estate_format,
    year_built,
    habitable_space_m2: area,
    region: plan.region,
    scale: plan.energy_efficiency_type,
    epc_label,
    epc_score,
    primary_energy_kwh_m2: area && area > 0 ? round0(primary_energy_kwh_per_year / area) : null,
    primary_energy_kwh_per_year,
    heating_need_kwh_per_year,
    co2_kg_year: plan.current.co2_kg_per_year,
    energy_cost_eur_per_year,
    data_quality: {
      confidence_score: plan.confidence_score,
      quality_label: plan.quality_label,
      sources,
      measured: Object.keys(sources)
        .filter((k) => sources[k] !== 'MODEL')
        .sort(),
      model_defaults: Object.keys(sources)
        .filter((k) => sources[k] === 'MODEL')
        .sort(),
      flags: plan.data_quality.flags,
    },
  };
}

/** The legal milestones: those a step reaches (with its order), then those the plan misses. */
function milestonesOf(plan: Plan): RenovationPassportContent['milestones'] {
  return [
    ...plan.steps.flatMap((step) => step.milestones.map((m) => ({ m, reached_by_step: step.order as number | null }))),
    ...plan.milestones_missed.map((m) => ({ m, reached_by_step: null })),
  ].map(({ m, reached_by_step }) => ({
    kind: m.kind,
    rule_id: m.rule_id,
    label: m.label,
    description: m.description,
    source: m.source,
    deadline: m.deadline,
    applies_because: m.applies_because,
    reached_by_step,
  }));
}

/** What the figures rest on: the price year, the country's energy prices with their source, the household, the versions. */
function assumptionsOf(plan: Plan, metadata: Record<string, unknown>): RenovationPassportContent['assumptions'] {
  const country = plan.region === 'NETHERLANDS' ? 'NL' : 'BE';
  const prices = factors.prices_eur_per_kwh[country];
  const household = metadata['household'] as Record<string, unknown> | undefined;
  return {
    price_year: plan.price_year,
    energy_prices: {
      year: PRICES.year,
      country,
      source: PRICES.source,
      prices: Object.entries(prices).map(([carrier, eur_per_kwh]) => ({ carrier, eur_per_kwh })),
    },
    income_category: optional(metadata, 'income_category', z.string()) ?? optional(household, 'income_category', z.string()) ?? null,
    model_version: plan.versions.model,
    catalogue_version: plan.versions.catalogue,
    calibration: plan.calibration ?? null,
    expected_price_error: plan.expected_price_error,
    notes: plan.assumptions,
    edits_method: EDITS_METHOD,
  };
}

/** How edits are recomputed, stated in the passport itself so a reader knows what the figures after an edit are. */
export const EDITS_METHOD =
  "After the advisor's edits, each kept step keeps the planner's gain in score, energy, CO2 and bill; the labels after each step are the scale's labels of the running score. Interactions between measures are not re-modelled. A quantity override scales the step's cost, VAT and grant; a cost override sets the cost excl. VAT and the VAT at the step's rate.";

export function totalsOf(steps: readonly PassportStep[]): RenovationPassportContent['totals'] {
  const sum = (f: (s: PassportStep) => number) => round2(steps.reduce((a, s) => a + f(s), 0));
  return {
    estimated_cost: sum((s) => s.estimated_cost),
    estimated_vat_cost: sum((s) => s.estimated_vat_cost),
    subsidy_amount: sum((s) => s.subsidy_amount),
    total_estimated_cost_incl_vat: sum((s) => s.estimated_cost + s.estimated_vat_cost),
    net_cost: sum((s) => s.net_cost),
    energy_savings_kwh_per_year: sum((s) => s.energy_savings_kwh_per_year),
    cost_savings_eur_per_year: sum((s) => s.cost_savings_eur_per_year),
    co2_savings_kg_per_year: sum((s) => s.co2_savings_kg_per_year),
  };
}

/** The advisor's edits so far: per step (by `plan_order`, the later edit of a field winning) and the order. */
export interface PassportEdits {
  steps: PassportStepEdit[];
  step_order: number[] | null;
}

/** Merges a PATCH's step edits into the ones made before (per step, field by field). */
export function mergeEdits(before: PassportEdits, steps: readonly PassportStepEdit[] = [], step_order?: number[]): PassportEdits {
  const byStep = new Map(before.steps.map((e) => [e.plan_order, { ...e }]));
  for (const edit of steps) byStep.set(edit.plan_order, { ...byStep.get(edit.plan_order), ...edit });
  return { steps: [...byStep.values()].sort((a, b) => a.plan_order - b.plan_order), step_order: step_order ?? before.step_order };
}

/** An edit the prefilled content cannot take: names the step (400 at the edge). */
export class PassportEditError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join('; '));
  }
}

/**
 * The content after the advisor's edits, from the pre-filled one: steps dropped, reordered and
 * overridden, then the labels, scores, totals and the target's step recomputed (EDITS_METHOD).
 */
export function applyEdits(
  prefilled: RenovationPassportContent,
  edits: PassportEdits,
  site_visit: SiteVisit | null,
): RenovationPassportContent {
  const known = new Set(prefilled.steps.map((s) => s.plan_order));
  const problems: string[] = [];
  for (const e of edits.steps) if (!known.has(e.plan_order)) problems.push(`steps: no step with plan_order ${e.plan_order}`);
  const dropped = new Set(edits.steps.filter((e) => e.drop).map((e) => e.plan_order));
  let kept = prefilled.steps.filter((s) => !dropped.has(s.plan_order));
  if (edits.step_order) {
    const order = edits.step_order;
    const keptOrders = kept.map((s) => s.plan_order).sort((a, b) => a - b);
    const given = [...order].sort((a, b) => a - b);
    if (given.length !== keptOrders.length || given.some((v, i) => v !== keptOrders[i]))
      problems.push(`step_order must name every kept step once (plan_order ${keptOrders.join(', ')})`);
    else kept = order.map((p) => kept.find((s) => s.plan_order === p)!);
  }
  if (problems.length > 0) throw new PassportEditError(problems);

  const scale = prefilled.building.scale;
  // Each step's gain in score, from the plan's own sequence (the score before step 1 is today's).
  const gain = new Map<number, number>();
  prefilled.steps.reduce(
    (before, s) => (gain.set(s.plan_order, before - s.epc_score_after), s.epc_score_after),
    prefilled.building.epc_score,
  );

  let score = prefilled.building.epc_score;
  const steps = kept.map((step, i) => {
    const edit = edits.steps.find((e) => e.plan_order === step.plan_order);
    score -= gain.get(step.plan_order) ?? 0;
    const money = editedMoney(step, edit);
    return {
      ...step,
      ...money,
      order: i + 1,
      epc_score_after: round0(score),
      epc_label_after: labelFor(scale, score),
      override:
        edit && (edit.quantity !== undefined || edit.estimated_cost !== undefined)
          ? { quantity: edit.quantity ?? null, estimated_cost: edit.estimated_cost ?? null, note: edit.note ?? '' }
          : null,
    };
  });

  const targetStep = steps.find((s) => meetsTarget(prefilled, s.epc_label_after));
  // A milestone is reached by the first step whose label is at least the milestone's.
  const firstReaching = (label: string) => steps.find((s) => atLeast(scale, s.epc_label_after, label))?.order ?? null;
  return {
    ...prefilled,
    steps,
    totals: totalsOf(steps),
    target: { ...prefilled.target, reached: targetStep !== undefined, reached_by_step: targetStep?.order ?? null },
    milestones: prefilled.milestones.map((m) => ({
      ...m,
      reached_by_step: m.kind === 'TARGET' ? (targetStep?.order ?? null) : firstReaching(m.label),
    })),
    site_visit,
  };
}

/** A label at least as good as another on the scale (labels run best first in labelFor's scale). */
function atLeast(scale: RenovationPassportContent['building']['scale'], label: string, wanted: string): boolean {
  const order = labelsInOrder(scale);
  const a = order.indexOf(label);
  const b = order.indexOf(wanted);
  return a >= 0 && b >= 0 && a <= b;
}

function meetsTarget(content: RenovationPassportContent, label: string): boolean {
  const worst = regionalTarget(content.building.region).worst_label_meeting_target;
  return atLeast(content.building.scale, label, worst);
}

const labelsInOrder = (scale: RenovationPassportContent['building']['scale']) => labelsOf(scale);

function editedMoney(step: PassportStep, edit: PassportStepEdit | undefined) {
  const money = {
    quantity: step.quantity,
    estimated_cost: step.estimated_cost,
    estimated_vat_cost: step.estimated_vat_cost,
    subsidy_amount: step.subsidy_amount,
    net_cost: step.net_cost,
  };
  if (!edit) return money;
  if (edit.quantity !== undefined && step.quantity > 0) {
    const ratio = edit.quantity / step.quantity;
    money.quantity = edit.quantity;
    money.estimated_cost = round2(step.estimated_cost * ratio);
    money.estimated_vat_cost = round2(step.estimated_vat_cost * ratio);
    money.subsidy_amount = round2(step.subsidy_amount * ratio);
  }
  if (edit.estimated_cost !== undefined) {
    const rate = step.estimated_cost > 0 ? step.estimated_vat_cost / step.estimated_cost : 0;
    money.estimated_cost = round2(edit.estimated_cost);
    money.estimated_vat_cost = round2(edit.estimated_cost * rate);
  }
  // A grant never exceeds what the works cost.
  money.subsidy_amount = Math.min(money.subsidy_amount, round2(money.estimated_cost + money.estimated_vat_cost));
  money.net_cost = round2(money.estimated_cost + money.estimated_vat_cost - money.subsidy_amount);
  return money;
}
