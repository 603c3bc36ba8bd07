/**
 * The median certificate of each region x form x age band of the EPC listings, with the 95 % confidence
 * interval of that median: what a home described as unrenovated must score at least (data/certificate-medians.json,
 * written by `npm run calibrate -- --data <dir> --write`; the test walks it).
 */
import { AGE_BANDS, ageBandOf, median, type Listing } from './listings.ts';

export interface CertificateCell {
  region: Listing['region'];
  /** HOUSE_2, HOUSE_3, HOUSE_4 (facades; 4 or more) or APARTMENT. */
  form: string;
  age_band: string;
  n: number;
  median_score: number;
  /** 95 % confidence interval of the median (order statistics: ranks n/2 -+ 1.96 sqrt(n) / 2). */
  median_ci95: [number, number];
  median_year: number;
  median_area_m2: number;
  /** The most frequent postal code of the cell: it places a described home in the region and its province. */
  postal_code: string;
}

export const MIN_CELL = 30;

export function formOf(l: Listing): string | null {
  if (l.apartment) return 'APARTMENT';
  return l.facades === null ? null : `HOUSE_${Math.min(4, l.facades)}`;
}

export function certificateCells(rows: readonly Listing[]): CertificateCell[] {
  const groups = new Map<string, Listing[]>();
  for (const l of rows) {
    const form = formOf(l);
    if (form === null) continue;
    const k = `${l.region}|${form}|${ageBandOf(l.year)}`;
    const g = groups.get(k);
    if (g) g.push(l);
    else groups.set(k, [l]);
  }
  const out: CertificateCell[] = [];
  for (const [k, g] of groups) {
    if (g.length < MIN_CELL) continue;
    const [region, form, band] = k.split('|') as [Listing['region'], string, string];
    const scores = g.map((l) => l.score).sort((a, b) => a - b);
    const n = scores.length;
    const half = (1.96 * Math.sqrt(n)) / 2;
    const lo = scores[Math.max(0, Math.floor(n / 2 - half))]!;
    const hi = scores[Math.min(n - 1, Math.ceil(n / 2 + half))]!;
    const counts = new Map<string, number>();
    for (const l of g) counts.set(l.postal, (counts.get(l.postal) ?? 0) + 1);
    const postal = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    out.push({
      region,
      form,
      age_band: band,
      n,
      median_score: median(scores),
      median_ci95: [lo, hi],
      median_year: Math.round(median(g.map((l) => l.year))),
      median_area_m2: Math.round(median(g.map((l) => l.area))),
      postal_code: postal,
    });
  }
  return out.sort(
    (a, b) =>
      a.region.localeCompare(b.region) ||
      a.form.localeCompare(b.form) ||
      AGE_BANDS.indexOf(a.age_band as never) - AGE_BANDS.indexOf(b.age_band as never),
  );
}
