import type { Region } from '@renopath/contracts';
import { stock, type StockParameters, type StockStratum } from './data.ts';

/**
 * The stock parameters fitted on the EPC listings (data/stock.json). The calibration harness passes
 * alternatives to cross-validate them; everything else uses the recorded values.
 */
export interface ModelParameters {
  stock: StockParameters;
  /** Calibration tooling only: force the stock level of every home (the fit tabulates scores over it). */
  forcedLevel?: number;
}

export const DEFAULT_PARAMETERS: ModelParameters = { stock: stock.strata };

export const MAX_LEVEL = 3;
export const MIN_LEVEL = -1;

export function stratumKey(region: Region, apartment: boolean): string {
  return `${region}.${apartment ? 'APARTMENT' : 'HOUSE'}`;
}

/** Piecewise-linear interpolation over the anchors, flat outside them. */
export function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  if (x <= xs[0]!) return ys[0]!;
  const n = xs.length;
  if (x >= xs[n - 1]!) return ys[n - 1]!;
  let i = 1;
  while (xs[i]! < x) i++;
  const t = (x - xs[i - 1]!) / (xs[i]! - xs[i - 1]!);
  return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
}

/** Province of a Belgian postal code (data/stock.json provinces), or null. */
export function provinceOf(zip: string): string | null {
  const n = Number(zip.trim());
  if (!Number.isInteger(n)) return null;
  for (const [from, to, p] of stock.provinces.ranges) if (n >= from && n <= to) return p;
  return null;
}

/** The level of a stratum before clamping: anchors in year, size, province. */
export function rawLevel(s: StockStratum, year: number, area: number, province: string | null): number {
  return (
    interpolate(s.anchor_years, s.level, year) +
    s.size_coefficient * Math.log(area / s.reference_area_m2) +
    (province !== null ? (s.province_offsets[province] ?? 0) : 0)
  );
}

export const clampLevel = (r: number) => Math.min(MAX_LEVEL, Math.max(MIN_LEVEL, r));

/** The stock level r of a home (data/stock.json): continuous in year and area, never by facade count. */
export function stockLevel(params: ModelParameters, region: Region, apartment: boolean, year: number, area: number, zip: string): number {
  if (params.forcedLevel !== undefined) return params.forcedLevel;
  const s = params.stock[stratumKey(region, apartment)];
  if (!s || region === 'NETHERLANDS') return stock.unfitted_level;
  return clampLevel(rawLevel(s, year, area, provinceOf(zip)));
}
