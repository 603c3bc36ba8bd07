import type { PlanMilestone, Region } from '@renopath/contracts';
import { PLANNER_DATA, regionalTarget, renovationObligationRule } from './planner-data.ts';

/**
 * The milestones a home has ahead of it (docs/domain.md, The planner): the Flemish obligation after a
 * purchase on the deed date, the Walloon one, rental norms, and the region's long-term target. The
 * planner marks them on its steps and the reports show them, from this one reading of planner.json.
 */
export interface Milestone extends PlanMilestone {
  /** The label the home has today, which makes the rule apply. */
  from_label: string;
  /** OBLIGATION: deeds from this date; RENTAL_NORM: leases from this date; TARGET: null. */
  from_date: string | null;
  /** OBLIGATION: years after the deed to reach the label. */
  within_years: number | null;
  /** OBLIGATION: the deed date plus `within_years`; TARGET: the target's year-end. */
  deadline: string | null;
}

const addYears = (date: string, years: number) => `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;

/** Whether a label meets a milestone, on the scale's ladder from best to worst (`labels`). */
export function meetsMilestone(
  m: Pick<PlanMilestone, 'kind' | 'label'>,
  label: string,
  labels: readonly string[],
  region: Region,
): boolean {
  const rank = (l: string) => labels.indexOf(l);
  const worst = m.kind === 'TARGET' ? regionalTarget(region).worst_label_meeting_target : m.label;
  return rank(label) >= 0 && rank(label) <= rank(worst);
}

/** The milestones that apply to a home with this label in this region, for a purchase deed on `deedDate` (YYYY-MM-DD). */
export function milestonesFor(region: Region, label: string, labels: readonly string[], deedDate: string): Milestone[] {
  const out: Milestone[] = [];
  const flemish = region === PLANNER_DATA.renovation_obligation.region ? renovationObligationRule(deedDate) : null;
  if (flemish?.applies_to_labels.includes(label)) {
    const within = PLANNER_DATA.renovation_obligation.within_years;
    out.push({
      kind: 'OBLIGATION',
      rule_id: flemish.id,
      label: flemish.label,
      source: flemish.source,
      description: `A home bought with label ${label} (deed from ${flemish.deeds_from}) must reach label ${flemish.label} within ${within} years of the deed.`,
      from_label: label,
      from_date: flemish.deeds_from,
      within_years: within,
      deadline: addYears(deedDate, within),
    });
  }
  for (const rule of PLANNER_DATA.milestones) {
    if (rule.region !== region || !rule.applies_to_labels.includes(label)) continue;
    if (rule.kind === 'OBLIGATION' && deedDate < rule.deeds_from) continue;
    const within = rule.within_years ?? null;
    out.push({
      kind: rule.kind,
      rule_id: rule.id,
      label: rule.label,
      description: rule.description,
      source: rule.source,
      from_label: label,
      from_date: rule.deeds_from,
      within_years: within,
      deadline: rule.kind === 'OBLIGATION' && within !== null ? addYears(deedDate, within) : null,
    });
  }
  const target = regionalTarget(region);
  if (!meetsMilestone({ kind: 'TARGET', label: target.label }, label, labels, region)) {
    out.push({
      kind: 'TARGET',
      rule_id: target.id,
      label: target.label,
      source: target.source,
      description: `Label ${target.label}: the long-term target for homes in the region (${target.year}).`,
      from_label: label,
      from_date: null,
      within_years: null,
      deadline: `${target.year}-12-31`,
    });
  }
  return out;
}
