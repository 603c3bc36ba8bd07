import type { PortfolioResultRow, TrajectoryPlan } from '@renopath/contracts';
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

/** Taxonomy 7.7 for a home built before 2021: class A or better, or within its region's top 15% (where we hold the figure). */
function taxonomyAligned(home: HomeRow, label: string, score: number, region: TrajectoryPlan['region']): boolean | null {
  if (home.property.year_built >= TAXONOMY.built_before_year) return null; // new buildings have another criterion (not assessed)
  const classA = (TAXONOMY.class_a_or_better as Record<string, string[]>)[home.scale] ?? [];
  if (classA.includes(label)) return true;
  const threshold = (TAXONOMY.top_15_threshold_kwh_m2 as Record<string, number | null>)[region] ?? null;
  return threshold !== null && score <= threshold;
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
  const next = steps.find((s) => s.milestones.length > 0);
  const toTarget = steps.find((s) => s.milestones.some((m) => m.kind === 'TARGET'));
  const targetMet =
    labelsOf(plan.energy_efficiency_type).indexOf(label) <= labelsOf(plan.energy_efficiency_type).indexOf(plan.target.label);
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
    taxonomy_top_15: taxonomyAligned(home, label, score, plan.region),
    next_milestone: next ? next.milestones[0]!.rule_id : null,
    // The planner's milestones carry no calendar date for an existing owner (an obligation runs from a purchase deed).
    next_milestone_date: null,
    cost_to_next_milestone: next ? costThrough(plan, next.order) : null,
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
      return resultOf(read.home, planTrajectory(read.home.property, { year }));
    } catch (err) {
      return errorRow(
        row,
        external_id,
        `line ${row.line}: no result could be computed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  });
}
