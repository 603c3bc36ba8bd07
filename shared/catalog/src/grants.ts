import type { Region } from '@renopath/contracts';
import { DATA, indexRows, type GrantAmount, type GrantRule } from './data.ts';
import type { CatalogueNode, IncomeCategory } from './types.ts';

export interface GrantContext {
  region: Region;
  /** Application / invoice date, YYYY-MM-DD. */
  date: string;
  income_category: IncomeCategory;
  /** True when the income category was not given and the default was used. */
  income_is_default: boolean;
  dwelling_age_years: number;
  year_built: number;
  quantity: number;
  /** Cost excluding VAT at the target year. */
  cost: number;
  /** Other component types in the same renovation (combination rates, bonuses that need a companion). */
  companions: readonly string[];
}

export interface GrantDecision {
  amount: number;
  scheme: string | null;
  conditions: string[];
  assumptions: string[];
  rule_ids: string[];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function inForce(rule: GrantRule, date: string): boolean {
  return rule.valid_from <= date && (rule.valid_to === null || date <= rule.valid_to);
}

function base(amount: GrantAmount, quantity: number, cost: number, ceiling: number | undefined): number {
  switch (amount.kind) {
    case 'per_unit':
      return amount.value * quantity;
    case 'share_of_cost':
      return amount.value * Math.min(cost, ceiling ?? Infinity);
    case 'fixed':
      return amount.value;
    case 'per_capacity':
      return amount.base + amount.per_unit * amount.assumed_capacity;
  }
}

/** One rule's amount, or the reason it gives nothing. */
function applyRule(rule: GrantRule, node: string, ctx: GrantContext): { amount: number; reason?: string } {
  if (rule.requires_companion && !ctx.companions.some((c) => rule.requires_companion!.includes(c))) {
    return { amount: 0, reason: `only together with one of ${rule.requires_companion.join(', ')}` };
  }
  if (rule.min_dwelling_age_years !== undefined && ctx.dwelling_age_years < rule.min_dwelling_age_years) {
    return { amount: 0, reason: `the dwelling must be at least ${rule.min_dwelling_age_years} years old` };
  }
  if (rule.max_year_built !== undefined && ctx.year_built > rule.max_year_built) {
    return { amount: 0, reason: `only for dwellings built in ${rule.max_year_built} or earlier` };
  }
  if (rule.min_quantity !== undefined && ctx.quantity < rule.min_quantity) {
    return { amount: 0, reason: `minimum quantity ${rule.min_quantity} not reached` };
  }
  const quantity = Math.min(ctx.quantity, rule.max_quantity ?? Infinity);
  const combined =
    rule.combined_amount !== undefined && ctx.companions.some((c) => c !== node && (rule.combination_with ?? []).includes(c));
  let amount = base(combined ? rule.combined_amount! : rule.amount, quantity, ctx.cost, rule.invoice_ceiling);
  if (rule.max_amount !== undefined) amount = Math.min(amount, rule.max_amount);
  if (rule.max_share_of_cost !== undefined) amount = Math.min(amount, rule.max_share_of_cost * ctx.cost);
  return { amount };
}

/** The rules by region and node: every price asks for its node's (a scan of all rules each time was most of a grant's cost). */
const RULES_OF = indexRows(DATA.grants, (rule) => rule.nodes.map((type) => `${rule.region}|${type}`));

/** Whether the catalogue holds any grant rule, of any year, for this measure in this region (false: the grant is not yet sourced). */
export function grantRulesKnown(region: string, type: string): boolean {
  return (RULES_OF.get(`${region}|${type}`) ?? []).length > 0;
}

/** The latest grant rule for this measure in this region that ended before `date` (YYYY-MM-DD), when no rule of it is in force then; null otherwise. */
export function endedGrantRule(
  region: string,
  type: string,
  date: string,
): Pick<GrantRule, 'scheme' | 'valid_to' | 'source' | 'conditions'> | null {
  const rules = RULES_OF.get(`${region}|${type}`) ?? [];
  if (rules.some((r) => inForce(r, date))) return null;
  const ended = rules.filter((r) => r.valid_to !== null && r.valid_to < date).sort((a, b) => (a.valid_to! < b.valid_to! ? 1 : -1));
  return ended[0] ?? null;
}

/** The grants for one priced item: every rule of the region in force for the node, summed, never above the cost. */
export function grantFor(node: CatalogueNode, ctx: GrantContext): GrantDecision {
  const type = node.renovation_component_type;
  const forNode = RULES_OF.get(`${ctx.region}|${type}`) ?? [];
  const inForceNow = forNode.filter((r) => inForce(r, ctx.date));
  const matching = inForceNow.filter((r) => r.income_categories === null || r.income_categories.includes(ctx.income_category));
  const assumptions: string[] = [];
  if (forNode.length > 0 && inForceNow.length === 0) {
    const lastEnd = forNode
      .map((r) => r.valid_to)
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1);
    assumptions.push(
      lastEnd && lastEnd < ctx.date
        ? `No ${forNode[0]!.scheme} grant for this measure after ${lastEnd}; no successor scheme is known to the catalogue.`
        : `No grant rule known for this measure on ${ctx.date}.`,
    );
  }
  if (ctx.income_is_default && inForceNow.some((r) => r.income_categories !== null)) {
    assumptions.push(`Income category ${ctx.income_category} assumed (default); the grant differs for other income categories.`);
  }
  let total = 0;
  const conditions: string[] = [];
  const ruleIds: string[] = [];
  const schemes = new Set<string>();
  for (const rule of matching) {
    const { amount, reason } = applyRule(rule, type, ctx);
    if (reason) {
      conditions.push(`Not eligible for ${rule.scheme}: ${reason}.`);
      continue;
    }
    if (amount <= 0) continue;
    total += amount;
    ruleIds.push(rule.id);
    schemes.add(rule.scheme);
    for (const c of rule.conditions) if (!conditions.includes(c)) conditions.push(c);
  }
  const capped = Math.min(total, ctx.cost);
  if (capped < total) assumptions.push('Grant capped at the cost of the works.');
  return {
    amount: round2(Math.max(0, capped)),
    scheme: schemes.size > 0 ? [...schemes].join(' + ') : null,
    conditions,
    assumptions,
    rule_ids: ruleIds,
  };
}
