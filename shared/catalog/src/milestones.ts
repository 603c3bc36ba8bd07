import type { Occupancy, PlanMilestone, Region } from '@renopath/contracts';
import { PLANNER_DATA, regionalTarget, renovationObligationRule } from './planner-data.ts';

/**
 * The milestones a home has ahead of it (docs/domain.md, The planner, 8): the buyers' obligations after
 * a purchase (Flanders, Wallonia) read on the deed date, the owners' minimum by a fixed date (Brussels
 * 2033), the landlords' norms when the home is let, and the region's long-term target. Each is a dated
 * rule of planner.json (who it binds, its trigger, its source and the day it was last checked); the
 * planner marks them on its steps and the reports show them, from this one reading.
 */
export interface Milestone extends PlanMilestone {
  /** The label the home has today, which makes the rule apply. */
  from_label: string;
  /** OBLIGATION: deeds from this date; RENTAL_NORM: leases from this date; TARGET: null. */
  from_date: string | null;
  /** OBLIGATION after a purchase: years after the deed to reach the label. */
  within_years: number | null;
}

/** What the household says that picks the rules (the request's `household`). */
export interface MilestoneContext {
  /** The deed date came from the household (false: a purchase on `deedDate` is assumed). */
  deedGiven?: boolean;
  /** OWNER_OCCUPIED: no landlord's norm applies; RENTED: they do; unset: see `ifLet`. */
  occupancy?: Occupancy;
  /**
   * With occupancy unset, list the landlords' norms as applying only if the home is let (true: the
   * planner, which says so in `applies_because` and never counts them as missed), or leave them out
   * (false, the default: a reader that cannot say "if let" must not show a landlord's norm as the
   * owner's deadline).
   */
  ifLet?: boolean;
  /**
   * The day the plan is made (YYYY-MM-DD). A given deed dated after it is a purchase still to come: a
   * buyer's rule read on it is conditional on that purchase (`conditional_on: PURCHASE`), its deadline
   * hypothetical. Unset: no deed is taken as still to come.
   */
  today?: string;
}

/** A landlord's norm listed because the home might be let, not because it is (occupancy not given). */
export const appliesIfLet = (m: Pick<PlanMilestone, 'binds'>, context: MilestoneContext): boolean =>
  m.binds === 'LANDLORD' && context.occupancy !== 'RENTED';

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
export function milestonesFor(
  region: Region,
  label: string,
  labels: readonly string[],
  deedDate: string,
  context: MilestoneContext = {},
): Milestone[] {
  const out: Milestone[] = [];
  // A deed still to come: the buyer's rule binds only if the purchase goes ahead, and its deadline runs from that deed.
  const planned = context.deedGiven === true && context.today !== undefined && deedDate > context.today;
  const deed = planned
    ? `only if the planned purchase goes ahead: the home would be bought with label ${label} (deed planned for ${deedDate}, after this plan was made), and the deadline would run from that deed`
    : `the home was bought with label ${label} (deed of ${deedDate}${context.deedGiven ? '' : ', assumed'})`;
  const conditional = planned ? { conditional_on: 'PURCHASE' as const } : {};
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
      applies_because: deed,
      binds: flemish.binds,
      checked_on: flemish.checked_on,
      ...conditional,
    });
  }
  // A buyer's rule is the one of the deed's date (the latest that started on or before it).
  const buyers = PLANNER_DATA.milestones.filter((r) => r.region === region && r.binds === 'BUYER' && r.deeds_from <= deedDate);
  const buyerRule = buyers.sort((a, b) => b.deeds_from.localeCompare(a.deeds_from))[0];
  for (const rule of PLANNER_DATA.milestones) {
    if (rule.region !== region || !rule.applies_to_labels.includes(label)) continue;
    if (rule.binds === 'BUYER' && rule !== buyerRule) continue;
    if (rule.binds === 'LANDLORD' && context.occupancy !== 'RENTED' && (context.occupancy === 'OWNER_OCCUPIED' || !context.ifLet)) continue;
    const within = rule.within_years ?? null;
    const deadline =
      rule.trigger === 'DEED_DATE' && within !== null
        ? addYears(deedDate, within)
        : rule.trigger === 'LETTING_DATE'
          ? rule.deeds_from
          : (rule.deadline ?? null);
    const because =
      rule.binds === 'BUYER'
        ? deed
        : rule.binds === 'LANDLORD'
          ? context.occupancy === 'RENTED'
            ? `the home is let with label ${label}`
            : `applies if the home is let (the household's occupancy was not given): label ${label}`
          : `every home in the region with label ${label}`;
    out.push({
      kind: rule.kind,
      rule_id: rule.id,
      label: rule.label,
      description: rule.description,
      source: rule.source,
      from_label: label,
      from_date: rule.deeds_from,
      within_years: within,
      deadline,
      applies_because: because,
      binds: rule.binds,
      checked_on: rule.checked_on,
      ...(rule.binds === 'BUYER' ? conditional : {}),
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
      applies_because: `the region's long-term target for every home (label ${label} today)`,
      binds: 'OWNER',
      checked_on: null,
    });
  }
  return out;
}
