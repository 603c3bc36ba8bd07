/**
 * The EPC listings (real certificate figures from Belgian property adverts): reading, the mapping of an
 * advert onto the model's input, strata, grouped folds and the two baselines the model must beat.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { EstateFormat, PropertyDescription, Region } from '@renopath/contracts';
import { labelFor } from '../model/labels.ts';
import { scaleOfRegion } from '../model/region.ts';

export interface Listing {
  region: Exclude<Region, 'NETHERLANDS'>;
  postal: string;
  apartment: boolean;
  /** What the advert's subtype says about an apartment's exposure, when it says something. */
  kind: 'PENTHOUSE' | 'DUPLEX' | 'STUDIO' | 'GROUND_FLOOR' | null;
  year: number;
  facades: number | null;
  area: number;
  glazing: boolean | null;
  /** The advert's heating fuel on the request's scale, when the advert names one the request knows. */
  heating: 'GAS' | 'FUEL_OIL' | 'ELECTRIC' | 'PELLET_FUEL' | 'WOOD' | null;
  score: number;
}

/** The advert sites' heating fuels (as written, upper-cased) on the request's heating_type. */
const HEATING: Readonly<Record<string, Listing['heating']>> = {
  GAS: 'GAS',
  'FUEL OIL': 'FUEL_OIL',
  FUELOIL: 'FUEL_OIL',
  ELECTRIC: 'ELECTRIC',
  ELECTRICITY: 'ELECTRIC',
  PELLET: 'PELLET_FUEL',
  WOOD: 'WOOD',
};

/** Rows the statistics can use: a score, a year and an area in a plausible range (typos and A+ scores <= 0 left out). */
const LIMITS = { year: [1700, 2026], area: [15, 1000], score: [1, 2000] } as const;

/**
 * The CSV's field separator, read from its header line: `;` when it has more of those than commas
 * (what Belgian and Dutch spreadsheets write, where the comma is the decimal mark), else `,`.
 */
