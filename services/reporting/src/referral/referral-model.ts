import type { EstateFieldValues, QualityLabel, RoofFieldValues, TrajectoryPlan } from '@renopath/contracts';
import { assumptionsOf } from '../report-model/assumptions.ts';
import { conditionsOf, milestonesOf } from '../report-model/conditions.ts';
import { moneyOf } from '../report-model/money.ts';
import { detectRegion, evaluate, labelsOf, scaleOfRegion } from '@renopath/energy';
import { knownPropertyOfEstate, propertyFromEstate } from '@renopath/contracts';
import { REPORT_LANGUAGES, type ReportLanguage, type ReportModel, type ReportStep } from '../report-model.ts';

/**
 * The referral page's model, from this context's own copies (fed by events): the estate's public
 * fields, its latest finished trajectory and the agency. Pure.
 */
export interface ReferralEstate {
  estate_id: string;
  organization_id: string;
  fields: EstateFieldValues;
  roofs: Array<RoofFieldValues & { id: string }>;
  deleted: boolean;
  /** The data-quality grade of the estate's latest trajectory, once one was recorded. */
  quality?: { confidence_score: number; quality_label: QualityLabel };
}

export interface ReferralAgency {
  name: string;
  phone: string | null;
  email: string | null;
}

/** The languages a page of a home in this country offers, its default first. */
export function languagesFor(country: string | null): ReportLanguage[] {
  return country === 'NL' ? ['nl-NL', 'en'] : ['nl-BE', 'fr-BE', 'en'];
}

export function pageLanguage(country: string | null, asked: unknown): { language: ReportLanguage; languages: ReportLanguage[] } {
  const languages = languagesFor(country);
  const wanted = REPORT_LANGUAGES.find((l) => l === asked);
  return { language: wanted && languages.includes(wanted) ? wanted : languages[0]!, languages };
}

const cents = (v: number) => Math.round(v * 100);

function stepsOf(plan: TrajectoryPlan): ReportStep[] {
  let cumulative = 0;
  return plan.steps.map((s) => {
    cumulative += cents(s.net_cost);
    const works = s.supporting_works;
    const own = (pick: (w: { estimated_cost: number; estimated_vat_cost: number; subsidy_amount: number }) => number) =>
      (cents(pick(s)) - works.reduce((sum, w) => sum + cents(pick(w)), 0)) / 100;
    return {
      order: s.order,
      renovation_component_type: s.renovation_component_type,
      phase: s.phase,
      epc_label_after: s.epc_label_after,
      epc_score_after: s.epc_score_after,
      estimated_cost: s.estimated_cost,
      estimated_vat_cost: s.estimated_vat_cost,
      subsidy_amount: s.subsidy_amount,
      net_cost: s.net_cost,
      cumulative_net_cost: cumulative / 100,
      items: [
        {
          renovation_component_type: s.renovation_component_type,
          quantity: s.quantity,
          unit: s.unit,
          estimated_cost: own((x) => x.estimated_cost),
          estimated_vat_cost: own((x) => x.estimated_vat_cost),
          subsidy_amount: own((x) => x.subsidy_amount),
          derived: false,
        },
        ...works.map((w) => ({
          renovation_component_type: w.renovation_component_type,
          quantity: w.quantity,
          unit: w.unit,
          estimated_cost: w.estimated_cost,
          estimated_vat_cost: w.estimated_vat_cost,
          subsidy_amount: w.subsidy_amount,
          derived: true,
        })),
      ],
    };
  });
}

/** The model's estimate of the current label from the estate's own data, when it has enough. */
function modelledCurrent(estate: ReferralEstate) {
  const property = propertyFromEstate({ fields: estate.fields, roofs: estate.roofs });
  if (!property) return null;
  try {
    return evaluate(property);
  } catch {
    return null;
  }
}

export function buildReferralModel(input: {
  estate: ReferralEstate;
  plan: TrajectoryPlan | null;
  plan_finished_at: string | null;
  agency: ReferralAgency | null;
  language: ReportLanguage;
  now: string;
}): Omit<ReportModel, 'estate'> & { estate: Omit<ReportModel['estate'], 'photo'> } {
  const { estate, plan } = input;
  const f = estate.fields;
  const a = f.address;
  const estatePart = {
    title: f.name ?? null,
    street: a.street,
    // Kept for when an agency may allow it; the page hides it (ReferralPageOptions.showHouseNumber).
    house_number: a.house_number,
    zip_code: a.zip_code,
    place: a.place,
    country: a.country === 'NL' ? ('NL' as const) : ('BE' as const),
    year_built: f.year_built,
    habitable_space_m2: f.habitable_space_m2,
    estate_type: f.estate_type,
  };
  const agency = input.agency ? { ...input.agency, website: null } : null;
  if (plan) {
    const sources = Object.entries(plan.data_quality.sources).map(([field, source]) => ({ field, source }));
    return {
      language: input.language,
      generated_at: input.plan_finished_at ?? input.now,
      estate: estatePart,
      scale: plan.energy_efficiency_type,
      labels: labelsOf(plan.energy_efficiency_type),
      current: { epc_score: plan.current.epc_score, epc_label: plan.current.epc_label },
      reachable: { epc_score: plan.final_epc_score, epc_label: plan.energy_efficiency_indication },
      steps: stepsOf(plan),
      totals: plan.totals,
      grants: [],
      assumptions: assumptionsOf(input.language, plan.data_quality.flags),
      sources,
      confidence: { score: plan.confidence_score, quality_label: plan.quality_label, ...plan.expected_price_error },
      conditions: conditionsOf({
        property: knownPropertyOfEstate({ fields: estate.fields, roofs: estate.roofs }),
        items: plan.steps,
        region: plan.region,
        year: plan.price_year,
        sources,
      }),
      milestones: milestonesOf({
        region: plan.region,
        labels: labelsOf(plan.energy_efficiency_type),
        current: plan.current.epc_label,
        after: plan.steps.map((s) => s.epc_label_after),
        year: plan.price_year,
      }),
      agency,
      ...(moneyOf(plan) ? { money: moneyOf(plan)! } : {}),
    };
  }
  // No finished trajectory yet: the home's basics and the model's estimate of its current label.
  const current = modelledCurrent(estate);
  const region = a.zip_code ? detectRegion(a.zip_code, a.country ?? undefined) : null;
  const scale =
    current?.energy_efficiency_type ?? (region ? scaleOfRegion(region) : a.country === 'NL' ? 'ENERGY_LABEL_NL' : 'EPC_FLANDERS');
  const label = current
    ? { epc_score: Math.round(current.epc_score * 10) / 10, epc_label: current.epc_label }
    : { epc_score: null, epc_label: null };
  return {
    language: input.language,
    generated_at: input.now,
    estate: estatePart,
    scale,
    labels: labelsOf(scale),
    current: label,
    reachable: { epc_score: null, epc_label: null },
    steps: [],
    totals: { estimated_cost: 0, estimated_vat_cost: 0, subsidy_amount: 0, total_estimated_cost_incl_vat: 0, net_cost: 0 },
    grants: [],
    assumptions: [],
    sources: [],
    confidence: current ? { score: current.confidence_score, quality_label: current.quality_label, ...current.expected_price_error } : null,
    conditions: { price_year: null, rules_date: null, deed_date: null, income: null, modelled_fields: [] },
    milestones: [],
    agency,
  };
}
