import { describe, expect, it } from 'vitest';
import { MeteredUse } from '@renopath/contracts';
import { calibrate, heatPumpKw, type HomeModel } from './calibrate.ts';
import { daysIn, normalDegreeDays, normalYearDegreeDays, stationOf } from './data.ts';
import { tQuantile } from './regression.ts';

/**
 * Synthetic homes: monthly gas made from a known heat-loss coefficient, the model's heating per W/K in
 * a normal year spread over the months by the region's normal degree-days, plus a baseload by the day;
 * with and without 10% noise. The calibration must give the coefficient back, and heat pumps sized from
 * it must keep the homes' ratio.
 */
const BASELOAD = 2_400;
/** The described home's model: 200 W/K that heat with 18,000 kWh of gas in a normal year. */
const MODEL_H = 200;
const MODEL_HEATING = 18_000;
const KWH_PER_W_PER_K = MODEL_HEATING / MODEL_H;

function home(region: HomeModel['region']): HomeModel {
  return { region, carrier: 'GAS', modelled_kwh_year: BASELOAD + MODEL_HEATING, baseload_kwh_year: BASELOAD, heat_loss_w_per_k: MODEL_H };
}

/** A deterministic normal variate stream (mulberry32 + Box-Muller): the same noise every run. */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

function readings(region: HomeModel['region'], trueH: number, noise: number, seed = 7, months = 24): MeteredUse {
  const station = stationOf(region);
  const yearDd = normalYearDegreeDays(station);
  const next = gaussian(seed);
  const monthly = [];
  for (let i = 0; i < months; i++) {
    const month = `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    const days = daysIn(month);
    const dd = normalDegreeDays(station, (i % 12) + 1, days);
    const kwh = (BASELOAD * days) / 365.25 + (trueH * KWH_PER_W_PER_K * dd) / yearDd;
    monthly.push({ month, gas_kwh: Math.max(0, kwh * (1 + noise * next())) });
  }
  return MeteredUse.parse({ monthly });
}

describe('degree-day calibration of synthetic homes (one loses twice the heat of the other)', () => {
  for (const region of ['FLANDERS', 'NETHERLANDS'] as const) {
    const model = home(region);

    it(`${region}: without noise both coefficients come back within 10%`, () => {
      for (const trueH of [120, 240]) {
        const fit = calibrate(readings(region, trueH, 0), model)!;
        expect(fit.method).toBe('MONTHLY');
        expect(Math.abs(fit.heat_loss_w_per_k / trueH - 1)).toBeLessThan(0.1);
        expect(Math.abs(fit.baseload_kwh_year / BASELOAD - 1)).toBeLessThan(0.1);
      }
    });

    it(`${region}: with 10% noise both come back within 20%, inside their 80% interval, heat pumps in the homes' ratio`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const small = calibrate(readings(region, 120, 0.1, seed), model)!;
        const large = calibrate(readings(region, 240, 0.1, seed + 100), model)!;
        for (const [fit, trueH] of [
          [small, 120],
          [large, 240],
        ] as const) {
          expect(Math.abs(fit.heat_loss_w_per_k / trueH - 1)).toBeLessThan(0.2);
          expect(fit.heat_loss_low_w_per_k).toBeLessThan(fit.heat_loss_w_per_k);
          expect(fit.heat_loss_high_w_per_k).toBeGreaterThan(fit.heat_loss_w_per_k);
        }
        const country = region === 'NETHERLANDS' ? 'NL' : 'BE';
        const ratio = heatPumpKw(large.heat_loss_w_per_k, country) / heatPumpKw(small.heat_loss_w_per_k, country);
        expect(ratio).toBeGreaterThan(2 * (0.8 / 1.2));
        expect(ratio).toBeLessThan(2 * (1.2 / 0.8));
      }
      // Without noise the heat pumps are exactly in the homes' ratio.
      const a = calibrate(readings(region, 120, 0), model)!;
      const b = calibrate(readings(region, 240, 0), model)!;
      expect(heatPumpKw(b.heat_loss_w_per_k, 'BE') / heatPumpKw(a.heat_loss_w_per_k, 'BE')).toBeCloseTo(2, 2);
    });

    it(`${region}: the 80% interval holds the true coefficient in about eight runs of ten`, () => {
      let inside = 0;
      const runs = 200;
      for (let seed = 0; seed < runs; seed++) {
        const fit = calibrate(readings(region, 180, 0.1, 1000 + seed), model)!;
        if (fit.heat_loss_low_w_per_k <= 180 && 180 <= fit.heat_loss_high_w_per_k) inside++;
      }
      expect(inside / runs).toBeGreaterThan(0.7);
      expect(inside / runs).toBeLessThan(0.9);
    });
  }

  it('a yearly figure alone calibrates: ANNUAL, the coefficient back, a wider interval than a clean year of months', () => {
    const model = home('NETHERLANDS');
    for (const trueH of [100, 300]) {
      const kwh = BASELOAD + trueH * KWH_PER_W_PER_K;
      const fit = calibrate(MeteredUse.parse({ gas_m3: kwh / 9.77, period_end: '2025-06' }), model)!;
      expect(fit.method).toBe('ANNUAL');
      expect(Math.abs(fit.heat_loss_w_per_k / trueH - 1)).toBeLessThan(0.1);
      expect(fit.heat_loss_low_w_per_k).toBeLessThan(trueH);
      expect(fit.heat_loss_high_w_per_k).toBeGreaterThan(trueH);
      expect(fit.ratio).toBeCloseTo(kwh / model.modelled_kwh_year, 6);
    }
  });

  it('readings of another carrier than the heating one do not calibrate', () => {
    expect(calibrate(MeteredUse.parse({ fuel_oil_litres: 2000 }), home('WALLONIA'))).toBeNull();
  });

  it("Student's t for 80% lies above the normal quantile and falls towards it with more months", () => {
    expect(tQuantile(1.2816, 10)).toBeCloseTo(1.372, 2);
    expect(tQuantile(1.2816, 22)).toBeCloseTo(1.321, 2);
    expect(tQuantile(1.2816, 1000)).toBeCloseTo(1.2816, 2);
  });
});
