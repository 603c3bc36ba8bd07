import { describe, expect, it } from 'vitest';
import type { GlazingType, InsulationLevel, PropertyDescription } from '@renopath/contracts';
import { envelope } from './data.ts';
import { evaluate, evaluateVariants, scoreVariant, variantScorer } from './evaluate.ts';

const LEVELS: InsulationLevel[] = ['NONE', 'LIGHT', 'MODERATE', 'STRONG'];
const GLAZING: GlazingType[] = ['SINGLE_GLAZING', 'DOUBLE_GLAZING', 'HR', 'TRIPLE_GLAZING'];

const homes: PropertyDescription[] = [
  { year_built: 1925, estate_format: 'CLOSED', habitable_space_m2: 130, zip_code: '9000', country: 'BE' },
  { year_built: 1965, estate_format: 'SEMI_OPEN', habitable_space_m2: 170, zip_code: '4000', country: 'BE' },
  { year_built: 1985, estate_format: 'OPEN', habitable_space_m2: 220, zip_code: '1050', country: 'BE', basement_type: 'FULL' },
  { year_built: 1998, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '2000', country: 'BE' },
  {
    year_built: 2014,
    estate_format: 'OPEN',
    habitable_space_m2: 200,
    zip_code: '8000',
    country: 'BE',
    heating_device: 'CONDENSING_BOILER',
  },
  { year_built: 1935, estate_format: 'SEMI_OPEN', habitable_space_m2: 110, zip_code: '3731 AB', country: 'NL' },
  { year_built: 1970, estate_format: 'CLOSED', habitable_space_m2: 115, zip_code: '1011 AB', country: 'NL' },
  { year_built: 2000, estate_format: 'OPEN', habitable_space_m2: 190, zip_code: '5611 AB', country: 'NL', basement_type: 'CRAWL_SPACE' },
  { year_built: 1975, estate_format: 'CLOSED', habitable_space_m2: 80, zip_code: '1000', country: 'BE', estate_type: 'APARTMENT' },
];
const label = (p: PropertyDescription) => `${p.country} ${p.year_built} ${p.estate_format} ${p.estate_type ?? 'HOUSE'}`;
const score = (p: PropertyDescription) => evaluate(p).epc_score;
const EPS = 1e-9;

