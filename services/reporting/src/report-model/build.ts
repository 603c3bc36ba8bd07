import type { z } from 'zod';
import { applyEffect, findNode, rootOf } from '@renopath/catalog';
import {
  EnergyEfficiencyType,
  knownPropertyOfEstate,
  propertyFromEstate,
  type Estate,
  type EstateData,
  type GovernmentGrants,
  type PropertyDescription,
  type Renovation,
  type RenovationItem,
  type RenovationOverviewV1,
  type TrajectoryPlan,
} from '@renopath/contracts';
import { detectRegion, evaluateVariants, labelsOf, scaleOfRegion, type Evaluation } from '@renopath/energy';
import { assumptionsOf } from './assumptions.ts';
import { conditionsOf, milestonesOf } from './conditions.ts';
import { moneyOf } from './money.ts';
import type { ReportGrantCategory, ReportItem, ReportLanguage, ReportModel, ReportStep } from '../report-model.ts';

/**
 * The report's model from what the renovations and estates contexts answered: pure, so the figures a
 * report shows can be checked without a running system. Money is summed in cents to stay exact.
 */
export interface ReportInputs {
  language: ReportLanguage;
  generated_at: string;
  renovation: Pick<Renovation, 'energy_efficiency_indication' | 'energy_efficiency_type'>;
  overview: z.infer<typeof RenovationOverviewV1>;
  grants: z.infer<typeof GovernmentGrants>;
  /** The estate as `qry.estates.get-estate` answers it. */
  estate: Estate;
  /** The client items' ids in the renovation's order (a trajectory's plan order); others follow. */
  itemOrder: readonly string[];
  photo: ReportModel['estate']['photo'];
  agency: ReportModel['agency'];
  /** The trajectory this renovation was made from, if it was: the steps' phases. */
  plan?: (Pick<TrajectoryPlan, 'steps'> & Partial<Pick<TrajectoryPlan, 'current' | 'totals' | 'calibration'>>) | null;
}

const cents = (v: number) => Math.round(v * 100);
const euros = (c: number) => c / 100;

/** The overview's client items (every scope), in the renovation's order. */
export function orderedItems(overview: ReportInputs['overview'], itemOrder: readonly string[]): RenovationItem[] {
  const d = overview.details;
  const all = [
    ...d.general,
    ...d.roofs.flatMap((r) => r.items),
    ...d.rooms.flatMap((r) => r.items),
    ...d.staircases.flatMap((s) => s.items),
  ];
  const rank = new Map(itemOrder.map((id, i) => [id, i]));
  return all
    .map((item, i) => ({ item, i }))
    .sort((a, b) => (rank.get(a.item.id) ?? itemOrder.length + a.i) - (rank.get(b.item.id) ?? itemOrder.length + b.i))
    .map(({ item }) => item);
}

const rootType = (type: string) => {
  const node = findNode(type);
  return node ? rootOf(node).renovation_component_type : type;
};

/** A supporting work belongs to the first step whose item (or that item's root) it serves; the first step otherwise. */
function stepOfSupportingWork(work: RenovationItem, steps: readonly RenovationItem[]): number {
  const supported = new Set(work.supports);
  const index = steps.findIndex(
    (s) =>
      supported.has(s.renovation_component_type) ||
      supported.has(s.root_renovation_component_type) ||
      supported.has(rootType(s.renovation_component_type)),
  );
  return index === -1 ? 0 : index;
}

const reportItem = (item: RenovationItem, derived: boolean): ReportItem => ({
  renovation_component_type: item.renovation_component_type,
  quantity: item.quantity,
  unit: item.unit,
  estimated_cost: item.estimated_cost,
  estimated_vat_cost: item.estimated_vat_cost,
  subsidy_amount: item.subsidy_amount,
  derived,
});

/**
 * The label after each step: the estate's model input with the effects of that step and every earlier
 * one applied, evaluated in one call (the base once, one variant per prefix). Null when the estate
 * lacks what the model needs.
 */
