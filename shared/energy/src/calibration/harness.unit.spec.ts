import { describe, expect, it } from 'vitest';
import { evaluate } from '../model/evaluate.ts';
import { isCorrectedTabula, loadCases, median, runStratumA, runStratumB, spearman, summariseB, variantOf } from './harness.ts';
import { TARGETS } from './targets.ts';

// The calibration cases are the repository's own copy (data/calibration-cases.json): no handbook needed.
const cases = loadCases();

describe('calibration cases (data/calibration-cases.json)', () => {
  it('has the 85 cases: 47 Flemish EPCs, 38 TABULA of which 6 rest on U-values the model corrected', () => {
    expect(cases).toHaveLength(85);
    expect(runStratumA(cases)).toHaveLength(47);
    expect(runStratumB(cases)).toHaveLength(32);
    expect(cases.filter(isCorrectedTabula).map(variantOf).sort()).toEqual([
      'NL.N.SFH.02.Deta',
      'NL.N.SFH.02.Gen',
      'NL.N.TH.01.End1945',
      'NL.N.TH.01.Gen',
      'NL.N.TH.02.End',
      'NL.N.TH.02.Gen',
    ]);
  });

  it('the corrected TABULA rows need less heat than TABULA says (their surface-resistance U-values are gone) and still more than a 1975 home', () => {
    for (const c of cases.filter(isCorrectedTabula)) {
      const need = evaluate(c.inputs).heating_need_kwh_per_m2;
      expect(need, c.id).toBeLessThan(c.expected.heating_need_kwh_per_m2!);
      expect(need, c.id).toBeGreaterThan(evaluate({ ...c.inputs, year_built: 1983 }).heating_need_kwh_per_m2);
    }
  });

  it('stratum B: MAPE of heating_need_kwh_per_m2 < 10 % per country, both monotonicity checks pass', () => {
    const b = summariseB(runStratumB(cases));
    expect(Object.keys(b.by_country).sort()).toEqual(['BE', 'NL']);
    for (const s of Object.values(b.by_country)) expect(s.mape).toBeLessThan(TARGETS.stratumB.mapeMax);
    expect(b.monotonic_in_year.violations).toEqual([]);
    expect(b.ordered_by_format.violations).toEqual([]);
  });
});

describe('harness statistics', () => {
  it('median and Spearman', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });
});
