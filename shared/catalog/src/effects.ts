import type { PropertyDescription } from '@renopath/contracts';
import { getNode } from './catalogue.ts';
import { levelRank } from './predicates.ts';
import type { CatalogueNode } from './types.ts';

/**
 * The property after the measure (pure; the input is not changed). Insulation, glazing and
 * ventilation levels never go down: insulating inside a wall already insulated outside keeps STRONG;
 * likewise airtightness works never make a measured v50 worse.
 */
export function applyEffect<P extends Partial<PropertyDescription>>(node: CatalogueNode | string, property: P, quantity: number): P {
  const effect = (typeof node === 'string' ? getNode(node) : node).effect;
  if (effect === null) return { ...property };
  const next: Record<string, unknown> = { ...property };
  for (const [field, value] of Object.entries(effect.patch ?? {})) {
    const before = levelRank(next[field]);
    const after = levelRank(value);
    const downgrade = before && after && before.order === after.order && after.rank < before.rank;
    if (!downgrade) next[field] = value;
  }
  for (const [field, value] of Object.entries(effect.defaults ?? {})) {
    if (next[field] === undefined) next[field] = value;
  }
  for (const [field, value] of Object.entries(effect.at_most ?? {})) {
    const current = next[field];
    next[field] = typeof current === 'number' ? Math.min(current, value) : value;
  }
  if (effect.add_kwp_from_quantity) {
    next.solar_panels_kwp = Math.round(((property.solar_panels_kwp ?? 0) + quantity) * 100) / 100;
  }
  if (effect.add_eco_facilities?.length) {
    next.eco_facilities = [...new Set([...(property.eco_facilities ?? []), ...effect.add_eco_facilities])];
  }
  return next as P;
}
