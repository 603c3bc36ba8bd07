import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../model/evaluate.ts';
import { DATA_DIR } from './harness.ts';
import {
  ageBandBaseline,
  foldOf,
  groupMedianBaseline,
  metrics,
  parseCsv,
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

describe('reading a listings CSV', () => {
  const withFile = (text: string, read: (path: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'renopath-listings-'));
    try {
      writeFileSync(join(dir, 'listings.csv'), text);
      read(join(dir, 'listings.csv'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('imports a spreadsheet export with a byte-order mark, `;` separators, decimal commas and a quoted line break', () => {
    const text =
      '\uFEFFregion;postal_code;type;subtype;year_built;facades_n;living_area_m2;double_glazing;epc_kwh_m2\r\n' +
      'FLANDERS;9000;APARTMENT;"Penthouse\r\nwith a ""roof"" terrace";1985;2;92,5;true;210\r\n' +
      'WALLONIA;5000;HOUSE;;1930;3;140;false;390\r\n';
    withFile(text, (path) => {
      const listings = readListings(path);
      // The first column is found despite the mark; the quoted line break stays inside its field.
      expect(listings).toHaveLength(2);
      expect(listings[0]).toMatchObject({ region: 'FLANDERS', postal: '9000', kind: 'PENTHOUSE', area: 92.5, glazing: true, score: 210 });
      expect(listings[1]).toMatchObject({ region: 'WALLONIA', apartment: false, year: 1930, facades: 3, area: 140, score: 390 });
    });
  });

  it('reads commas, escaped quotes and line breaks inside quoted fields', () => {
    expect(parseCsv('a,b,c\n"x, y","say ""hi""","two\nlines"\n\n')).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
    ]);
  });

  it('refuses a file with an unclosed quote, naming the line', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(/line/i);
  });
});
