/**
 * Calibration harness over the calibration cases (data/calibration-cases.json, copied from the handbook):
 * stratum A (real Flemish EPCs) and stratum B (TABULA net heat need). Pure functions; the CLI prints them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PropertyDescription } from '@renopath/contracts';
import { CORRECTED_ARCHETYPES } from '../model/data.ts';
import { evaluate } from '../model/evaluate.ts';
import { labelFor, labelsOf } from '../model/labels.ts';
import { DEFAULT_PARAMETERS, type ModelParameters } from '../model/parameters.ts';

export const CalibrationCase = z.object({
  id: z.string(),
  source_url: z.string(),
  source_note: z.string().optional(),
  inputs: PropertyDescription,
  expected: z.object({
    epc_score: z.number().nullable(),
    epc_label: z.string().nullable(),
    heating_need_kwh_per_m2: z.number().nullable(),
  }),
});
export type CalibrationCase = z.infer<typeof CalibrationCase>;

/** The package's data directory (the calibration cases are committed there: the repository stands alone). */
export const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data');

/** The calibration cases: the committed copy, or a calibration-cases.json in another directory. */
export function loadCases(dir: string = DATA_DIR): CalibrationCase[] {
  const raw = JSON.parse(readFileSync(join(dir, 'calibration-cases.json'), 'utf8')) as unknown;
  const list = Array.isArray(raw) ? raw : (raw as { cases?: unknown }).cases;
  return z.array(CalibrationCase).parse(list);
}

export const isStratumA = (c: CalibrationCase) => c.expected.epc_score !== null;

/** The Dutch reference dwellings (data/nl-reference-cases.json): RVO's example dwellings and BENG new builds, in the same case shape. */
export function loadNlReferenceCases(dir: string = DATA_DIR): CalibrationCase[] {
  const raw = JSON.parse(readFileSync(join(dir, 'nl-reference-cases.json'), 'utf8')) as { cases: unknown };
  return z.array(CalibrationCase).parse(raw.cases);
}
/** The TABULA variant a stratum-B case was taken from (its source note names it), or null. */
export function variantOf(c: CalibrationCase): string | null {
  const m = /variant ([A-Z]{2}\.N\.[A-Za-z]+\.[0-9]+\.[A-Za-z0-9]+)\./.exec(c.source_note ?? '');
  return m ? m[1]! : null;
}
/**
 * A TABULA heat need the model is held to: not one of the rows whose U-values the model replaced
 * (data/envelope.json tabula_corrections), since TABULA's figure rests on the values replaced.
 */
export const isStratumB = (c: CalibrationCase) =>
  c.expected.heating_need_kwh_per_m2 !== null && !CORRECTED_ARCHETYPES.has(variantOf(c) ?? '');
/** The TABULA cases left out of stratum B because their row's U-values were corrected. */
export const isCorrectedTabula = (c: CalibrationCase) =>
  c.expected.heating_need_kwh_per_m2 !== null && CORRECTED_ARCHETYPES.has(variantOf(c) ?? '');

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
  for (let i = 0; i < idx.length; ) {
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
  let num = 0;
  let da = 0;
  let db = 0;
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
    id: c.id,
    year_built: c.inputs.year_built,
    estate_format: c.inputs.estate_format,
    habitable_space_m2: c.inputs.habitable_space_m2,
    observed,
    predicted,
    observed_label: ol,
    predicted_label: pl,
    label_match: pl === ol,
    within_one_class: Math.abs(FL_LABELS.indexOf(pl) - FL_LABELS.indexOf(ol)) <= 1,
    ln_ratio: Math.log(predicted / observed),
    ape: Math.abs(predicted / observed - 1),
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
    spearman: spearman(
      rows.map((r) => r.predicted),
      rows.map((r) => r.observed),
    ),
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
      id: c.id,
      country: c.inputs.country,
      year_built: c.inputs.year_built,
      estate_format: c.inputs.estate_format,
      observed,
      predicted,
      relative_error: predicted / observed - 1,
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
    const means = FORMAT_ORDER.map((f) => rs.filter((r) => r.estate_format === f).map((r) => r.predicted)).map((v) =>
      v.length ? v.reduce((s, x) => s + x, 0) / v.length : null,
    );
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