describe('monotonicity: a measure never worsens the score', () => {
  for (const home of homes) {
    it(`insulation levels, ${label(home)}`, () => {
      for (const field of [
        'inclined_roof_insulation_type',
        'outer_wall_insulation_type',
        'solid_ground_floor_insulation_type',
        'floor_above_basement_insulation_type',
      ] as const) {
        if (field === 'floor_above_basement_insulation_type' && home.basement_type === undefined) continue;
        if (field === 'solid_ground_floor_insulation_type' && home.basement_type !== undefined) continue;
        const scores = LEVELS.map((l) => score({ ...home, [field]: l }));
        for (let i = 1; i < scores.length; i++) expect(scores[i]!, `${field} ${LEVELS[i]}`).toBeLessThanOrEqual(scores[i - 1]! + EPS);
        expect(scores[3]!).toBeLessThan(scores[0]!);
      }
    });
    it(`glazing, ${label(home)}`, () => {
      const scores = GLAZING.map((g) => score({ ...home, window_glazing_type: g }));
      for (let i = 1; i < scores.length; i++) expect(scores[i]!, GLAZING[i]).toBeLessThanOrEqual(scores[i - 1]! + EPS);
    });
    it(`cavity fill, ${label(home)}`, () => {
      expect(score({ ...home, has_cavity_wall: true, has_cavity_wall_insulation: true })).toBeLessThanOrEqual(
        score({ ...home, has_cavity_wall: true, has_cavity_wall_insulation: false }) + EPS,
      );
    });
    it(`heat pumps against a boiler, ${label(home)}`, () => {
      for (const boiler of ['NON_CONDENSING_BOILER', 'CONDENSING_BOILER'] as const) {
        const gas = score({ ...home, heating_type: 'GAS', heating_device: boiler });
        for (const hp of ['AIR_WATER_HEAT_PUMP', 'GEOTHERMAL_HEAT_PUMP'] as const) {
          expect(score({ ...home, heating_type: 'HEAT_PUMP', heating_device: hp }), `${hp} vs ${boiler}`).toBeLessThan(gas);
        }
        expect(score({ ...home, heating_type: 'GAS', heating_device: 'HYBRID_HEAT_PUMP' })).toBeLessThan(gas);
      }
    });
    it(`PV and solar boiler, ${label(home)}`, () => {
      const kwp = [0, 2, 4, 8].map((k) => score({ ...home, solar_panels_kwp: k }));
      for (let i = 1; i < kwp.length; i++) expect(kwp[i]!).toBeLessThan(kwp[i - 1]!);
      expect(score({ ...home, has_solar_boiler: true })).toBeLessThan(score({ ...home, has_solar_boiler: false }));
    });
    it(`balanced ventilation with heat recovery, ${label(home)}`, () => {
      expect(score({ ...home, ventilation_type: 'SYSTEM_D' })).toBeLessThanOrEqual(score({ ...home, ventilation_type: 'SYSTEM_A' }) + EPS);
    });
  }

  it('a smaller house with the same specs has a similar score per m2', () => {
    const specs = {
      year_built: 1980,
      estate_format: 'SEMI_OPEN',
      zip_code: '2000',
      country: 'BE',
      outer_wall_insulation_type: 'LIGHT',
      window_glazing_type: 'DOUBLE_GLAZING',
    } as const;
    const big = score({ ...specs, habitable_space_m2: 200 });
    const small = score({ ...specs, habitable_space_m2: 150 });
    expect(small).toBeGreaterThan(big);
    expect(small / big).toBeLessThan(1.25);
    const nl = { ...specs, country: 'NL', zip_code: '3731 AB' } as const;
    expect(score({ ...nl, habitable_space_m2: 150 }) / score({ ...nl, habitable_space_m2: 200 })).toBeLessThan(1.1);
  });
});

describe('calibration to a given score', () => {
  const home: PropertyDescription = {
    year_built: 1962,
    estate_format: 'OPEN',
    habitable_space_m2: 180,
    zip_code: '3000',
    country: 'BE',
    energy_efficiency_score: 480,
  };

  it('the current score equals the given one', () => {
    const e = evaluate(home);
    expect(e.epc_score).toBeCloseTo(480, 9);
    expect(e.epc_label).toBe('E');
    expect(e.calibration?.mode).toBe('RATIO');
    expect(e.calibration?.modelled_score).toBeCloseTo(evaluate({ ...home, energy_efficiency_score: undefined }).epc_score, 9);
  });

  it('a measure moves it by the modelled ratio', () => {
    const patches: Partial<PropertyDescription>[] = [
      { outer_wall_insulation_type: 'STRONG' },
      { window_glazing_type: 'HR' },
      { heating_type: 'HEAT_PUMP', heating_device: 'AIR_WATER_HEAT_PUMP' },
    ];
    const { base, variants } = evaluateVariants(home, patches);
    expect(base.epc_score).toBeCloseTo(480, 9);
    expect(variants).toHaveLength(3);
    variants.forEach((v, i) => {
      const uncalibrated = { ...home, ...patches[i], energy_efficiency_score: undefined } as PropertyDescription;
      const ratio = evaluate(uncalibrated).epc_score / base.modelled_epc_score;
      expect(v.epc_score).toBeCloseTo(480 * ratio, 6);
      expect(v.epc_score).toBeLessThan(480);
    });
  });

  it('PV is credited in absolute kWh, never scaled, and still improves the score', () => {
    const { variants } = evaluateVariants(home, [{ solar_panels_kwp: 4 }]);
    const pvPerM2 = (4 * 900 * 2.5) / 180;
    const factor = evaluate(home).calibration!.factor;
    expect(variants[0]!.epc_score).toBeLessThan(480);
    expect(480 - variants[0]!.epc_score).toBeGreaterThan(pvPerM2 * 0.5);
    expect(factor).toBeGreaterThan(0);
  });

  it('without a given score the variants are the plain model', () => {
    const plain = { ...home, energy_efficiency_score: undefined } as PropertyDescription;
    const { variants } = evaluateVariants(plain, [{ inclined_roof_insulation_type: 'STRONG' }]);
    expect(variants[0]!.epc_score).toBeCloseTo(score({ ...plain, inclined_roof_insulation_type: 'STRONG' }), 9);
    expect(variants[0]!.calibration).toBeNull();
  });

  it('flags a given score far from the model', () => {
    const e = evaluate({ ...home, energy_efficiency_score: 5000 });
    expect(e.epc_score).toBeCloseTo(5000, 6);
    expect(e.data_quality.flags.map((f) => f.code)).toContain('CALIBRATION_FAR_FROM_MODEL');
  });
});

