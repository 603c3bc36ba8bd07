import { describe, expect, it } from 'vitest';
import {
  crossValidateStratumA, fitStratumA, loadCases, median, runStratumA, runStratumB, spearman, summariseA, summariseB,
} from './harness.ts';
import { DEFAULT_PARAMETERS } from '../model/parameters.ts';
import { TARGETS } from './targets.ts';

// The quality gate of the issue: the calibration strata meet their targets (not a timing).
const cases = loadCases();

describe('calibration targets (handbook calibration-cases.json)', () => {
  it('has the 85 cases of the handbook: 47 Flemish EPCs, 38 TABULA', () => {
    expect(cases).toHaveLength(85);
    expect(runStratumA(cases)).toHaveLength(47);
    expect(runStratumB(cases)).toHaveLength(38);
  });

  const a = summariseA(runStratumA(cases));
  const cv = crossValidateStratumA(cases);
  const oof = summariseA(cv.rows);

  it('stratum A, shipped parameters: within one class >= 70 % and median APE < 35 %', () => {
    expect(a.within_one_class).toBeGreaterThanOrEqual(TARGETS.stratumA.withinOneClassMin);
    expect(a.median_ape).toBeLessThan(TARGETS.stratumA.medianApeMax);
  });

  it('stratum A, leave-one-out (out-of-fold): within one class >= 70 % and median APE < 35 %', () => {
    expect(cv.rows).toHaveLength(47);
    expect(oof.within_one_class).toBeGreaterThanOrEqual(TARGETS.stratumA.withinOneClassMin);
    expect(oof.median_ape).toBeLessThan(TARGETS.stratumA.medianApeMax);
  });

  it('the recorded certificate correction is the fit on all cases', () => {
    const fit = fitStratumA(cases).correction;
    const rec = DEFAULT_PARAMETERS.certificateCorrection;
    expect(fit.log_scale).toBeCloseTo(rec.log_scale, 3);
    expect(fit.size_exponent).toBeCloseTo(rec.size_exponent, 3);
    fit.age_bands.forEach((b, i) => expect(b.log_factor).toBeCloseTo(rec.age_bands[i]!.log_factor, 3));
    expect(fit.formats.OPEN).toBeCloseTo(rec.formats.OPEN, 3);
    expect(fit.formats.CLOSED).toBeCloseTo(rec.formats.CLOSED, 3);
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