export function labelsAfterSteps(
  estate: EstateData,
  steps: readonly Pick<RenovationItem, 'renovation_component_type' | 'quantity'>[],
): { base: Evaluation; after: Evaluation[] } | null {
  const base = propertyFromEstate(estate);
  if (!base) return null;
  const prefixes: Partial<PropertyDescription>[] = [];
  let current: Partial<PropertyDescription> = { ...base };
  for (const step of steps) {
    const node = findNode(step.renovation_component_type);
    if (node) current = applyEffect(node, current, step.quantity);
    prefixes.push(current);
  }
  try {
    const { base: evaluated, variants } = evaluateVariants(base, prefixes);
    return { base: evaluated, after: variants };
  } catch {
    return null;
  }
}

export function estateData(estate: Estate): EstateData {
  return { fields: estate as unknown as EstateData['fields'], roofs: estate.roofs };
}

/** The scale the estate's label is on: the model's, the renovation's, or the one its address implies. */
function scaleOf(estate: Estate, evaluation: Evaluation | null, renovationScale: string | null): z.infer<typeof EnergyEfficiencyType> {
  if (evaluation) return evaluation.energy_efficiency_type;
  const parsed = EnergyEfficiencyType.safeParse(renovationScale);
  if (parsed.success) return parsed.data;
  const region = estate.address.zip_code ? detectRegion(estate.address.zip_code, estate.address.country ?? undefined) : null;
  if (region) return scaleOfRegion(region);
  return estate.address.country === 'NL' ? 'ENERGY_LABEL_NL' : 'EPC_FLANDERS';
}

export function grantCategories(grants: ReportInputs['grants']): ReportGrantCategory[] {
  return Object.entries(grants).flatMap(([category, group]) =>
    group
      ? [
          {
            category,
            total_subsidy_amount: group.total_subsidy_amount,
            items: group.eligible_renovation_items.map((i) => ({
              renovation_component_type: i.renovation_component_type,
              subsidy_amount: i.subsidy_amount,
              scheme: i.scheme || null,
              conditions: i.conditions,
            })),
          },
        ]
      : [],
  );
}

