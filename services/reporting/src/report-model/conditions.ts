import {
  DEFAULT_INCOME_CATEGORY,
  INCOME_CATEGORIES,
  meetsMilestone,
  milestonesFor,
  rulesDateOf,
  valueItemSet,
  type IncomeCategory,
} from '@renopath/catalog';
import type { PropertyDescription, Region } from '@renopath/contracts';
import type { ReportConditions, ReportMilestone } from '../report-model.ts';

/**
 * The conditions a report and the referral page show beside the figures, from the same inputs for
 * both: the milestones ahead of the home, the grants for each income category, the price year and
 * the date of the rules, and the inputs the model estimated.
 */

/** The purchase deed date the planner assumes for the obligations after a purchase (docs/domain.md, The planner). */
export const deedDateOf = (year: number) => `${year}-07-01`;

/** Each milestone that applies to the home today, with the first step whose label meets it. */
export function milestonesOf(input: {
  region: Region | null;
  labels: readonly string[];
  current: string | null;
  after: readonly (string | null)[];
  year: number | null;
}): ReportMilestone[] {
  const { region, labels, current, year } = input;
  if (!region || !current || year === null) return [];
  return milestonesFor(region, current, labels, deedDateOf(year)).map((m) => {
    const at = input.after.findIndex((label) => label !== null && meetsMilestone(m, label, labels, region));
    return {
      kind: m.kind,
      rule_id: m.rule_id,
      region,
      label: m.label,
      from_label: m.from_label,
      from_date: m.from_date,
      within_years: m.within_years,
      deadline: m.deadline,
      reached_at_step: at < 0 ? null : at + 1,
      source: m.source,
    };
  });
}

const cents = (v: number) => Math.round(v * 100);

/**
 * The grants of these works for each income category, valued as the renovation is (the catalogue's
 * item set); null when they do not depend on income (the Netherlands) or cannot be valued.
 */
export function grantsByIncome(input: {
  property: Partial<PropertyDescription>;
  items: ReadonlyArray<{ renovation_component_type: string; quantity: number }>;
  region: Region | null;
  year: number | null;
}): Record<IncomeCategory, number> | null {
  const { property, region, year } = input;
  if (!region || year === null || property.year_built === undefined || input.items.length === 0) return null;
  const country = region === 'NETHERLANDS' ? 'NL' : 'BE';
  const items = input.items.map((item, i) => ({
    key: String(i),
    renovation_component_type: item.renovation_component_type,
    quantity: item.quantity,
  }));
  const out = {} as Record<IncomeCategory, number>;
  for (const income_category of INCOME_CATEGORIES) {
    try {
      const valued = valueItemSet(property, items, { country, region, year, year_built: property.year_built, income_category });
      const total =
        Object.values(valued.items).reduce((s, r) => s + cents(r.priced?.subsidy_amount ?? 0), 0) +
        valued.derived.reduce((s, w) => s + cents(w.subsidy_amount), 0);
      out[income_category] = total / 100;
    } catch {
      return null;
    }
  }
  const amounts = new Set(Object.values(out));
  return amounts.size > 1 ? out : null;
}

/** Everything but the milestones: the renovations and the planner never know the income category, so the default is assumed. */
export function conditionsOf(input: {
  property: Partial<PropertyDescription> | null;
  items: ReadonlyArray<{ renovation_component_type: string; quantity: number }>;
  region: Region | null;
  year: number | null;
  sources: ReadonlyArray<{ field: string; source: string }>;
}): ReportConditions {
  const byIncome = input.property
    ? grantsByIncome({ property: input.property, items: input.items, region: input.region, year: input.year })
    : null;
  return {
    price_year: input.year,
    rules_date: input.year === null ? null : rulesDateOf(input.year),
    deed_date: input.year === null ? null : deedDateOf(input.year),
    income: byIncome ? { category: DEFAULT_INCOME_CATEGORY, assumed: true, subsidy_by_category: byIncome } : null,
    modelled_fields: input.sources.filter((s) => s.source === 'MODEL').map((s) => s.field),
  };
}
