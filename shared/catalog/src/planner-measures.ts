import type { PropertyDescription } from '@renopath/contracts';
import { allNodes, appliesTo, getNode, rootOf } from './catalogue.ts';
import { evaluate } from './predicates.ts';
import type { CatalogueNode, Effect, GrantCategory, QuantityRule, Requirement, Unit } from './types.ts';

export interface PlannerMeasure {
  renovation_component_type: string;
  root_renovation_component_type: string;
  name: string;
  unit: Unit;
  quantity_rule: QuantityRule;
  grant_category: GrantCategory;
  effect: Effect;
  requirements: Requirement[];
  exclusive_group: string | null;
}

/** The energy-relevant leaves the trajectory planner may pick, each with its effect and prerequisites. */
export const MEASURES_FOR_PLANNER: readonly PlannerMeasure[] = allNodes()
  .filter((n): n is CatalogueNode & { effect: Effect } => n.planner_measure && n.effect !== null)
  .map((n) => ({
    renovation_component_type: n.renovation_component_type,
    root_renovation_component_type: rootOf(n).renovation_component_type,
    name: n.name,
    unit: n.unit,
    quantity_rule: n.quantity_rule,
    grant_category: n.grant_category,
    effect: n.effect,
    requirements: n.requirements,
    exclusive_group: n.exclusive_group,
  }));

/**
 * Whether the planner may add `type` now: the home can take it, its order prerequisites are met
 * (or already satisfied by the property), it is not planned yet and no planned measure excludes it.
 */
export function canPlan(
  type: string,
  property: Partial<PropertyDescription>,
  planned: readonly string[],
): { ok: boolean; reasons: string[] } {
  const node = getNode(type);
  const reasons: string[] = [];
  if (planned.includes(type)) reasons.push(`${type} is already planned.`);
  if (!appliesTo(node, property)) {
    for (const r of node.requirements) if (r.applies_if && !evaluate(r.applies_if, property)) reasons.push(r.reason);
  }
  for (const r of node.requirements) {
    if (!r.after_any) continue;
    const done = planned.some((p) => r.after_any!.includes(p));
    const satisfied = r.after_unless !== undefined && evaluate(r.after_unless, property);
    if (!done && !satisfied) reasons.push(r.reason);
  }
  if (node.exclusive_group !== null) {
    const clash = planned.find((p) => p !== type && getNode(p).exclusive_group === node.exclusive_group);
    if (clash) reasons.push(`${type} excludes ${clash} (one ${node.exclusive_group.toLowerCase().replaceAll('_', ' ')} per plan).`);
  }
  return { ok: reasons.length === 0, reasons };
}
