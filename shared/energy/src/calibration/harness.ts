/**
 * Calibration harness over the handbook's calibration cases (data/README.md of the handbook):
 * stratum A (real Flemish EPCs) and stratum B (TABULA net heat need). Pure functions; the CLI prints them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PropertyDescription } from '@renopath/contracts';
import { evaluate } from '../model/evaluate.ts';
import { labelFor, labelsOf } from '../model/labels.ts';
import { DEFAULT_PARAMETERS, type ModelParameters } from '../model/parameters.ts';
import type { CertificateCorrection } from '../model/data.ts';
import fitSettingsJson from '../../data/calibration-fit.json' with { type: 'json' };

export const CalibrationCase = z.object({
  id: z.string(),
  source_url: z.string(),
  inputs: PropertyDescription,
  expected: z.object({
    epc_score: z.number().nullable(),
    epc_label: z.string().nullable(),
    heating_need_kwh_per_m2: z.number().nullable(),
  }),
});
export type CalibrationCase = z.infer<typeof CalibrationCase>;

/** The handbook directory: RENOPATH_HANDBOOK_DIR, else `shared` beside the repository root. */
export function handbookDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RENOPATH_HANDBOOK_DIR) return resolve(env.RENOPATH_HANDBOOK_DIR);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { workspaces?: unknown }).workspaces) break;
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found; set RENOPATH_HANDBOOK_DIR');
    dir = up;
  }
  return resolve(dir, '..', 'shared');
}

export function loadCases(dir: string = handbookDir()): CalibrationCase[] {
  const raw: unknown = JSON.parse(readFileSync(join(dir, 'data', 'calibration-cases.json'), 'utf8'));
  return z.array(CalibrationCase).parse(raw);
}

export const isStratumA = (c: CalibrationCase) => c.expected.epc_score !== null;
export const isStratumB = (c: CalibrationCase) => c.expected.heating_need_kwh_per_m2 !== null;

// ---------------------------------------------------------------------------------------------
// Statistics

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

