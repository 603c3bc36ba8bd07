import type { PricedItem } from './pricing.ts';
import { GRANT_CATEGORIES, type GrantCategory } from './types.ts';

/** What grouping reads of an item: a priced item, or any item that carries the same figures. */
export type GroupableItem = Pick<
  PricedItem,
  'renovation_component_type' | 'estimated_cost' | 'estimated_vat_cost' | 'subsidy_amount' | 'scheme' | 'conditions'
> & { grant_category: string | null; renovation_item_id?: string | null };

export interface EligibleRenovationItem {
  renovation_item_id: string | null;
  renovation_component_type: string;
  estimated_cost: number;
  subsidy_amount: number;
  scheme: string | null;
  conditions: string[];
}

export interface GrantGroup {
  total_subsidy_amount: number;
  total_estimated_cost: number;
  total_estimated_vat_cost: number;
  eligible_renovation_items: EligibleRenovationItem[];
}

export type GovernmentGrants = Partial<Record<GrantCategory, GrantGroup>>;

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The API's government-grants object (docs/http-contract.md): categories with at least one item that gets a grant. */
/** `extend` adds fields of the caller's own (extensions) to each eligible item. */
export function groupByGrantCategory<T extends GroupableItem>(
  items: readonly T[],
  extend?: (item: T) => Record<string, unknown>,
): GovernmentGrants {
  const result: GovernmentGrants = {};
  for (const category of GRANT_CATEGORIES) {
    const eligible = items.filter((i) => i.grant_category === category && i.subsidy_amount > 0);
    if (eligible.length === 0) continue;
    result[category] = {
      total_subsidy_amount: round2(eligible.reduce((s, i) => s + i.subsidy_amount, 0)),
      total_estimated_cost: round2(eligible.reduce((s, i) => s + i.estimated_cost, 0)),
      total_estimated_vat_cost: round2(eligible.reduce((s, i) => s + i.estimated_vat_cost, 0)),
      eligible_renovation_items: eligible.map((i) => ({
        renovation_item_id: i.renovation_item_id ?? null,
        renovation_component_type: i.renovation_component_type,
        estimated_cost: i.estimated_cost,
        subsidy_amount: i.subsidy_amount,
        scheme: i.scheme,
        conditions: i.conditions,
        ...extend?.(i),
      })),
    };
  }
  return result;
}
