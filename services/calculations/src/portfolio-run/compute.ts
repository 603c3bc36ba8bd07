import type { PlanMilestone, PortfolioResultRow, TaxonomyStatus, TrajectoryPlan } from '@renopath/contracts';
import { labelsOf } from '@renopath/energy';
import data from '../../data/portfolio.json' with { type: 'json' };
import { planTrajectory } from '../planner/planner.ts';
import { readHome, type HomeRow, type RawRow } from './rows.ts';

const TAXONOMY = data.taxonomy_7_7;
const PCAF = data.pcaf.data_quality;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

const EMPTY: Omit<PortfolioResultRow, 'row_number' | 'line' | 'external_id' | 'status' | 'error'> = {
  epc_score: null,
  epc_label: null,
  epc_scale: null,
  label_source: null,
  confidence_score: null,
  primary_energy_kwh_m2: null,
  co2_kg_year: null,
  co2_kg_m2_year: null,
  taxonomy_top_15: null,
  taxonomy_status: null,
  next_milestone: null,
  next_milestone_date: null,
  cost_to_next_milestone: null,
  cost_to_target: null,
  outstanding_amount: null,
  financed_emissions_kg_year: null,
  pcaf_data_quality: null,
};

export function errorRow(row: Pick<RawRow, 'row_number' | 'line'>, external_id: string | null, error: string): PortfolioResultRow {
  return { row_number: row.row_number, line: row.line, external_id, status: 'ERROR', error, ...EMPTY };
}

type Threshold = { kwh_m2: number | null; source: string | null; year: number | null };
const CLASS_A = TAXONOMY.class_a_or_better as Record<string, string[]>;
const TOP_15 = TAXONOMY.top_15_threshold_kwh_m2 as Record<string, Threshold>;

/**
 * Taxonomy 7.7 for a home built before 2021: class A or better, or within its region's top 15% where
 * we hold a verified figure (data/portfolio.json). A home that is neither class A nor in a region with
 * a figure cannot be told: NOT_ASSESSABLE, never counted as not aligned.
 */
export function taxonomyOf(
  yearBuilt: number,
  scale: string,
  label: string,
  score: number,
  region: TrajectoryPlan['region'],
): { aligned: boolean | null; status: TaxonomyStatus } {
  if (yearBuilt >= TAXONOMY.built_before_year) return { aligned: null, status: 'NOT_APPLICABLE' };
  if (CLASS_A[scale]?.includes(label)) return { aligned: true, status: 'CLASS_A' };
  const threshold = TOP_15[region]?.kwh_m2 ?? null;
  if (threshold === null) return { aligned: null, status: 'NOT_ASSESSABLE' };
  return score <= threshold ? { aligned: true, status: 'TOP_15' } : { aligned: false, status: 'NOT_ALIGNED' };
}

/** Of the milestones a step reaches, the one due first (a dated one before one without a date). */
function firstDue(milestones: readonly PlanMilestone[]): PlanMilestone {
  let first = milestones[0]!;
  for (const m of milestones) {
    if (m.deadline !== null && (first.deadline === null || m.deadline < first.deadline)) first = m;
  }
  return first;
}

/** The sum of the steps' net costs up to and including `last` (in plan order), to the cent. */
function costThrough(plan: TrajectoryPlan, last: number): number {
  let cents = 0;
  for (const step of plan.steps) if (step.order <= last) cents += Math.round(step.net_cost * 100);
  return cents / 100;
}

/**
 * One home's result row from its plan: the label on its region's scale (the certificate's when the
 * row gave one, kept as given), CO2, the taxonomy test, the next milestone and what reaching it
 * costs, and PCAF's financed emissions. Pure: the plan is the planner's, as a single job gets it.
 */
export function resultOf(home: HomeRow, plan: TrajectoryPlan): PortfolioResultRow {
  const given = home.property.energy_efficiency_score;
  const certified = given !== undefined || home.epc_label !== null;
  const score = given ?? plan.current.epc_score;
  const label = home.epc_label ?? plan.current.epc_label;
  const area = home.property.habitable_space_m2;
  const co2 = plan.current.co2_kg_per_year;
  const steps = [...plan.steps].sort((a, b) => a.order - b.order);
  const nextStep = steps.find((s) => s.milestones.length > 0);
  const next = nextStep ? firstDue(nextStep.milestones) : null;
  const toTarget = steps.find((s) => s.milestones.some((m) => m.kind === 'TARGET'));
  const targetMet =
    labelsOf(plan.energy_efficiency_type).indexOf(label) <= labelsOf(plan.energy_efficiency_type).indexOf(plan.target.label);
  const taxonomy = taxonomyOf(home.property.year_built, home.scale, label, score, plan.region);
  const attributed =
    home.outstanding_amount !== null && home.property_value !== null ? home.outstanding_amount / home.property_value : null;
  return {
    row_number: home.row_number,
    line: home.line,
    external_id: home.external_id,
    status: 'OK',
    error: null,
    epc_score: round(score, 1),
    epc_label: label,
    epc_scale: plan.energy_efficiency_type,
    label_source: certified ? 'CERTIFIED' : 'ESTIMATED',
    confidence_score: plan.confidence_score,
    // Every scale here is a primary-energy figure per m2 and year (NL: EP2), the certificate's "EP score".
    primary_energy_kwh_m2: round(score, 1),
    co2_kg_year: round(co2, 1),
    co2_kg_m2_year: round(co2 / area, 2),
    taxonomy_top_15: taxonomy.aligned,
    taxonomy_status: taxonomy.status,
    next_milestone: next ? next.rule_id : null,
    // The planner's date, as a single job shows it: a buyer's obligation from the row's purchase_date (else a
    // purchase this year, as the planner assumes), a fixed date, or the target year's end.
    next_milestone_date: next ? next.deadline : null,
    cost_to_next_milestone: nextStep ? costThrough(plan, nextStep.order) : null,
    cost_to_target: targetMet ? 0 : toTarget ? costThrough(plan, toTarget.order) : null,
    outstanding_amount: home.outstanding_amount,
    financed_emissions_kg_year: attributed === null ? null : round(attributed * co2, 1),
    pcaf_data_quality: certified ? PCAF.certified_label_and_floor_area : PCAF.estimated_with_floor_area,
  };
}

/**
 * A batch of rows, each checked, planned and reduced to its result row: a bad row becomes an ERROR
 * row naming its column and line, and the others go on. Runs in a portfolio thread (pool.ts), so
 * only the compact rows cross threads, never the plans.
 */
export function computeBatch(rows: RawRow[], year: number): PortfolioResultRow[] {
  return rows.map((row) => {
    const read = readHome(row);
    const external_id = (row.cells['external_id'] ?? '').trim() || null;
    if (!read.ok) return errorRow(row, external_id, read.error);
    try {
      const household = read.home.household;
      return resultOf(read.home, planTrajectory(read.home.property, household ? { year, household } : { year }));
    } catch (err) {
      return errorRow(
        row,
        external_id,
        `line ${row.line}: no result could be computed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
}