function ranks(xs: readonly number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    for (let k = i; k <= j; k++) r[idx[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

export function spearman(a: readonly number[], b: readonly number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const n = a.length;
  const ma = ra.reduce((s, x) => s + x, 0) / n;
  const mb = rb.reduce((s, x) => s + x, 0) / n;
  let num = 0; let da = 0; let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - ma) * (rb[i]! - mb);
    da += (ra[i]! - ma) ** 2;
    db += (rb[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

/** Deterministic PRNG for the bootstrap (mulberry32). */
function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Stratum A: real Flemish EPC scores

const FL_LABELS = labelsOf('EPC_FLANDERS');

export interface CaseA {
  id: string;
  year_built: number;
  estate_format: string;
  habitable_space_m2: number;
  observed: number;
  predicted: number;
  observed_label: string;
  predicted_label: string;
  label_match: boolean;
  within_one_class: boolean;
  ln_ratio: number;
  ape: number;
}

export interface SummaryA {
  n: number;
  median_abs_ln: number;
  median_ape: number;
  bias_median_ln: number;
  mae: number;
  spearman: number;
  label_exact: number;
  within_one_class: number;
  bias_by_age_band: Record<string, { n: number; median_ln: number }>;
  bias_by_format: Record<string, { n: number; median_ln: number }>;
  ci95: { within_one_class: [number, number]; median_ape: [number, number] };
}

export function ageBand(year: number): string {
  if (year <= 1945) return '<=1945';
  if (year <= 1970) return '1946-1970';
  if (year <= 1990) return '1971-1990';
  if (year <= 2005) return '1991-2005';
  return '2006+';
}

export function caseA(c: CalibrationCase, predicted: number): CaseA {
  const observed = c.expected.epc_score!;
  const pl = labelFor('EPC_FLANDERS', predicted);
  const ol = labelFor('EPC_FLANDERS', observed);
  return {
    id: c.id, year_built: c.inputs.year_built, estate_format: c.inputs.estate_format, habitable_space_m2: c.inputs.habitable_space_m2,
    observed, predicted, observed_label: ol, predicted_label: pl, label_match: pl === ol,
    within_one_class: Math.abs(FL_LABELS.indexOf(pl) - FL_LABELS.indexOf(ol)) <= 1,
    ln_ratio: Math.log(predicted / observed), ape: Math.abs(predicted / observed - 1),
  };
}

function groupBias(rows: readonly CaseA[], key: (r: CaseA) => string): Record<string, { n: number; median_ln: number }> {
  const groups = new Map<string, number[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r.ln_ratio]);
  return Object.fromEntries([...groups].sort().map(([k, v]) => [k, { n: v.length, median_ln: median(v) }]));
}

export function summariseA(rows: readonly CaseA[]): SummaryA {
  const n = rows.length;
  const within = (rs: readonly CaseA[]) => rs.filter((r) => r.within_one_class).length / rs.length;
  const rand = rng(20260);
  const w: number[] = [];
  const m: number[] = [];
  for (let b = 0; b < 1000; b++) {
    const sample = Array.from({ length: n }, () => rows[Math.floor(rand() * n)]!);
    w.push(within(sample));
    m.push(median(sample.map((r) => r.ape)));
  }
  w.sort((a, b) => a - b);
  m.sort((a, b) => a - b);
  return {
    n,
    median_abs_ln: median(rows.map((r) => Math.abs(r.ln_ratio))),
    median_ape: median(rows.map((r) => r.ape)),
    bias_median_ln: median(rows.map((r) => r.ln_ratio)),
    mae: rows.reduce((s, r) => s + Math.abs(r.predicted - r.observed), 0) / n,
    spearman: spearman(rows.map((r) => r.predicted), rows.map((r) => r.observed)),
    label_exact: rows.filter((r) => r.label_match).length / n,
    within_one_class: within(rows),
    bias_by_age_band: groupBias(rows, (r) => ageBand(r.year_built)),
    bias_by_format: groupBias(rows, (r) => r.estate_format),
    ci95: { within_one_class: [w[25]!, w[974]!], median_ape: [m[25]!, m[974]!] },
  };
}

export function runStratumA(cases: readonly CalibrationCase[], parameters: ModelParameters = DEFAULT_PARAMETERS): CaseA[] {
  return cases.filter(isStratumA).map((c) => caseA(c, evaluate(c.inputs, { parameters }).epc_score));
}

// ---------------------------------------------------------------------------------------------
// Stratum B: TABULA net heat need

export interface CaseB {
  id: string;
  country: string;
  year_built: number;
  estate_format: string;
  observed: number;
  predicted: number;
  relative_error: number;
}

export interface SummaryB {
  by_country: Record<string, { n: number; mape: number; median_abs_rel: number; mean_signed_rel: number }>;
  monotonic_in_year: { pass: boolean; violations: string[] };
  ordered_by_format: { pass: boolean; violations: string[] };
}

export function runStratumB(cases: readonly CalibrationCase[], parameters: ModelParameters = DEFAULT_PARAMETERS): CaseB[] {
  return cases.filter(isStratumB).map((c) => {
    const predicted = evaluate(c.inputs, { parameters }).heating_need_kwh_per_m2;
    const observed = c.expected.heating_need_kwh_per_m2!;
    return {
      id: c.id, country: c.inputs.country, year_built: c.inputs.year_built, estate_format: c.inputs.estate_format,
      observed, predicted, relative_error: predicted / observed - 1,
    };
  });
}

const FORMAT_ORDER = ['CLOSED', 'SEMI_OPEN', 'OPEN'];

export function summariseB(rows: readonly CaseB[]): SummaryB {
  const byCountry: SummaryB['by_country'] = {};
  for (const country of [...new Set(rows.map((r) => r.country))].sort()) {
    const rs = rows.filter((r) => r.country === country);
    byCountry[country] = {
      n: rs.length,
      mape: rs.reduce((s, r) => s + Math.abs(r.relative_error), 0) / rs.length,
      median_abs_rel: median(rs.map((r) => Math.abs(r.relative_error))),
      mean_signed_rel: rs.reduce((s, r) => s + r.relative_error, 0) / rs.length,
    };
  }
  // 1) Within one country and format the need falls as the year rises: every case of a later year below every earlier one.
  const yearViolations: string[] = [];
  const groups = new Map<string, CaseB[]>();
  for (const r of rows) groups.set(`${r.country} ${r.estate_format}`, [...(groups.get(`${r.country} ${r.estate_format}`) ?? []), r]);
  for (const [g, rs] of groups) {
    const years = [...new Set(rs.map((r) => r.year_built))].sort((a, b) => a - b);
    for (let i = 1; i < years.length; i++) {
      const earlier = rs.filter((r) => r.year_built === years[i - 1]).map((r) => r.predicted);
      const later = rs.filter((r) => r.year_built === years[i]).map((r) => r.predicted);
      if (Math.max(...later) >= Math.min(...earlier)) yearViolations.push(`${g}: ${years[i]} not below ${years[i - 1]}`);
    }
  }
  // 2) Within one country and year: CLOSED < SEMI_OPEN < OPEN (group means).
  const formatViolations: string[] = [];
  const byYear = new Map<string, CaseB[]>();
  for (const r of rows) byYear.set(`${r.country} ${r.year_built}`, [...(byYear.get(`${r.country} ${r.year_built}`) ?? []), r]);
  for (const [g, rs] of byYear) {
    const means = FORMAT_ORDER.map((f) => rs.filter((r) => r.estate_format === f).map((r) => r.predicted))
      .map((v) => (v.length ? v.reduce((s, x) => s + x, 0) / v.length : null));
    const present = means.map((m, i) => [m, FORMAT_ORDER[i]] as const).filter(([m]) => m !== null);
    for (let i = 1; i < present.length; i++) {
      if (present[i]![0]! <= present[i - 1]![0]!) formatViolations.push(`${g}: ${present[i - 1]![1]} not below ${present[i]![1]}`);
    }
  }
  return {
    by_country: byCountry,
    monotonic_in_year: { pass: yearViolations.length === 0, violations: yearViolations },
    ordered_by_format: { pass: formatViolations.length === 0, violations: formatViolations },
  };
}

// ---------------------------------------------------------------------------------------------
// Fitting the stratum A parameters (data/calibration-fit.json): a log-linear certificate correction on top of
// the physical model, least absolute deviations, then the level chosen for the target metrics.

const FitSettings = z.object({
  irls_iterations: z.number().int().positive(),
  irls_min_residual: z.number().positive(),
  level_shift_grid: z.object({ from: z.number(), to: z.number(), step: z.number().positive() }),
});
export type FitSettings = z.infer<typeof FitSettings>;
export const FIT_SETTINGS: FitSettings = FitSettings.parse(fitSettingsJson);

const BAND_EDGES = DEFAULT_PARAMETERS.certificateCorrection.age_bands.map((b) => b.to_year);

interface Prepared {
  cases: CalibrationCase[];
  /** Certificate score of the physical model without any correction. */
  base: number[];
  features: number[][];
  y: number[];
}

const UNCORRECTED: ModelParameters = {
  certificateCorrection: { ...DEFAULT_PARAMETERS.certificateCorrection, regions: [] },
};

function featuresOf(c: CalibrationCase, correction: CertificateCorrection): number[] {
  const [lo, hi] = correction.area_range_m2;
  const area = Math.min(hi, Math.max(lo, c.inputs.habitable_space_m2));
  const band = BAND_EDGES.findIndex((to) => c.inputs.year_built <= to);
  const house = !['APARTMENT', 'STUDIO', 'PENTHOUSE', 'DUPLEX'].includes(c.inputs.estate_type ?? 'HOUSE');
  const f = c.inputs.estate_format;
  // The last age band and SEMI_OPEN are the reference categories.
  const bands = BAND_EDGES.slice(0, -1).map((_, i) => (band === i ? 1 : 0));
  return [1, Math.log(area / correction.reference_area_m2), ...bands, house && f === 'OPEN' ? 1 : 0, house && f === 'CLOSED' ? 1 : 0];
}

function prepare(cases: readonly CalibrationCase[]): Prepared {
  const list = cases.filter(isStratumA);
  const base = list.map((c) => evaluate(c.inputs, { parameters: UNCORRECTED }).epc_score);
  const corr = DEFAULT_PARAMETERS.certificateCorrection;
  return {
    cases: list, base,
    features: list.map((c) => featuresOf(c, corr)),
    y: list.map((c, i) => Math.log(c.expected.epc_score! / base[i]!)),
  };
}

/** Solve the small symmetric system A x = b (Gaussian elimination with partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[piv]![col]!)) piv = r;
    [m[col], m[piv]] = [m[piv]!, m[col]!];
    const d = m[col]![col]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / d;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/** Least absolute deviations by iteratively reweighted least squares. */
function lad(x: readonly number[][], y: readonly number[], settings: FitSettings): number[] {
  const p = x[0]!.length;
  let w = y.map(() => 1);
  let beta = new Array<number>(p).fill(0);
  for (let it = 0; it < settings.irls_iterations; it++) {
    const ata = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    const aty = new Array<number>(p).fill(0);
    x.forEach((row, i) => {
      for (let j = 0; j < p; j++) {
        aty[j]! += w[i]! * row[j]! * y[i]!;
        for (let k = 0; k < p; k++) ata[j]![k]! += w[i]! * row[j]! * row[k]!;
      }
    });
    beta = solve(ata, aty);
    w = x.map((row, i) => 1 / Math.max(settings.irls_min_residual, Math.abs(y[i]! - row.reduce((s, v, j) => s + v * beta[j]!, 0))));
  }
  return beta;
}

function scores(prep: Prepared, idx: readonly number[], beta: readonly number[], shift: number): CaseA[] {
  return idx.map((i) => caseA(prep.cases[i]!, prep.base[i]! * Math.exp(shift + prep.features[i]!.reduce((s, v, j) => s + v * beta[j]!, 0))));
}

function fitOn(prep: Prepared, train: readonly number[], settings: FitSettings): { beta: number[]; loss: number } {
  const beta = lad(train.map((i) => prep.features[i]!), train.map((i) => prep.y[i]!), settings);
  const g = settings.level_shift_grid;
  let best = { shift: 0, within: -1, ape: Infinity };
  for (let k = 0; g.from + k * g.step <= g.to + 1e-9; k++) {
    const shift = g.from + k * g.step;
    const rows = scores(prep, train, beta, shift);
    const within = rows.filter((r) => r.within_one_class).length / rows.length;
    const ape = median(rows.map((r) => r.ape));
    const better = within > best.within + 1e-12
      || (Math.abs(within - best.within) <= 1e-12 && (ape < best.ape - 1e-12 || (Math.abs(ape - best.ape) <= 1e-12 && Math.abs(shift) < Math.abs(best.shift))));
    if (better) best = { shift, within, ape };
  }
  const fitted = beta.slice();
  fitted[0]! += best.shift;
  const loss = median(scores(prep, train, fitted, 0).map((r) => Math.abs(r.ln_ratio)));
  return { beta: fitted, loss };
}

export interface FittedA {
  correction: CertificateCorrection;
  /** Median |ln(pred/obs)| on the training cases. */
  trainingMedianAbsLn: number;
}

function toCorrection(beta: readonly number[]): CertificateCorrection {
  const base = DEFAULT_PARAMETERS.certificateCorrection;
  const nb = BAND_EDGES.length - 1;
  return {
    ...base,
    regions: ['FLANDERS', 'BRUSSELS', 'WALLONIA'],
    log_scale: beta[0]!,
    size_exponent: beta[1]!,
    age_bands: base.age_bands.map((b, i) => ({ to_year: b.to_year, log_factor: i < nb ? beta[2 + i]! : 0 })),
    formats: { OPEN: beta[2 + nb]!, SEMI_OPEN: 0, CLOSED: beta[3 + nb]! },
  };
}

/** Fit the stratum A correction on all cases (what data/calibration.json records). */
export function fitStratumA(cases: readonly CalibrationCase[], settings: FitSettings = FIT_SETTINGS): FittedA {
  const prep = prepare(cases);
  const fit = fitOn(prep, prep.cases.map((_, i) => i), settings);
  return { correction: toCorrection(fit.beta), trainingMedianAbsLn: fit.loss };
}

/** Leave-one-out: refit on the other cases, predict the held-out one. Returns out-of-fold rows and each fold's fit. */
export function crossValidateStratumA(
  cases: readonly CalibrationCase[], settings: FitSettings = FIT_SETTINGS,
): { rows: CaseA[]; folds: FittedA[] } {
  const prep = prepare(cases);
  const rows: CaseA[] = [];
  const folds: FittedA[] = [];
  prep.cases.forEach((_, held) => {
    const train = prep.cases.map((__, i) => i).filter((i) => i !== held);
    const fit = fitOn(prep, train, settings);
    folds.push({ correction: toCorrection(fit.beta), trainingMedianAbsLn: fit.loss });
    rows.push(scores(prep, [held], fit.beta, 0)[0]!);
  });
  return { rows, folds };
}

/** Model parameters carrying a fitted correction. */
export function parametersFrom(fit: FittedA): ModelParameters {
  return { certificateCorrection: fit.correction };
}
