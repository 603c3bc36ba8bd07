import type { DataSource, PropertyDescription } from '@renopath/contracts';
import { confidence } from './data.ts';
import type { SourceOverrides } from './resolve.ts';

const FACTOR = confidence.source_factor;
const TOTAL_WEIGHT = confidence.items.reduce((s, i) => s + i.weight, 0);

/**
 * Importance-weighted share of the inputs resting on direct data (DOMAIN.md 3, weights in data/confidence.json).
 * An item counts with the best source among its given fields; an item with no given field is a MODEL default.
 */
export function confidenceScore(p: PropertyDescription, overrides: SourceOverrides = {}): number {
  let sum = 0;
  for (const item of confidence.items) {
    let best = FACTOR.MODEL;
    for (const f of item.fields) {
      if (p[f as keyof PropertyDescription] === undefined) continue;
      const src: DataSource = overrides[f] ?? 'INPUT';
      if (FACTOR[src] > best) best = FACTOR[src];
    }
    sum += item.weight * best;
  }
  return sum / TOTAL_WEIGHT;
}
