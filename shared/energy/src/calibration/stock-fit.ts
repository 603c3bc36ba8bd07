/**
 * Fitting the stock (data/stock.json) on the EPC listings: per region x house/apartment, the stock level at
 * each anchor year and a size coefficient, so that the physics with the stock's assumptions reproduces the
 * certificates (least absolute log error, the median's loss). Scores are tabulated once per home over a grid
 * of stock levels; the fit and the cross-validation then only interpolate.
 */
import type { StockParameters, StockStratum } from '../model/data.ts';
import { evaluate } from '../model/evaluate.ts';
import { DEFAULT_PARAMETERS, MAX_LEVEL, MIN_LEVEL, provinceOf, rawLevel } from '../model/parameters.ts';
import {
  ageBandBaseline,
  foldOf,
  groupMedianBaseline,
  metrics,
  propertyOfListing,
  stockStratumOf,
  type Listing,
  type Metrics,
  type Predictor,
} from './listings.ts';

const GRID_STEPS = 40;
export const LEVEL_GRID: readonly number[] = Array.from(
  { length: GRID_STEPS + 1 },
  (_, i) => MIN_LEVEL + (i * (MAX_LEVEL - MIN_LEVEL)) / GRID_STEPS,
);
const OFFSET_GRID = Array.from({ length: 21 }, (_, i) => -1 + i * 0.1);
const ANCHORS = [1900, 1930, 1945, 1958, 1970, 1980, 1990, 1998, 2005, 2010, 2015, 2018, 2022];
const SIZE_GRID = Array.from({ length: 31 }, (_, i) => -1.5 + i * 0.1);
const LEVEL_STEP = 0.025;
const ROUNDS = 3;
const MIN_PROVINCE_HOMES = 50;
const REFERENCE_AREA = { HOUSE: 150, APARTMENT: 90 } as const;

/** Score of each home at each level of LEVEL_GRID. */
export function tabulate(rows: readonly Listing[]): Float64Array[] {
  return rows.map((l) => {
    const p = propertyOfListing(l);
    return Float64Array.from(LEVEL_GRID, (g) => evaluate(p, { parameters: { ...DEFAULT_PARAMETERS, forcedLevel: g } }).epc_score);
  });
}

function scoreAt(table: Float64Array, level: number): number {
  const x = ((Math.min(MAX_LEVEL, Math.max(MIN_LEVEL, level)) - MIN_LEVEL) / (MAX_LEVEL - MIN_LEVEL)) * GRID_STEPS;
  const i = Math.min(LEVEL_GRID.length - 2, Math.floor(x));
  return table[i]! + (x - i) * (table[i + 1]! - table[i]!);
}

function levelOf(s: StockStratum, l: Listing): number {
  return rawLevel(s, l.year, l.area, provinceOf(l.postal));
}

const lossOf = (pred: number, obs: number) => Math.abs(Math.log(Math.max(1, pred) / obs));

function loss(s: StockStratum, rows: readonly Listing[], tables: readonly Float64Array[], idx: readonly number[]): number {
  let sum = 0;
  for (const i of idx) sum += lossOf(scoreAt(tables[i]!, levelOf(s, rows[i]!)), rows[i]!.score);
  return sum;
}

/** Fit one stratum by coordinate descent: each anchor's level on a grid, then the size coefficient. */
function fitStratum(rows: readonly Listing[], tables: readonly Float64Array[], idx: readonly number[], apartment: boolean): StockStratum {
  const s: StockStratum = {
    anchor_years: [...ANCHORS],
    level: ANCHORS.map(() => 0),
    size_coefficient: 0,
    reference_area_m2: apartment ? REFERENCE_AREA.APARTMENT : REFERENCE_AREA.HOUSE,
    province_offsets: {},
  };
  const provinces = new Map<string, number[]>();
  for (const i of idx) {
    const p = provinceOf(rows[i]!.postal);
    if (p === null) continue;
    const g = provinces.get(p);
    if (g) g.push(i);
    else provinces.set(p, [i]);
  }
  // Homes that move with an anchor: those between its neighbours.
  const near = ANCHORS.map((_, k) =>
    idx.filter((i) => {
      const y = rows[i]!.year;
      return (k === 0 || y > ANCHORS[k - 1]!) && (k === ANCHORS.length - 1 || y < ANCHORS[k + 1]!);
    }),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < ANCHORS.length; k++) {
      if (near[k]!.length === 0) continue;
      let best = s.level[k]!;
      let bestLoss = Infinity;
      for (let v = MIN_LEVEL; v <= MAX_LEVEL + 1e-9; v += LEVEL_STEP) {
        s.level[k] = v;
        const l = loss(s, rows, tables, near[k]!);
        if (l < bestLoss - 1e-9) {
          bestLoss = l;
          best = v;
        }
      }
      s.level[k] = Math.round(best * 1000) / 1000;
    }
    let bestB = s.size_coefficient;
    let bestLoss = Infinity;
    for (const b of SIZE_GRID) {
      s.size_coefficient = b;
      const l = loss(s, rows, tables, idx);
      if (l < bestLoss - 1e-9) {
        bestLoss = l;
        bestB = b;
      }
    }
    s.size_coefficient = Math.round(bestB * 100) / 100;
    // Province offsets: only where enough homes say so.
    for (const [p, members] of [...provinces].sort()) {
      if (members.length < MIN_PROVINCE_HOMES) continue;
      let bestO = 0;
      let bestLossO = Infinity;
      for (const o of OFFSET_GRID) {
        s.province_offsets[p] = o;
        const l = loss(s, rows, tables, members);
        if (l < bestLossO - 1e-9) {
          bestLossO = l;
          bestO = o;
        }
      }
      s.province_offsets[p] = Math.round(bestO * 100) / 100;
    }
  }
  return s;
}