describe("variantScorer (the planner's lean variants)", () => {
  const patches: Partial<PropertyDescription>[] = [
    { outer_wall_insulation_type: 'STRONG' },
    { window_glazing_type: 'TRIPLE_GLAZING', has_renewed_window_frames: true },
    { heating_type: 'HEAT_PUMP', heating_device: 'AIR_WATER_HEAT_PUMP' },
    { solar_panels_kwp: 5, has_solar_panels: true },
    { roof_type: 'FLAT', flat_roof_insulation_type: 'MODERATE' },
  ];
  // With and without a given score: a variant keeps the base's calibration in both.
  for (const home of [...homes, { ...homes[1]!, energy_efficiency_score: 420 }]) {
    it(`gives each variant the figures evaluateVariants gives it, ${label(home)}${home.energy_efficiency_score ? ' with a given score' : ''}`, () => {
      const full = evaluateVariants(home, patches, { sources: { habitable_space_m2: 'LIDAR' } });
      const lean = variantScorer(home, { sources: { habitable_space_m2: 'LIDAR' } });
      expect(lean.base).toEqual(full.base);
      patches.forEach((patch, i) => {
        const v = full.variants[i]!;
        const figures = {
          region: v.region,
          energy_efficiency_type: v.energy_efficiency_type,
          epc_score: v.epc_score,
          epc_label: v.epc_label,
          assumed: v.assumed,
          primary_energy_kwh_per_year: v.primary_energy_kwh_per_year,
          co2_kg_per_year: v.co2_kg_per_year,
          energy_cost_eur_per_year: v.energy_cost_eur_per_year,
          design_heat_load_kw: v.design_heat_load_kw,
        };
        expect(lean.score(patch)).toEqual(figures);
        // One variant alone (a valuation's reached home): the same figures, the same calibration.
        expect(scoreVariant(home, patch, { sources: { habitable_space_m2: 'LIDAR' } })).toEqual(figures);
      });
    });
  }
});

