/**
 * The degree-day regression: a month's use = baseload per day x days + slope x degree-days, fitted by
 * least squares (no free intercept: a month without heating still has its days of hot water).
 */

export interface MonthPoint {
  days: number;
  degree_days: number;
  kwh: number;
}

export interface DegreeDayFit {
  /** kWh per day that does not follow the weather. */
  baseload_kwh_per_day: number;
  /** kWh per degree-day. */
  slope_kwh_per_kd: number;
  /** Standard error of the slope. */
  slope_se: number;
  /** Degrees of freedom of the residuals (months - 2). */
  df: number;
}

export function fitDegreeDays(points: readonly MonthPoint[]): DegreeDayFit | null {
  if (points.length < 3) return null;
  let sdd = 0;
  let sdh = 0;
  let shh = 0;
  let sdy = 0;
  let shy = 0;
  for (const p of points) {
    sdd += p.days * p.days;
    sdh += p.days * p.degree_days;
    shh += p.degree_days * p.degree_days;
    sdy += p.days * p.kwh;
    shy += p.degree_days * p.kwh;
  }
  const det = sdd * shh - sdh * sdh;
  // All months alike (no winter and summer to tell heating from baseload): no fit.
  if (!(Math.abs(det) > 1e-9 * sdd * shh)) return null;
  const b = (shh * sdy - sdh * shy) / det;
  const s = (sdd * shy - sdh * sdy) / det;
  let rss = 0;
  for (const p of points) rss += (p.kwh - b * p.days - s * p.degree_days) ** 2;
  const df = points.length - 2;
  const sigma2 = rss / df;
  // (X'X)^-1 of the slope: sdd / det.
  return { baseload_kwh_per_day: b, slope_kwh_per_kd: s, slope_se: Math.sqrt((sigma2 * sdd) / det), df };
}

/**
 * Student's t quantile for a two-sided interval whose normal quantile is z, at df degrees of freedom
 * (the Cornish-Fisher expansion; within 1% of the table from 5 degrees of freedom on).
 */
export function tQuantile(z: number, df: number): number {
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
}