/** Fit every stock stratum present in the rows (idx: the training rows). */
export function fitStock(
  rows: readonly Listing[],
  tables: readonly Float64Array[],
  idx: readonly number[] = rows.map((_, i) => i),
): StockParameters {
  const byStratum = new Map<string, number[]>();
  for (const i of idx) {
    const k = stockStratumOf(rows[i]!);
    const g = byStratum.get(k);
    if (g) g.push(i);
    else byStratum.set(k, [i]);
  }
  const out: StockParameters = {};
  for (const [k, members] of [...byStratum].sort()) out[k] = fitStratum(rows, tables, members, k.endsWith('APARTMENT'));
  return out;
}

/** The model's prediction of a tabulated home under fitted stock parameters. */
export function predictTabulated(params: StockParameters, l: Listing, table: Float64Array): number {
  const s = params[stockStratumOf(l)];
  return s ? scoreAt(table, levelOf(s, l)) : table[0]!;
}

export interface CrossValidation {
  /** Out-of-fold predictions per home: the model and the two baselines. */
  model: number[];
  ageBand: number[];
  groupMedian: number[];
  folds: StockParameters[];
}

/** Grouped k-fold cross-validation: the model and both baselines fitted on the same training folds. */
export function crossValidate(rows: readonly Listing[], tables: readonly Float64Array[], k = 5): CrossValidation {
  const model = new Array<number>(rows.length);
  const ageBand = new Array<number>(rows.length);
  const groupMedian = new Array<number>(rows.length);
  const folds: StockParameters[] = [];
  const fold = rows.map((l) => foldOf(l, k));
  for (let f = 0; f < k; f++) {
    const train = rows.map((_, i) => i).filter((i) => fold[i] !== f);
    const test = rows.map((_, i) => i).filter((i) => fold[i] === f);
    const params = fitStock(rows, tables, train);
    folds.push(params);
    const trainRows = train.map((i) => rows[i]!);
    const b1: Predictor = ageBandBaseline(trainRows);
    const b2: Predictor = groupMedianBaseline(trainRows);
    for (const i of test) {
      model[i] = predictTabulated(params, rows[i]!, tables[i]!);
      ageBand[i] = b1(rows[i]!);
      groupMedian[i] = b2(rows[i]!);
    }
  }
  return { model, ageBand, groupMedian, folds };
}

export interface ComparisonRow {
  group: string;
  model: Metrics;
  ageBand: Metrics;
  groupMedian: Metrics;
}

/** Metrics of the three predictors over the rows selected by each group key. */
export function compare(rows: readonly Listing[], cv: CrossValidation, groupOf: (l: Listing) => string | null): ComparisonRow[] {
  const groups = new Map<string, number[]>();
  rows.forEach((l, i) => {
    const g = groupOf(l);
    if (g === null) return;
    const m = groups.get(g);
    if (m) m.push(i);
    else groups.set(g, [i]);
  });
  return [...groups].map(([group, idx]) => {
    const sel = idx.map((i) => rows[i]!);
    const pick = (xs: number[]) => idx.map((i) => xs[i]!);
    return {
      group,
      model: metrics(sel, pick(cv.model)),
      ageBand: metrics(sel, pick(cv.ageBand)),
      groupMedian: metrics(sel, pick(cv.groupMedian)),
    };
  });
}