describe('typology defaults, sources and flags', () => {
  const minimal: PropertyDescription = {
    year_built: 1930,
    estate_format: 'CLOSED',
    habitable_space_m2: 120,
    zip_code: '9000',
    country: 'BE',
  };

  it('tags given fields INPUT and filled ones MODEL', () => {
    const e = evaluate({ ...minimal, window_glazing_type: 'DOUBLE_GLAZING' });
    expect(e.data_quality.sources.year_built).toBe('INPUT');
    expect(e.data_quality.sources.window_glazing_type).toBe('INPUT');
    expect(e.data_quality.sources.outer_wall_insulation_type).toBe('MODEL');
    expect(e.data_quality.sources.heating_device).toBe('MODEL');
    expect(e.assumed.outer_wall_insulation_type).toBe('NONE');
    expect(e.assumed.heating_device).toBe('NON_CONDENSING_BOILER');
    expect(e.data_quality.flags.filter((f) => f.code === 'MISSING_INPUT').map((f) => f.field)).toEqual(
      expect.arrayContaining(['heating_type', 'heating_device', 'outer_wall_insulation_type', 'inclined_roof_insulation_type']),
    );
  });

  it('flags a 1930 house with STRONG wall insulation and single glazing as unusual', () => {
    const e = evaluate({ ...minimal, outer_wall_insulation_type: 'STRONG', window_glazing_type: 'SINGLE_GLAZING' });
    const flag = e.data_quality.flags.find((f) => f.code === 'UNUSUAL_COMBINATION');
    expect(flag?.field).toBe('window_glazing_type');
    expect(flag?.message).toContain('1930');
  });

  it('a recent installation is a condensing boiler, an old one loses efficiency', () => {
    expect(evaluate({ ...minimal, installation_age: 'ZERO_TO_FIVE_YEARS_OLD' }).assumed.heating_device).toBe('CONDENSING_BOILER');
    const old = evaluate({ ...minimal, heating_device: 'CONDENSING_BOILER', installation_age: 'OLDER_THAN_TEN_YEARS' });
    const young = evaluate({ ...minimal, heating_device: 'CONDENSING_BOILER', installation_age: 'FIVE_TO_TEN_YEARS_OLD' });
    expect(old.epc_score).toBeGreaterThan(young.epc_score);
  });

  it('a renovation year lifts the roof and glazing defaults', () => {
    const renovated = evaluate({ ...minimal, year_renovated: 2010 });
    expect(renovated.assumed.window_glazing_type).toBe('HR');
    expect(renovated.assumed.inclined_roof_insulation_type).toBe('MODERATE');
    expect(renovated.assumed.outer_wall_insulation_type).toBe('NONE');
    expect(renovated.epc_score).toBeLessThan(evaluate(minimal).epc_score);
  });

  it('eco facilities fill the systems', () => {
    const e = evaluate({ ...minimal, eco_facilities: ['HEAT_PUMP', 'SOLAR_PANELS', 'VENTILATION_D'] });
    expect(e.assumed.heating_device).toBe('AIR_WATER_HEAT_PUMP');
    expect(e.assumed.ventilation_type).toBe('SYSTEM_D');
    expect(e.assumed.solar_panels_kwp).toBeGreaterThan(0);
    expect(e.data_quality.flags.map((f) => f.code)).toContain('ASSUMED_PV_SIZE');
  });

  it('has_solar_panels without a size gets a typical system, tagged MODEL, and credits PV', () => {
    const e = evaluate({ ...minimal, has_solar_panels: true });
    expect(e.assumed.solar_panels_kwp).toBeGreaterThan(2);
    expect(e.data_quality.sources.solar_panels_kwp).toBe('MODEL');
    expect(e.data_quality.sources.has_solar_panels).toBe('INPUT');
    expect(e.epc_score).toBeLessThan(evaluate(minimal).epc_score);
  });

  it('a MIXED roof weighs its inclined and flat parts by their surfaces', () => {
    const mixed = (flat: 'NONE' | 'STRONG') =>
      evaluate({
        ...minimal,
        roof_type: 'MIXED',
        inclined_roof_pane_surface: 60,
        flat_roof_pane_surface: 20,
        inclined_roof_insulation_type: 'NONE',
        flat_roof_insulation_type: flat,
      });
    expect(mixed('NONE').assumed.flat_roof_share).toBeCloseTo(0.25, 9);
    expect(mixed('NONE').geometry.envelope.roof_m2).toBeCloseTo(80, 9);
    expect(mixed('STRONG').heat_loss.by_element_w_per_k.roof).toBeLessThan(mixed('NONE').heat_loss.by_element_w_per_k.roof);
  });

  it('a PARTIAL basement splits the ground floor between its two floor fields', () => {
    const partial = evaluate({
      ...minimal,
      basement_type: 'PARTIAL',
      ground_floor_surface: 80,
      basement_ceiling_surface: 20,
      floor_above_basement_insulation_type: 'STRONG',
      solid_ground_floor_insulation_type: 'NONE',
    });
    expect(partial.assumed.basement_share).toBeCloseTo(0.25, 9);
    expect(partial.geometry.envelope.floor_m2).toBeCloseTo(80, 9);
    const none = evaluate({ ...minimal, basement_type: 'NONE', ground_floor_surface: 80, solid_ground_floor_insulation_type: 'NONE' });
    expect(partial.heat_loss.by_element_w_per_k.floor).toBeLessThan(none.heat_loss.by_element_w_per_k.floor);
  });

  it('an unknown zip code is flagged, not fatal', () => {
    const e = evaluate({ ...minimal, zip_code: 'XX' });
    expect(e.region).toBe('FLANDERS');
    expect(e.data_quality.flags.map((f) => f.code)).toContain('ZIP_CODE_NOT_RECOGNISED');
  });

  it('is deterministic', () => {
    expect(evaluate(minimal)).toEqual(evaluate(minimal));
  });
});

