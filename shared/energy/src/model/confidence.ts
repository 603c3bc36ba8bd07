import type { DataSource, PropertyDescription, Region } from '@renopath/contracts';
import { confidence } from './data.ts';
import type { SourceOverrides } from './resolve.ts';
import type { DataQualityFlag, ExpectedScoreError } from './types.ts';

const FACTOR = confidence.source_factor;
const TOTAL_WEIGHT = confidence.items.reduce((s, i) => s + i.weight, 0);
const GEOMETRY_ITEMS = new Set(confidence.model_geometry_cap.items);

export interface ConfidenceContext {
  region: Region;
  flags: readonly DataQualityFlag[];
}

/**
 * Importance-weighted share of the inputs resting on direct data (docs/domain.md, Confidence; weights in data/confidence.json).
 * An item counts with the best source among its given fields; an item with no given field is a MODEL default.
 * With a context: times the segment's factor (segments without validation data count less), minus the warning flags' penalties.
 */
export function confidenceScore(p: PropertyDescription, overrides: SourceOverrides = {}, context?: ConfidenceContext): number {
  let sum = 0;
  let geometryKnown = false;
  for (const item of confidence.items) {
    let best = FACTOR.MODEL;
    for (const f of item.fields) {
      if (p[f as keyof PropertyDescription] === undefined) continue;
      const src: DataSource = overrides[f] ?? 'INPUT';
      if (FACTOR[src] > best) best = FACTOR[src];
    }
    if (best > FACTOR.MODEL && GEOMETRY_ITEMS.has(item.item)) geometryKnown = true;
    sum += item.weight * best;
  }
  let score = sum / TOTAL_WEIGHT;
  // Every area a typology default: the quantities, so every price, rest on them (model_geometry_cap).
  if (!geometryKnown) score = Math.min(score, confidence.model_geometry_cap.max_score);
  if (!context) return score;
  score *= confidence.segments.factor[context.region];
  const penalties = confidence.flag_penalties;
  let penalty = 0;
  for (const f of context.flags) penalty += penalties.penalty[f.code] ?? 0;
  score -= Math.min(penalties.max_total, penalty);
  return Math.max(0, score);
}

/** The expected error of the score at a confidence level (data/confidence.json, measured by npm run calibrate). */
export function expectedScoreError(confidenceScore: number): ExpectedScoreError {
  const bands = confidence.expected_score_error.bands;
  const band = bands.find((b) => confidenceScore >= b.min) ?? bands[bands.length - 1]!;
  return { median_pct: band.median_pct, within_one_label: band.within_one_label, extrapolated: band.extrapolated };
}
