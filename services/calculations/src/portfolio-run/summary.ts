import type { EnergyEfficiencyType, PortfolioResultRow, PortfolioRunStatus, PortfolioSummary } from '@renopath/contracts';
import { labelsOf } from '@renopath/energy';
import data from '../../data/portfolio.json' with { type: 'json' };

const BUCKETS = data.eba_template_2.buckets;

/**
 * The summary's sums for some rows: kept per batch beside its results, and added up for the run.
 * Money in cents and counts as integers, so the tables add up to the OK rows exactly whatever the
 * order the batches are added in.
 */
export interface PartialSummary {
  ok: number;
  failed: number;
  estimated: number;
  aligned: number;
  /** OK rows whose taxonomy alignment cannot be told (no verified top-15% figure for their region). */
  not_assessable: number;
  outstanding_cents: number;
  /** `${scale}|${label}` -> [count, cents]. */
  by_label: Record<string, [number, number]>;
  by_bucket: Record<string, [number, number]>;
  /** Financed emissions in grams (integers), and grams x data quality for the weighted score. */
  financed_g: number;
  financed_quality_g: number;
}

export const emptyPartial = (): PartialSummary => ({
  ok: 0,
  failed: 0,
  estimated: 0,
  aligned: 0,
  not_assessable: 0,
  outstanding_cents: 0,
  by_label: {},
  by_bucket: {},
  financed_g: 0,
  financed_quality_g: 0,
});

/** The EBA template 2 bucket of a primary-energy figure (kWh/m2.yr): upper bounds inclusive. */
export function bucketOf(kwh_m2: number): string {
  return (BUCKETS.find((b) => b.upper !== null && kwh_m2 <= b.upper) ?? BUCKETS[BUCKETS.length - 1]!).bucket;
}

const add = (table: Record<string, [number, number]>, key: string, count: number, cents: number) => {
  const entry = (table[key] ??= [0, 0]);
  entry[0] += count;
  entry[1] += cents;
};

export function summarise(rows: readonly PortfolioResultRow[]): PartialSummary {
  const s = emptyPartial();
  for (const row of rows) {
    if (row.status !== 'OK') {
      s.failed++;
      continue;
    }
    const cents = Math.round((row.outstanding_amount ?? 0) * 100);
    s.ok++;
    s.outstanding_cents += cents;
    if (row.label_source === 'ESTIMATED') s.estimated++;
    if (row.taxonomy_top_15 === true) s.aligned++;
    if (row.taxonomy_status === 'NOT_ASSESSABLE') s.not_assessable++;
    add(s.by_label, `${row.epc_scale}|${row.epc_label}`, 1, cents);
    add(s.by_bucket, bucketOf(row.primary_energy_kwh_m2 ?? 0), 1, cents);
    if (row.financed_emissions_kg_year !== null) {
      const grams = Math.round(row.financed_emissions_kg_year * 1000);
      s.financed_g += grams;
      s.financed_quality_g += grams * (row.pcaf_data_quality ?? 0);
    }
  }
  return s;
}

export function mergePartials(parts: Iterable<PartialSummary>): PartialSummary {
  const s = emptyPartial();
  for (const p of parts) {
    s.ok += p.ok;
    s.failed += p.failed;
    s.estimated += p.estimated;
    s.aligned += p.aligned;
    // Checkpoints written before the count existed have none: 0, as their rows were never counted so.
    s.not_assessable += p.not_assessable ?? 0;
    s.outstanding_cents += p.outstanding_cents;
    s.financed_g += p.financed_g;
    s.financed_quality_g += p.financed_quality_g;
    for (const [k, [n, c]] of Object.entries(p.by_label)) add(s.by_label, k, n, c);
    for (const [k, [n, c]] of Object.entries(p.by_bucket)) add(s.by_bucket, k, n, c);
  }
  return s;
}

const share = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 10_000) / 10_000);

/** The summary a client reads: labels in their scale's order, every EBA bucket (empty ones too). */
export function finalSummary(run_id: string, status: PortfolioRunStatus, s: PartialSummary): PortfolioSummary {
  const by_label = Object.entries(s.by_label)
    .map(([key, [count, cents]]) => {
      const [scale, label] = key.split('|') as [EnergyEfficiencyType, string];
      return { scale, label, count, outstanding_amount: cents / 100 };
    })
    .sort((a, b) => a.scale.localeCompare(b.scale) || labelsOf(a.scale).indexOf(a.label) - labelsOf(b.scale).indexOf(b.label));
  return {
    run_id,
    status,
    ok_rows: s.ok,
    failed_rows: s.failed,
    outstanding_amount: s.outstanding_cents / 100,
    by_label,
    by_energy_bucket: BUCKETS.map(({ bucket }) => {
      const [count, cents] = s.by_bucket[bucket] ?? [0, 0];
      return { bucket, count, outstanding_amount: cents / 100 };
    }),
    estimated_share: share(s.estimated, s.ok),
    taxonomy_aligned_share: share(s.aligned, s.ok),
    taxonomy_not_assessable_share: share(s.not_assessable, s.ok),
    financed_emissions_kg_year: s.financed_g / 1000,
    financed_emissions_data_quality: s.financed_g === 0 ? null : Math.round((s.financed_quality_g / s.financed_g) * 100) / 100,
  };
}
