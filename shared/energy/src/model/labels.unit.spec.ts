import { describe, expect, it } from 'vitest';
import type { EnergyEfficiencyType } from '@renopath/contracts';
import { expectedPriceErrorFor, labelFor, qualityLabelFor } from './labels.ts';

/** [score, label] at and around each boundary of docs/domain-sources.md 1. */
const SCALES: Record<EnergyEfficiencyType, [number, string][]> = {
  EPC_FLANDERS: [
    [-50, 'A+'],
    [-0.01, 'A+'],
    [0, 'A'],
    [100, 'A'],
    [100.01, 'B'],
    [200, 'B'],
    [200.01, 'C'],
    [300, 'C'],
    [300.01, 'D'],
    [400, 'D'],
    [400.01, 'E'],
    [500, 'E'],
    [500.01, 'F'],
    [1113, 'F'],
  ],
  EPC_BRUSSELS: [
    [-1, 'A++'],
    [0, 'A++'],
    [0.01, 'A+'],
    [15, 'A+'],
    [15.01, 'A'],
    [30, 'A'],
    [30.01, 'A-'],
    [45, 'A-'],
    [45.01, 'B+'],
    [62, 'B+'],
    [62.01, 'B'],
    [78, 'B'],
    [78.01, 'B-'],
    [95, 'B-'],
    [95.01, 'C+'],
    [113, 'C+'],
    [113.01, 'C'],
    [132, 'C'],
    [132.01, 'C-'],
    [150, 'C-'],
    [150.01, 'D+'],
    [170, 'D+'],
    [170.01, 'D'],
    [190, 'D'],
    [190.01, 'D-'],
    [210, 'D-'],
    [210.01, 'E+'],
    [232, 'E+'],
    [232.01, 'E'],
    [253, 'E'],
    [253.01, 'E-'],
    [275, 'E-'],
    [275.01, 'F'],
    [345, 'F'],
    [345.01, 'G'],
    [900, 'G'],
  ],
  EPC_WALLONIA: [
    [-1, 'A++'],
    [0, 'A++'],
    [0.01, 'A+'],
    [45, 'A+'],
    [45.01, 'A'],
    [85, 'A'],
    [85.01, 'B'],
    [170, 'B'],
    [170.01, 'C'],
    [255, 'C'],
    [255.01, 'D'],
    [340, 'D'],
    [340.01, 'E'],
    [425, 'E'],
    [425.01, 'F'],
    [510, 'F'],
    [510.01, 'G'],
  ],
  // Regeling energieprestatie gebouwen, bijlage I (in force since 2021), not the 2019 draft.
  ENERGY_LABEL_NL: [
    [-10, 'A++++'],
    [0, 'A++++'],
    [0.01, 'A+++'],
    [50, 'A+++'],
    [50.01, 'A++'],
    [75, 'A++'],
    [75.01, 'A+'],
    [105, 'A+'],
    [105.01, 'A'],
    [160, 'A'],
    [160.01, 'B'],
    [190, 'B'],
    [190.01, 'C'],
    [250, 'C'],
    [250.01, 'D'],
    [290, 'D'],
    [290.01, 'E'],
    [335, 'E'],
    [335.01, 'F'],
    [380, 'F'],
    [380.01, 'G'],
    [600, 'G'],
  ],
};

describe('labelFor on every scale, at and around each boundary', () => {
  for (const [scale, rows] of Object.entries(SCALES) as [EnergyEfficiencyType, [number, string][]][]) {
    for (const [score, label] of rows) {
      it(`${scale} ${score} -> ${label}`, () => expect(labelFor(scale, score)).toBe(label));
    }
  }
});

describe('quality label and expected price error (docs/domain.md, Confidence)', () => {
  it('A >= 0.80, B >= 0.70, C >= 0.60, D below', () => {
    expect([0.95, 0.8, 0.7999, 0.7, 0.6999, 0.6, 0.5999, 0.1].map(qualityLabelFor)).toEqual(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D']);
  });
  it('reports the band of the reference service', () => {
    expect(expectedPriceErrorFor(0.85)).toEqual({ average_pct: 5, standard_deviation_pct: 8, at_least: false });
    expect(expectedPriceErrorFor(0.75)).toEqual({ average_pct: 14, standard_deviation_pct: 13, at_least: false });
    expect(expectedPriceErrorFor(0.65)).toEqual({ average_pct: 15, standard_deviation_pct: 13, at_least: false });
    expect(expectedPriceErrorFor(0.4)).toEqual({ average_pct: 20, standard_deviation_pct: 30, at_least: true });
  });
});