describe('geometry', () => {
  it('OPEN, SEMI_OPEN and CLOSED expose 4, 3 and 2 facades', () => {
    const base = {
      year_built: 1960,
      habitable_space_m2: 150,
      zip_code: '2000',
      country: 'BE',
      building_width: 8,
      building_depth: 10,
      cornice_height: 6,
    } as const;
    const walls = (['OPEN', 'SEMI_OPEN', 'CLOSED'] as const).map((f) => {
      const e = evaluate({ ...base, estate_format: f });
      return e.geometry.envelope.wall_m2 + e.geometry.envelope.window_m2 + e.geometry.envelope.door_m2;
    });
    expect(walls[0]).toBeCloseTo(36 * 6, 6);
    expect(walls[1]).toBeCloseTo(26 * 6, 6);
    expect(walls[2]).toBeCloseTo(16 * 6, 6);
  });

  it("apartments expose fewer elements; one of unknown position carries the building's average roof and floor per m2", () => {
    const flat = { year_built: 1975, estate_format: 'CLOSED', habitable_space_m2: 85, zip_code: '1050', country: 'BE' } as const;
    const apartment = evaluate({ ...flat, estate_type: 'APARTMENT' });
    const house = evaluate(flat);
    const position = envelope.geometry.apartment_unknown_position;
    expect(apartment.geometry.envelope.roof_m2).toBeCloseTo(position.roof_m2_per_m2 * 85, 6);
    expect(apartment.geometry.envelope.floor_m2).toBeCloseTo(position.floor_m2_per_m2 * 85, 6);
    expect(apartment.geometry.exposed.roof).toBe(false);
    expect(apartment.geometry.envelope.total_m2).toBeLessThan(house.geometry.envelope.total_m2);
    expect(apartment.geometry.envelope.roof_m2).toBeLessThan(house.geometry.envelope.roof_m2);
    const penthouse = evaluate({ ...flat, estate_type: 'PENTHOUSE' });
    expect(penthouse.geometry.envelope.roof_m2).toBeGreaterThan(apartment.geometry.envelope.roof_m2);
    expect(penthouse.geometry.envelope.floor_m2).toBe(0);
    const ground = evaluate({ ...flat, estate_type: 'APARTMENT', basement_type: 'FULL' });
    expect(ground.geometry.envelope.floor_m2).toBeGreaterThan(apartment.geometry.envelope.floor_m2);
    expect(ground.geometry.envelope.roof_m2).toBe(0);
  });

  it('the typology proportions follow the habitable space', () => {
    const e = evaluate({ year_built: 1930, estate_format: 'SEMI_OPEN', habitable_space_m2: 201.46, zip_code: '2000', country: 'BE' });
    expect(e.geometry.envelope.roof_m2).toBeCloseTo(117.63, 1);
    expect(e.geometry.envelope.wall_m2).toBeCloseTo(185.4, 1);
  });

  it('a Dutch 1992-2005 semi-detached cell keeps the window of the archetype whose glazing is stated, not their average', () => {
    // The cell averages NL.N.SFH.04.Semi (double, Uw 2.78) and NL.N.TH.04.End (HR, Uw 2.13); the average (2.49) is neither.
    const base = { year_built: 1998, estate_format: 'SEMI_OPEN', habitable_space_m2: 145.2, zip_code: '3731', country: 'NL' } as const;
    const double = evaluate({ ...base, window_glazing_type: 'DOUBLE_GLAZING' }).heating_need_kwh_per_m2;
    const hr = evaluate({ ...base, window_glazing_type: 'HR' }).heating_need_kwh_per_m2;
    expect(double).toBeGreaterThan(hr + 3);
  });
});
