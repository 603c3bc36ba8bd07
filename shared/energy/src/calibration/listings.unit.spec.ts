import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../model/evaluate.ts';
import { DATA_DIR } from './harness.ts';
import {
  ageBandBaseline,
  foldOf,
  groupMedianBaseline,
  metrics,
  propertyOfListing,
  readListings,
  STRATA,
  stratumOf,
  type Listing,
} from './listings.ts';

const SAMPLE = join(DATA_DIR, 'epc-listings-sample.csv');
const sample = readListings(SAMPLE);

describe('the committed listings sample', () => {
  it('stands alone: under 2 MB, every stratum present', () => {
    expect(statSync(SAMPLE).size).toBeLessThan(2_000_000);
    for (const s of STRATA) expect(sample.filter((l) => stratumOf(l) === s).length, s).toBeGreaterThan(2000);
  });

  it('the shipped stock reproduces each stratum without a systematic offset', () => {
    // Every 10th home keeps the test fast; the full figures come from npm run calibrate.
    const rows = sample.filter((_, i) => i % 10 === 0);
    for (const s of STRATA) {
      const sel = rows.filter((l) => stratumOf(l) === s);
      const m = metrics(
        sel,
        sel.map((l) => evaluate(propertyOfListing(l)).epc_score),
      );
      expect(Math.abs(m.bias), s).toBeLessThan(0.15);
      expect(m.within_one, s).toBeGreaterThan(0.6);
    }
  });
});

describe('folds and baselines', () => {
  const home = (over: Partial<Listing>): Listing => ({
    region: 'FLANDERS',
    postal: '9000',
    apartment: false,
    kind: null,
    year: 1960,
    facades: 2,
    area: 120,
    glazing: null,
    heating: null,
    score: 300,
    ...over,
  });

  it('keeps one home (postal code, year, area) in one fold', () => {
    expect(foldOf(home({ score: 100 }), 5)).toBe(foldOf(home({ score: 900 }), 5));
  });

  it('the group median falls back to coarser groups under 15 homes', () => {
    const train = [
      ...Array.from({ length: 20 }, (_, i) => home({ score: 200 + i })),
      ...Array.from({ length: 5 }, () => home({ postal: '2000', score: 900 })),
    ];
    const b2 = groupMedianBaseline(train);
    expect(b2(home({}))).toBeCloseTo(209.5, 9);
    // Antwerp has 5 homes only: the decade x facades x area group (all 25) decides.
    expect(b2(home({ postal: '2000' }))).toBe(212);
    expect(ageBandBaseline(train)(home({}))).toBe(212);
  });
});
