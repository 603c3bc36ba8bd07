import { describe, expect, it } from 'vitest';
import { evaluate } from '../model/evaluate.ts';
import { loadNlReferenceCases, median, type CalibrationCase } from './harness.ts';

// Dutch reference dwellings beside the TABULA NL rows (data/nl-reference-cases.json): RVO's example dwellings of
// the existing stock (net heating need, NTA 8800) and published BENG reports of new builds (EP2).
const cases = loadNlReferenceCases();
const run = (c: CalibrationCase) => evaluate(c.inputs);
const FLATS = new Set(['CAL-RVO-NL-05', 'CAL-RVO-NL-06']);

describe('Dutch reference dwellings', () => {
  it('every case is a valid trajectory request on the Dutch scale', () => {
    expect(cases).toHaveLength(9);
    for (const c of cases) expect(run(c).energy_efficiency_type, c.id).toBe('ENERGY_LABEL_NL');
  });

  it("RVO example houses: the model's heat need within 25 % of RVO's each, 10 % at the median", () => {
    const houses = cases.filter((c) => c.id.startsWith('CAL-RVO-NL') && !FLATS.has(c.id));
    expect(houses).toHaveLength(4);
    const errors = houses.map((c) => {
      const rel = run(c).heating_need_kwh_per_m2 / c.expected.heating_need_kwh_per_m2! - 1;
      expect(Math.abs(rel), `${c.id}: ${(100 * rel).toFixed(1)} %`).toBeLessThan(0.25);
      return Math.abs(rel);
    });
    expect(median(errors)).toBeLessThan(0.1);
  });

  it('new builds land within 15 kWh/m2 of their certified EP2 on average, and each is A+++ or A++ like its certificate', () => {
    const beng = cases.filter((c) => c.id.startsWith('CAL-BENG-NL'));
    expect(beng).toHaveLength(3);
    const errors = beng.map((c) => {
      const e = run(c);
      expect(['A++++', 'A+++', 'A++'], `${c.id}: EP2 ${e.epc_score.toFixed(1)} against ${c.expected.epc_score}`).toContain(e.epc_label);
      return Math.abs(e.epc_score - c.expected.epc_score!);
    });
    expect(errors.reduce((s, x) => s + x, 0) / errors.length).toBeLessThan(15);
  });
});
