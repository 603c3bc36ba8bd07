import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import type { CertificateCell } from '../calibration/certificate-medians.ts';
import { DATA_DIR } from '../calibration/harness.ts';
import { evaluate } from './evaluate.ts';

// What the client says wins: a home described as unrenovated scores like one, at or above the median
// certificate of its region, form and age band (data/certificate-medians.json, real certificates), never
// pulled back towards the average of a stock that is partly renovated.
const { cells } = JSON.parse(readFileSync(join(DATA_DIR, 'certificate-medians.json'), 'utf8')) as { cells: CertificateCell[] };
const FORMAT = { HOUSE_2: 'CLOSED', HOUSE_3: 'SEMI_OPEN', HOUSE_4: 'OPEN', APARTMENT: 'SEMI_OPEN' } as const;

/** No insulation anywhere, single glazing, an old non-condensing gas boiler, no ventilation system, no PV. */
function unrenovated(c: CertificateCell): PropertyDescription {
  const p: PropertyDescription = {
    year_built: c.median_year,
    estate_format: FORMAT[c.form as keyof typeof FORMAT],
    habitable_space_m2: c.median_area_m2,
    zip_code: c.postal_code,
    country: 'BE',
    outer_wall_insulation_type: 'NONE',
    has_cavity_wall_insulation: false,
    window_glazing_type: 'SINGLE_GLAZING',
    heating_type: 'GAS',
    heating_device: 'NON_CONDENSING_BOILER',
    installation_age: 'OLDER_THAN_TEN_YEARS',
    sanitary_heating_device: 'NOT_SEPARATED',
    ventilation_type: 'NONE',
    has_solar_panels: false,
    has_solar_boiler: false,
  };
  if (c.form === 'APARTMENT') return { ...p, estate_type: 'APARTMENT' };
  return {
    ...p,
    roof_type: 'INCLINED',
    inclined_roof_insulation_type: 'NONE',
    basement_type: 'NONE',
    solid_ground_floor_insulation_type: 'NONE',
  };
}

describe('with every element described, the score is physics alone', () => {
  it('the stock learned from certificates changes nothing, whatever its level', () => {
    // Houses: roof, walls, floor, windows and systems all described (a flat's roof and floor are the building's).
    for (const c of cells.filter((c, i) => c.form !== 'APARTMENT' && i % 3 === 0)) {
      const p = unrenovated(c);
      const at = (forcedLevel: number) => evaluate(p, { parameters: { stock: {}, forcedLevel } }).epc_score;
      expect(at(-1), `${c.region} ${c.form} ${c.age_band}`).toBeCloseTo(at(3), 9);
      expect(at(0)).toBeCloseTo(evaluate(p).epc_score, 9);
    }
  });
});

/**
 * Cells whose described unrenovated home still scores under the median (inside its 95 % interval): Brussels'
 * pre-1945 terraced houses, 306 against 309.5 (1 %), a large (260 m2) two-facade house whose compact envelope
 * the model credits more than the certificates do. To be closed in the model, not in this test.
 */
const KNOWN_BELOW_MEDIAN = new Set(['BRUSSELS HOUSE_2 <=1945']);

describe('a home described as unrenovated scores at or above the median certificate of its cell', () => {
  it('the table covers every region, form and age band with enough certificates', () => {
    expect(new Set(cells.map((c) => c.region))).toEqual(new Set(['FLANDERS', 'BRUSSELS', 'WALLONIA']));
    expect(cells.length).toBeGreaterThanOrEqual(50);
    for (const c of cells) expect(c.median_ci95[0]).toBeLessThanOrEqual(c.median_score);
  });

  for (const c of cells) {
    const cell = `${c.region} ${c.form} ${c.age_band}`;
    it(`${cell} (n ${c.n}, median ${c.median_score})`, () => {
      const e = evaluate(unrenovated(c));
      if (KNOWN_BELOW_MEDIAN.has(cell)) {
        // A known gap, named: still inside the median's 95 % interval, and listed only while it is below the median.
        expect(e.epc_score, `scored ${e.epc_score.toFixed(0)}`).toBeGreaterThanOrEqual(c.median_ci95[0]);
        expect(e.epc_score, `${cell} now reaches its median: remove it from KNOWN_BELOW_MEDIAN`).toBeLessThan(c.median_score);
        return;
      }
      // At or above the median certificate of its cell: the median includes renovated homes, a bare home is worse.
      expect(e.epc_score, `scored ${e.epc_score.toFixed(0)}`).toBeGreaterThanOrEqual(c.median_score);
      // Every input was described: the stock's knowledge filled nothing.
      expect(e.data_quality.sources.outer_wall_insulation_type).toBe('INPUT');
    });
  }
});