export function csvDelimiter(text: string): ',' | ';' {
  const header = (text.split(/\r?\n/, 1)[0] ?? '').replace(/"[^"]*"/g, '');
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * A CSV file's rows through csv-parse: a UTF-8 byte-order mark dropped, `,` or `;` as separator
 * (csvDelimiter), quoted fields with separators, quotes or line breaks in them, blank lines skipped.
 * A malformed file (an unclosed quote) fails with csv-parse's message, which names the line.
 */
export function parseCsv(text: string, delimiter: ',' | ';' = csvDelimiter(text)): string[][] {
  return parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
}

const REGIONS = new Set(['FLANDERS', 'BRUSSELS', 'WALLONIA']);

function kindOf(subtype: string): Listing['kind'] {
  const s = subtype.toLowerCase();
  if (s.includes('penthouse')) return 'PENTHOUSE';
  if (s.includes('duplex') || s.includes('triplex')) return 'DUPLEX';
  if (s.includes('studio') || s === 'kot') return 'STUDIO';
  if (s.includes('ground') || s.includes('gelijkvloers')) return 'GROUND_FLOOR';
  return null;
}

/** The usable listings of a CSV file with the handbook's columns (a subset of them is enough). */
export function readListings(path: string): Listing[] {
  const text = readFileSync(path, 'utf8');
  const delimiter = csvDelimiter(text);
  const [header, ...rows] = parseCsv(text, delimiter);
  if (!header) return [];
  // With `;` separators the decimal mark is a comma (152,5 m²).
  const num = (value: string | undefined) => Number(delimiter === ';' ? (value ?? '').replace(',', '.') : value);
  const col = (name: string) => header.indexOf(name);
  const c = {
    region: col('region'),
    postal: col('postal_code'),
    type: col('type'),
    year: col('year_built'),
    facades: col('facades_n'),
    area: col('living_area_m2'),
    glazing: col('double_glazing'),
    score: col('epc_kwh_m2'),
  };
  const subtype = col('subtype');
  const heating = col('heating_type');
  for (const [k, v] of Object.entries(c)) if (v < 0) throw new Error(`${path}: column for ${k} missing`);
  const out: Listing[] = [];
  for (const r of rows) {
    const region = r[c.region]!;
    const type = r[c.type]!;
    const year = num(r[c.year]);
    const area = num(r[c.area]);
    const score = num(r[c.score]);
    if (!REGIONS.has(region) || (type !== 'HOUSE' && type !== 'APARTMENT')) continue;
    if (r[c.year] === '' || r[c.area] === '' || r[c.score] === '') continue;
    if (!(year >= LIMITS.year[0] && year <= LIMITS.year[1] && area >= LIMITS.area[0] && area <= LIMITS.area[1])) continue;
    if (!(score >= LIMITS.score[0] && score <= LIMITS.score[1])) continue;
    const f = r[c.facades] === '' ? null : num(r[c.facades]);
    const g = r[c.glazing];
    out.push({
      region: region as Listing['region'],
      postal: r[c.postal]!,
      apartment: type === 'APARTMENT',
      kind: type === 'APARTMENT' && subtype >= 0 ? kindOf(r[subtype]!) : null,
      year: Math.round(year),
      facades: f !== null && Number.isFinite(f) && f >= 2 ? f : null,
      area,
      glazing: g === 'true' ? true : g === 'false' ? false : null,
      heating: heating >= 0 ? (HEATING[r[heating]!.trim().toUpperCase()] ?? null) : null,
      score,
    });
  }
  return out;
}

/**
 * An advert as the model's input, mapped like the handbook's calibration cases: facades 2/3/4+ ->
 * CLOSED/SEMI_OPEN/OPEN for houses (unknown, and apartments: SEMI_OPEN, the indication default); the glazing flag true ->
 * DOUBLE_GLAZING, false -> SINGLE_GLAZING; an apartment's subtype (penthouse, duplex, studio, ground floor)
 * -> estate_type or an exposed floor; everything else is left to the model.
 */
export function propertyOfListing(l: Listing): PropertyDescription {
  // An apartment advert's facade count describes the building, not the flat's own exposure: left to the default.
  const facades = l.apartment ? null : l.facades;
  const format: EstateFormat = facades === null ? 'SEMI_OPEN' : facades >= 4 ? 'OPEN' : facades === 3 ? 'SEMI_OPEN' : 'CLOSED';
  const p: PropertyDescription = {
    year_built: l.year,
    estate_format: format,
    habitable_space_m2: l.area,
    zip_code: l.postal,
    country: 'BE',
  };
  if (l.apartment) p.estate_type = l.kind === 'PENTHOUSE' || l.kind === 'DUPLEX' || l.kind === 'STUDIO' ? l.kind : 'APARTMENT';
  // A ground-floor flat loses heat through its floor: described as a floor on the ground.
  if (l.kind === 'GROUND_FLOOR') p.basement_type = 'NONE';
  if (l.glazing !== null) p.window_glazing_type = l.glazing ? 'DOUBLE_GLAZING' : 'SINGLE_GLAZING';
  // The advert's fuel is the client's heating_type: the device and its age stay the model's.
  if (l.heating !== null) p.heating_type = l.heating;
  return p;
}

/** The reporting strata of issue 10. */
export const STRATA = ['Flemish houses', 'Flemish apartments', 'Brussels', 'Wallonia'] as const;
export type Stratum = (typeof STRATA)[number];
export function stratumOf(l: Listing): Stratum {
  if (l.region === 'FLANDERS') return l.apartment ? 'Flemish apartments' : 'Flemish houses';
  return l.region === 'BRUSSELS' ? 'Brussels' : 'Wallonia';
}

/** The model's stock stratum: region x house/apartment (data/stock.json). */
export const stockStratumOf = (l: Listing) => `${l.region}.${l.apartment ? 'APARTMENT' : 'HOUSE'}`;

export const AGE_BANDS = ['<=1945', '1946-1970', '1971-1990', '1991-2005', '2006-2015', '2016+'] as const;
export function ageBandOf(year: number): string {
  if (year <= 1945) return '<=1945';
  if (year <= 1970) return '1946-1970';
  if (year <= 1990) return '1971-1990';
  if (year <= 2005) return '1991-2005';
  if (year <= 2015) return '2006-2015';
  return '2016+';
}

/** Grouped folds: a home (postal code, year, area) is on one side only, as in the project's held-out check. */
export function foldOf(l: Listing, k: number): number {
  const key = `${l.postal}|${l.year}|${l.area}`;
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % k;
}

/** Province of a Belgian postal code: the baseline's finest geography. */
export function provinceOf(postal: string): string {
  const n = Number(postal);
  const ranges: [number, string][] = [
    [1299, 'BRU'],
    [1499, 'WBR'],
    [1999, 'VBR'],
    [2999, 'ANT'],
    [3499, 'VBR'],
    [3999, 'LIM'],
    [4999, 'LIE'],
    [5999, 'NAM'],
    [6599, 'HAI'],
    [6999, 'LUX'],
    [7999, 'HAI'],
    [8999, 'WVL'],
    [9999, 'OVL'],
  ];
  for (const [to, p] of ranges) if (n <= to) return p;
  return 'UNK';
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

export type Predictor = (l: Listing) => number;

/** Baseline 1: the median score of the training homes of the same stratum and age band. */
export function ageBandBaseline(train: readonly Listing[]): Predictor {
  const groups = new Map<string, number[]>();
  const add = (k: string, v: number) => {
    const g = groups.get(k);
    if (g) g.push(v);
    else groups.set(k, [v]);
  };
  for (const l of train) {
    add(stockStratumOf(l), l.score);
    add(`${stockStratumOf(l)}|${ageBandOf(l.year)}`, l.score);
  }
  const med = new Map([...groups].map(([k, v]) => [k, median(v)]));
  return (l) => med.get(`${stockStratumOf(l)}|${ageBandOf(l.year)}`) ?? med.get(stockStratumOf(l)) ?? NaN;
}

/**
 * Baseline 2: the median of the construction decade x facades x area quintile x province, within the
 * stratum, falling back to coarser groups (dropping province, then area, then facades) under min_group homes.
 */
export function groupMedianBaseline(train: readonly Listing[], minGroup = 15): Predictor {
  const byStratum = new Map<string, number[]>();
  for (const l of train) {
    const s = stockStratumOf(l);
    const g = byStratum.get(s);
    if (g) g.push(l.area);
    else byStratum.set(s, [l.area]);
  }
  const cuts = new Map(
    [...byStratum].map(([s, areas]) => {
      const sorted = [...areas].sort((a, b) => a - b);
      return [s, [0.2, 0.4, 0.6, 0.8].map((q) => sorted[Math.floor(q * (sorted.length - 1))]!)] as const;
    }),
  );
  const keys = (l: Listing): string[] => {
    const s = stockStratumOf(l);
    const decade = Math.floor(l.year / 10);
    const facades = l.facades === null ? 'u' : String(Math.min(4, l.facades));
    const q = (cuts.get(s) ?? []).filter((c) => l.area > c).length;
    const prov = provinceOf(l.postal);
    return [`${s}|${decade}|${facades}|${q}|${prov}`, `${s}|${decade}|${facades}|${q}`, `${s}|${decade}|${facades}`, `${s}|${decade}`, s];
  };
  const groups = new Map<string, number[]>();
  for (const l of train)
    for (const k of keys(l)) {
      const g = groups.get(k);
      if (g) g.push(l.score);
      else groups.set(k, [l.score]);
    }
  const med = new Map<string, number>();
  for (const [k, v] of groups) if (v.length >= minGroup || !k.includes('|')) med.set(k, median(v));
  return (l) => {
    for (const k of keys(l)) {
      const m = med.get(k);
      if (m !== undefined) return m;
    }
    return NaN;
  };
}

// ---------------------------------------------------------------------------------------------
// Metrics

/** The label letter on the region's scale (Brussels sub-classes and A+ / A++ count as their letter). */
export function letterOf(l: Listing, score: number): number {
  return 'ABCDEFG'.indexOf(labelFor(scaleOfRegion(l.region), score)[0]!);
}

export interface Metrics {
  n: number;
  within_one: number;
  exact: number;
  median_ape: number;
  /** Median of ln(pred / obs): below 0 the predictor is too low. */
  bias: number;
}

export function metrics(rows: readonly Listing[], predicted: readonly number[]): Metrics {
  const n = rows.length;
  let within = 0;
  let exact = 0;
  const ape: number[] = [];
  const ln: number[] = [];
  rows.forEach((l, i) => {
    const p = predicted[i]!;
    const d = Math.abs(letterOf(l, p) - letterOf(l, l.score));
    if (d === 0) exact++;
    if (d <= 1) within++;
    ape.push(Math.abs(p / l.score - 1));
    ln.push(Math.log(Math.max(1, p) / l.score));
  });
  return { n, within_one: within / n, exact: exact / n, median_ape: median(ape), bias: median(ln) };
}

// ---------------------------------------------------------------------------------------------
// Uncertainty and ceilings

/** Deterministic pseudo-random numbers (mulberry32): the bootstrap gives the same interval on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interval {
  estimate: number;
  lo: number;
  hi: number;
}

/**
 * 95 % interval of `stat` by a cluster bootstrap over postal codes: homes of one postal code are resampled together,
 * since neighbours share builders, assessors and the same fold.
 */
export function clusterBootstrap(rows: readonly Listing[], stat: (idx: readonly number[]) => number, reps = 200, seed = 7): Interval {
  const clusters = new Map<string, number[]>();
  rows.forEach((l, i) => {
    const c = clusters.get(l.postal);
    if (c) c.push(i);
    else clusters.set(l.postal, [i]);
  });
  const list = [...clusters.values()];
  const rnd = random(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const idx: number[] = [];
    for (let k = 0; k < list.length; k++) idx.push(...list[Math.floor(rnd() * list.length)]!);
    values.push(stat(idx));
  }
  values.sort((a, b) => a - b);
  return { estimate: stat(rows.map((_, i) => i)), lo: values[Math.floor(0.025 * reps)]!, hi: values[Math.ceil(0.975 * reps) - 1]! };
}

/** Share of homes within one label of their certificate (the metric of the targets). */
export function withinOne(rows: readonly Listing[], predicted: readonly number[], idx: readonly number[]): number {
  let within = 0;
  for (const i of idx) if (Math.abs(letterOf(rows[i]!, predicted[i]!) - letterOf(rows[i]!, rows[i]!.score)) <= 1) within++;
  return within / idx.length;
}

/**
 * A ceiling, not a predictor: each home scored by the median of the certificates of its own finest group
 * (decade x facades x area quintile x province x glazing flag x fuel, with the home itself in it), falling back
 * to coarser groups under 5 homes. No model using these inputs can, on the same homes, beat this by much.
 */
export function inSampleCeiling(rows: readonly Listing[]): number[] {
  const cuts = [0.2, 0.4, 0.6, 0.8].map((q) => [...rows.map((l) => l.area)].sort((a, b) => a - b)[Math.floor(q * (rows.length - 1))]!);
  const keys = (l: Listing): string[] => {
    const base = `${stockStratumOf(l)}|${Math.floor(l.year / 10)}|${l.facades === null ? 'u' : Math.min(4, l.facades)}|${cuts.filter((c) => l.area > c).length}`;
    return [`${base}|${provinceOf(l.postal)}|${l.glazing}|${l.heating}`, `${base}|${provinceOf(l.postal)}`, base];
  };
  const groups = new Map<string, number[]>();
  for (const l of rows)
    for (const k of keys(l)) {
      const g = groups.get(k);
      if (g) g.push(l.score);
      else groups.set(k, [l.score]);
    }
  return rows.map((l) => {
    for (const k of keys(l)) {
      const g = groups.get(k)!;
      if (g.length >= 5) return median(g);
    }
    return median(groups.get(keys(l)[2]!)!);
  });
}
