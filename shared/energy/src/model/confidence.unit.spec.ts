import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { evaluate } from './evaluate.ts';

const required: PropertyDescription = {
  year_built: 1972,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 160,
  zip_code: '2600',
  country: 'BE',
};

const lidarGeometry = { building_width: 8, building_depth: 11, cornice_height: 6.2, inclined_roof_pane_surface: 105 };
const described: PropertyDescription = {
  ...required,
  ...lidarGeometry,
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
  installation_age: 'OLDER_THAN_TEN_YEARS',
  window_glazing_type: 'DOUBLE_GLAZING',
  inclined_roof_insulation_type: 'LIGHT',
  outer_wall_insulation_type: 'NONE',
  solid_ground_floor_insulation_type: 'NONE',
};
const lidar = { building_width: 'LIDAR', building_depth: 'LIDAR', cornice_height: 'LIDAR', inclined_roof_pane_surface: 'LIDAR' } as const;

describe('confidence anchors (docs/domain.md, Confidence; weights in data/confidence.json)', () => {
  it('only the five required fields -> below 0.60, quality D', () => {
    const e = evaluate(required);
    expect(e.confidence_score).toBeLessThan(0.6);
    expect(e.quality_label).toBe('D');
    expect(e.expected_price_error.at_least).toBe(true);
  });

  it('required + LiDAR geometry + heating type/device/age + glazing + roof/wall/floor insulation -> about 0.78', () => {
    const e = evaluate(described, { sources: lidar });
    expect(e.confidence_score).toBeGreaterThan(0.76);
    expect(e.confidence_score).toBeLessThan(0.8);
    expect(e.data_quality.sources.building_width).toBe('LIDAR');
    expect(e.data_quality.sources.heating_device).toBe('INPUT');
  });

  it('everything given plus an EPC score -> at least 0.90, quality A', () => {
    const everything: PropertyDescription = {
      ...described,
      estate_type: 'HOUSE',
      year_renovated: 2005,
      number_of_floors: 2,
      roof_type: 'INCLINED',
      outer_wall_surface: 110,
      has_cavity_wall: true,
      cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
      has_cavity_wall_insulation: false,
      window_glazing_surface: 24,
      basement_type: 'NONE',
      ground_floor_surface: 88,
      ventilation_type: 'SYSTEM_A',
      sanitary_heating_device: 'NOT_SEPARATED',
      has_solar_panels: false,
      solar_panels_kwp: 0,
      has_solar_boiler: false,
      energy_efficiency_score: 420,
    };
    const e = evaluate(everything, { sources: { ...lidar, energy_efficiency_score: 'EPC_DOCUMENT' } });
    expect(e.confidence_score).toBeGreaterThanOrEqual(0.9);
    expect(e.quality_label).toBe('A');
    expect(e.data_quality.sources.energy_efficiency_score).toBe('EPC_DOCUMENT');
  });

  it('every area a typology default caps the grade at C, however much else is described; one measured area lifts the cap', () => {
    const { building_width: _w, building_depth: _d, cornice_height: _c, inclined_roof_pane_surface: _r, ...withoutAreas } = described;
    const noAreas: PropertyDescription = {
      ...withoutAreas,
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      installation_age: 'OLDER_THAN_TEN_YEARS',
      ventilation_type: 'SYSTEM_A',
      energy_efficiency_score: 420,
    };
    const capped = evaluate(noAreas);
    expect(capped.confidence_score).toBeLessThan(0.7);
    expect(capped.quality_label).toBe('C');
    const measured = evaluate({ ...noAreas, ...lidarGeometry }, { sources: lidar });
    expect(measured.confidence_score).toBeGreaterThan(capped.confidence_score);
    expect(['A', 'B']).toContain(measured.quality_label);
  });

  it('a typology default counts less than a LiDAR measurement, which counts less than direct input', () => {
    const model = evaluate(required).confidence_score;
    const measured = evaluate({ ...required, ...lidarGeometry }, { sources: lidar }).confidence_score;
    const input = evaluate({ ...required, ...lidarGeometry }).confidence_score;
    expect(model).toBeLessThan(measured);
    expect(measured).toBeLessThan(input);
  });
});
