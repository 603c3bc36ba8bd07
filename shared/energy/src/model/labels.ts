import type { EnergyEfficiencyType, QualityLabel } from '@renopath/contracts';
import { confidence, labels } from './data.ts';
import type { ExpectedPriceError } from './types.ts';

/** The label of a score on a region's scale (data/labels.json, docs/domain-sources.md 1). */
export function labelFor(scale: EnergyEfficiencyType, score: number): string {
  const rows = labels.scales[scale];
  for (const row of rows) {
    if (row.upper === null) return row.label;
    if (row.inclusive ? score <= row.upper : score < row.upper) return row.label;
  }
  return rows[rows.length - 1]!.label;
}

/** The labels of a scale from best to worst. */
export function labelsOf(scale: EnergyEfficiencyType): string[] {
  return labels.scales[scale].map((r) => r.label);
}

/** A >= 0.80, B >= 0.70, C >= 0.60, D below (docs/domain.md, Confidence). */
export function qualityLabelFor(confidenceScore: number): QualityLabel {
  for (const q of confidence.quality_labels) if (confidenceScore >= q.min) return q.label;
  return 'D';
}

/** The reference service's accuracy of the cost estimate for the confidence band (docs/domain.md, Confidence). */
export function expectedPriceErrorFor(confidenceScore: number): ExpectedPriceError {
  const bands = confidence.expected_price_error.bands;
  const band = bands.find((b) => confidenceScore >= b.min) ?? bands[bands.length - 1]!;
  return { average_pct: band.average_pct, standard_deviation_pct: band.standard_deviation_pct, at_least: band.at_least };
}