export function buildReportModel(input: ReportInputs): ReportModel {
  const items = orderedItems(input.overview, input.itemOrder);
  const derived = input.overview.details.derived;
  const evaluated = labelsAfterSteps(estateData(input.estate), items);
  const scale = scaleOf(input.estate, evaluated?.base ?? null, input.renovation.energy_efficiency_type);

  const { extras, heads, lastOf } = stepsOf(items, derived, input.plan);

  let cumulative = 0;
  const steps: ReportStep[] = heads.map((i, position) => {
    const item = items[i]!;
    const parts = [item, ...extras[i]!];
    const cost = parts.reduce((s, p) => s + cents(p.estimated_cost), 0);
    const vat = parts.reduce((s, p) => s + cents(p.estimated_vat_cost), 0);
    const subsidy = parts.reduce((s, p) => s + cents(p.subsidy_amount), 0);
    const net = cost + vat - subsidy;
    cumulative += net;
    const after = evaluated?.after[lastOf.get(i)!];
    return {
      order: position + 1,
      renovation_component_type: item.renovation_component_type,
      phase: input.plan?.steps.find((p) => p.renovation_component_type === item.renovation_component_type)?.phase ?? null,
      epc_label_after: after?.epc_label ?? null,
      epc_score_after: after ? Math.round(after.epc_score * 10) / 10 : null,
      estimated_cost: euros(cost),
      estimated_vat_cost: euros(vat),
      subsidy_amount: euros(subsidy),
      net_cost: euros(net),
      cumulative_net_cost: euros(cumulative),
      items: [reportItem(item, false), ...extras[i]!.map((w) => reportItem(w, true))],
    };
  });

  const s = input.overview.summary;
  const base = evaluated?.base ?? null;
  const last = evaluated?.after.at(-1) ?? null;
  const a = input.estate.address;
  const sources = base ? Object.entries(base.data_quality.sources).map(([field, source]) => ({ field, source })) : [];
  const year = s.price_year ?? null;
  const region = base?.region ?? (a.zip_code ? detectRegion(a.zip_code, a.country ?? undefined) : null);
  return {
    language: input.language,
    generated_at: input.generated_at,
    estate: estateOfReport(input),
    scale,
    labels: labelsOf(scale),
    current: base ? { epc_score: Math.round(base.epc_score * 10) / 10, epc_label: base.epc_label } : { epc_score: null, epc_label: null },
    reachable: {
      epc_label: input.renovation.energy_efficiency_indication,
      // The score of the last step is the renovation's when both name the same label.
      epc_score: last && last.epc_label === input.renovation.energy_efficiency_indication ? Math.round(last.epc_score * 10) / 10 : null,
    },
    steps,
    totals: {
      estimated_cost: s.total_estimated_cost,
      estimated_vat_cost: s.total_estimated_vat_cost,
      subsidy_amount: s.total_subsidy_amount,
      total_estimated_cost_incl_vat: s.total_estimated_cost_incl_vat,
      net_cost: euros(cents(s.total_estimated_cost_incl_vat) - cents(s.total_subsidy_amount)),
    },
    grants: grantCategories(input.grants),
    assumptions: base ? assumptionsOf(input.language, base.data_quality.flags) : [],
    sources,
    conditions: conditionsOf({ property: knownPropertyOfEstate(estateData(input.estate)), items, region, year, sources }),
    milestones: milestonesOf({
      region,
      labels: labelsOf(scale),
      current: base?.epc_label ?? null,
      after: steps.map((st) => st.epc_label_after),
      year,
    }),
    confidence: base ? { score: base.confidence_score, quality_label: base.quality_label, ...base.expected_price_error } : null,
    agency: input.agency,
    ...moneyOfPlan(input.plan),
  };
}

/** The steps the items make: `heads` the items that open one, `extras` what each shows with it, `lastOf` the last item it covers. */
function stepsOf(items: RenovationItem[], derived: RenovationItem[], plan: ReportInputs['plan']) {
  const extras = items.map(() => [] as RenovationItem[]);
  if (items.length > 0) for (const work of derived) extras[stepOfSupportingWork(work, items)]!.push(work);

  // A measure the plan joined to a step (ventilation with the airtight step) is a renovation item of its
  // own but not a step: it is shown with the step before it, whose label is the one after both.
  const joinedTypes = new Set(
    (plan?.steps ?? []).flatMap((p) => p.supporting_works.filter((w) => w.joined).map((w) => w.renovation_component_type)),
  );
  const heads: number[] = [];
  const lastOf = new Map<number, number>();
  items.forEach((item, i) => {
    const head = heads.at(-1);
    if (head !== undefined && joinedTypes.has(item.renovation_component_type)) {
      extras[head]!.push(item, ...extras[i]!);
      lastOf.set(head, i);
    } else {
      heads.push(i);
      lastOf.set(i, i);
    }
  });
  return { extras, heads, lastOf };
}

function estateOfReport(input: ReportInputs): ReportModel['estate'] {
  const a = input.estate.address;
  return {
    title: input.estate.name ?? null,
    street: a.street,
    house_number: a.house_number,
    zip_code: a.zip_code,
    place: a.place,
    country: a.country === 'NL' ? 'NL' : 'BE',
    year_built: input.estate.year_built,
    habitable_space_m2: input.estate.habitable_space_m2,
    estate_type: input.estate.estate_type,
    photo: input.photo,
  };
}

/** The plan's money, when the renovation was made from a trajectory that has it. was made from a trajectory that has it. */
function moneyOfPlan(plan: ReportInputs['plan']): Pick<ReportModel, 'money'> {
  if (!plan?.current || !plan.totals) return {};
  const money = moneyOf({ current: plan.current, steps: plan.steps, totals: plan.totals, calibration: plan.calibration });
  return money ? { money } : {};
}
