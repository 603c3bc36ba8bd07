import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { MEASURES_FOR_PLANNER, MissingQuantityInputError, applyEffect, canPlan, quantityFor } from './index.ts';
import { DATA } from './data.ts';

const HOUSE: PropertyDescription = {
  year_built: 1965,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  zip_code: '9000',
  country: 'BE',
  roof_type: 'INCLINED',
  inclined_roof_insulation_type: 'NONE',
  outer_wall_insulation_type: 'NONE',
  window_glazing_type: 'DOUBLE_GLAZING',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
  installation_age: 'OLDER_THAN_TEN_YEARS',
  has_cavity_wall: true,
  cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
  ventilation_type: 'NONE',
};

describe('energy effects', () => {
  it('fills a cavity without calling it MODERATE wall insulation (the model computes a filled cavity)', () => {
    const after = applyEffect('CAVITY_WALL_INSULATION', HOUSE, 80);
    expect(after.has_cavity_wall_insulation).toBe(true);
    expect(after.outer_wall_insulation_type).toBe('NONE');
  });

  it('tells glass-only replacement from new windows: only new windows renew the frames', () => {
    const glassOnly = applyEffect('GLAZING_REPLACEMENT_HR', HOUSE, 20);
    expect(glassOnly.window_glazing_type).toBe('HR');
    expect(glassOnly.has_renewed_window_frames).toBeUndefined();
    for (const type of ['WINDOW_REPLACEMENT_PVC_HR', 'WINDOW_REPLACEMENT_WOOD_HR', 'WINDOW_REPLACEMENT_ALUMINIUM_HR']) {
      expect(applyEffect(type, HOUSE, 20), type).toMatchObject({ window_glazing_type: 'HR', has_renewed_window_frames: true });
    }
    expect(applyEffect('WINDOW_REPLACEMENT_PVC_TRIPLE', HOUSE, 20)).toMatchObject({
      window_glazing_type: 'TRIPLE_GLAZING',
      has_renewed_window_frames: true,
    });
    // New glass in frames renewed earlier keeps the frames' state.
    expect(applyEffect('GLAZING_REPLACEMENT_HR', { ...HOUSE, has_renewed_window_frames: true }, 20).has_renewed_window_frames).toBe(true);
  });

  it('makes the home airtight to V50_AFTER_AIRTIGHTNESS_WORKS (4 m3/h.m2), never leakier than measured', () => {
    expect(applyEffect('AIRTIGHTNESS_IMPROVEMENT', HOUSE, 1).air_tightness_v50).toBe(4);
    expect(applyEffect('AIRTIGHTNESS_IMPROVEMENT', { ...HOUSE, air_tightness_v50: 11 }, 1).air_tightness_v50).toBe(4);
    expect(applyEffect('AIRTIGHTNESS_IMPROVEMENT', { ...HOUSE, air_tightness_v50: 2.5 }, 1).air_tightness_v50).toBe(2.5);
  });

  it('sets the heat emitters only where the measure brings them', () => {
    expect(applyEffect('HEAT_PUMP_AIR_AIR', HOUSE, 1).heat_emitter_type).toBe('AIR');
    // A water-based heat pump keeps the existing emitters; low-temperature radiators are their own item.
    expect(applyEffect('HEAT_PUMP_AIR_WATER', { ...HOUSE, heat_emitter_type: 'RADIATORS' }, 1).heat_emitter_type).toBe('RADIATORS');
    expect(applyEffect('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', HOUSE, 140).heat_emitter_type).toBe('LOW_TEMPERATURE_RADIATORS');
  });

  it('switches to an air-water heat pump', () => {
    const after = applyEffect('HEAT_PUMP_AIR_WATER', HOUSE, 1);
    expect(after).toMatchObject({
      heating_type: 'HEAT_PUMP',
      heating_device: 'AIR_WATER_HEAT_PUMP',
      installation_age: 'ZERO_TO_FIVE_YEARS_OLD',
    });
    expect(after.eco_facilities).toEqual(['HEAT_PUMP']);
  });

  it('keeps the gas carrier with a hybrid', () => {
    expect(applyEffect('HEAT_PUMP_HYBRID', HOUSE, 1)).toMatchObject({ heating_type: 'GAS', heating_device: 'HYBRID_HEAT_PUMP' });
    const unknownCarrier: PropertyDescription = { ...HOUSE, heating_type: undefined };
    expect(applyEffect('HEAT_PUMP_HYBRID', unknownCarrier, 1).heating_type).toBe('GAS');
  });

  it('adds the PV quantity to the installed kWp', () => {
    expect(applyEffect('SOLAR_PANELS', { ...HOUSE, solar_panels_kwp: 2.5 }, 4.2).solar_panels_kwp).toBe(6.7);
    expect(applyEffect('SOLAR_PANELS', HOUSE, 4).eco_facilities).toEqual(['SOLAR_PANELS']);
  });

  it('never lowers an insulation, glazing or ventilation level and leaves the input untouched', () => {
    const strong = {
      ...HOUSE,
      outer_wall_insulation_type: 'STRONG' as const,
      window_glazing_type: 'TRIPLE_GLAZING' as const,
      ventilation_type: 'SYSTEM_D' as const,
    };
    expect(applyEffect('INTERIOR_WALL_INSULATION', strong, 50).outer_wall_insulation_type).toBe('STRONG');
    expect(applyEffect('GLAZING_REPLACEMENT_HR', strong, 20).window_glazing_type).toBe('TRIPLE_GLAZING');
    expect(applyEffect('VENTILATION_SYSTEM_C', strong, 1).ventilation_type).toBe('SYSTEM_D');
    const copy = structuredClone(HOUSE);
    applyEffect('EXTERIOR_WALL_INSULATION', HOUSE, 100);
    expect(HOUSE).toEqual(copy);
  });
});

describe('quantities', () => {
  it('follows the estate surfaces', () => {
    // outer_wall_surface is already the opaque wall: the windows are not subtracted again.
    expect(quantityFor('EXTERIOR_WALL_INSULATION', { outer_wall_surface: 120, window_glazing_surface: 30 })).toBe(120);
    expect(quantityFor('EXTERIOR_WALL_INSULATION', { outer_wall_surface: 120, count: 2 })).toBe(240);
    expect(quantityFor('WINDOW_REPLACEMENT_PVC_HR', { window_glazing_surface: 24 })).toBe(24);
    expect(quantityFor('INCLINED_ROOF_INSULATION_INSIDE', { inclined_roof_pane_surface: 95 })).toBe(95);
    expect(quantityFor('FLAT_ROOF_INSULATION', { roof_surface: 60 })).toBe(60);
    expect(quantityFor('BASEMENT_CEILING_INSULATION', { habitable_space_m2: 140, number_of_floors: 2 })).toBe(70);
    expect(quantityFor('FLOORING_TILES', { room_surface: 16, count: 2 })).toBe(32);
    expect(quantityFor('HEAT_PUMP_AIR_WATER', {})).toBe(1);
    expect(quantityFor('INTERIOR_DOORS', { count: 5 })).toBe(5);
    expect(quantityFor('AIRTIGHTNESS_IMPROVEMENT', {})).toBe(1);
  });

  it('derives room walls, gutters and PV from the figures in quantity-rules.json', () => {
    // 16 m2 room: perimeter 16 m x 2.6 m (ROOM_STOREY_HEIGHT_M) x 0.85 (ROOM_WALL_OPENINGS_SHARE).
    expect(quantityFor('WALL_PAINTING', { room_surface: 16 })).toBe(35.36);
    expect(quantityFor('HANGING_GUTTER_PLASTIC', { building_width: 7 })).toBe(14); // GUTTER_SIDES 2
    // 80 m2 x 0.4 (PV_USABLE_SHARE_INCLINED) / 4.5 m2 per kWp (PV_M2_PER_KWP) = 7.1 kWp.
    expect(quantityFor('SOLAR_PANELS', { inclined_roof_pane_surface: 80 })).toBe(7.1);
    expect(quantityFor('SOLAR_PANELS', { inclined_roof_pane_surface: 400 })).toBe(10); // PV_MAX_KWP
    expect(quantityFor('SOLAR_PANELS', { roof_type: 'FLAT', flat_roof_pane_surface: 90 })).toBe(10);
  });

  it('names the missing input', () => {
    expect(() => quantityFor('EXTERIOR_WALL_INSULATION', {})).toThrow(MissingQuantityInputError);
    expect(() => quantityFor('FLOORING_TILES', {})).toThrow(/room_surface/);
  });
});

describe('planner measures and prerequisites', () => {
  it('lists envelope, systems, PV, solar boiler and ventilation', () => {
    const types = MEASURES_FOR_PLANNER.map((m) => m.renovation_component_type);
    expect(types).toEqual(
      expect.arrayContaining([
        'CAVITY_WALL_INSULATION',
        'EXTERIOR_WALL_INSULATION',
        'INCLINED_ROOF_INSULATION_INSIDE',
        'FLAT_ROOF_INSULATION',
        'WINDOW_REPLACEMENT_PVC_HR',
        'BASEMENT_CEILING_INSULATION',
        'HEAT_PUMP_AIR_WATER',
        'HEAT_PUMP_HYBRID',
        'SOLAR_PANELS',
        'SOLAR_BOILER',
        'VENTILATION_SYSTEM_D',
      ]),
    );
    expect(types).not.toContain('KITCHEN');
  });

  it('allows cavity fill only into an empty cavity of at least 5 cm', () => {
    expect(canPlan('CAVITY_WALL_INSULATION', HOUSE, []).ok).toBe(true);
    expect(canPlan('CAVITY_WALL_INSULATION', { ...HOUSE, cavity_wall_width: 'LESS_THAN_5_CM' }, []).ok).toBe(false);
    expect(canPlan('CAVITY_WALL_INSULATION', { ...HOUSE, cavity_wall_width: undefined }, []).ok).toBe(false);
    expect(canPlan('CAVITY_WALL_INSULATION', { ...HOUSE, has_cavity_wall_insulation: true }, []).ok).toBe(false);
  });

  it('puts an all-electric heat pump after the envelope, a hybrid any time', () => {
    const blocked = canPlan('HEAT_PUMP_AIR_WATER', HOUSE, []);
    expect(blocked.ok).toBe(false);
    expect(blocked.reasons.join(' ')).toMatch(/envelope/);
    expect(canPlan('HEAT_PUMP_HYBRID', HOUSE, []).ok).toBe(true);
    expect(canPlan('HEAT_PUMP_AIR_WATER', HOUSE, ['INCLINED_ROOF_INSULATION_INSIDE']).ok).toBe(true);
    const insulated = { ...HOUSE, inclined_roof_insulation_type: 'STRONG' as const, window_glazing_type: 'HR' as const };
    expect(canPlan('HEAT_PUMP_AIR_WATER', insulated, []).ok).toBe(true);
  });

  it('puts ventilation D after airtightness works unless a measured v50 is already low (PREREQ_AIRTIGHTNESS_BEFORE_VENTILATION_D)', () => {
    expect(canPlan('VENTILATION_SYSTEM_D', HOUSE, []).ok).toBe(false);
    // New windows alone do not make the envelope airtight.
    expect(canPlan('VENTILATION_SYSTEM_D', HOUSE, ['WINDOW_REPLACEMENT_PVC_HR']).ok).toBe(false);
    expect(canPlan('VENTILATION_SYSTEM_D', HOUSE, ['AIRTIGHTNESS_IMPROVEMENT']).ok).toBe(true);
    expect(canPlan('VENTILATION_SYSTEM_D', { ...HOUSE, air_tightness_v50: 6 }, []).ok).toBe(true);
    expect(canPlan('VENTILATION_SYSTEM_D', { ...HOUSE, air_tightness_v50: 9 }, []).ok).toBe(false);
    // The airtightness works themselves deliver a v50 that satisfies the rule.
    const tightened = applyEffect('AIRTIGHTNESS_IMPROVEMENT', HOUSE, 1);
    expect(canPlan('VENTILATION_SYSTEM_D', tightened, []).ok).toBe(true);
  });

  it('counts a filled cavity towards the envelope a heat pump needs (PREREQ_ENVELOPE_BEFORE_HEAT_PUMP)', () => {
    const filled = applyEffect('CAVITY_WALL_INSULATION', { ...HOUSE, window_glazing_type: 'HR' }, 80);
    expect(canPlan('HEAT_PUMP_AIR_WATER', filled, []).ok).toBe(true);
    expect(canPlan('HEAT_PUMP_AIR_WATER', { ...HOUSE, window_glazing_type: 'HR' }, []).ok).toBe(false);
  });

  it('puts low-temperature radiators with a water-based heat pump (PREREQ_HEAT_PUMP_BEFORE_LOW_TEMPERATURE_EMITTERS)', () => {
    expect(canPlan('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', HOUSE, []).ok).toBe(false);
    expect(canPlan('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', HOUSE, ['HEAT_PUMP_HYBRID']).ok).toBe(true);
    expect(canPlan('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', HOUSE, ['HEAT_PUMP_AIR_AIR']).ok).toBe(false);
    expect(canPlan('LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', { ...HOUSE, heating_type: 'HEAT_PUMP' }, []).ok).toBe(true);
  });

  it('never proposes a gas condensing boiler, which stays an item a client may add', () => {
    const types = MEASURES_FOR_PLANNER.map((m) => m.renovation_component_type);
    expect(types).not.toContain('CONDENSING_BOILER');
    expect(types).toEqual(
      expect.arrayContaining(['AIRTIGHTNESS_IMPROVEMENT', 'LOW_TEMPERATURE_RADIATORS_WHOLE_HOME', 'GLAZING_REPLACEMENT_HR']),
    );
    expect(applyEffect('CONDENSING_BOILER', HOUSE, 1)).toMatchObject({ heating_type: 'GAS', heating_device: 'CONDENSING_BOILER' });
  });

  it('takes every order prerequisite from data/prerequisites.json', () => {
    for (const row of DATA.prerequisites.rows) {
      for (const type of row.measures) {
        const m = MEASURES_FOR_PLANNER.find((x) => x.renovation_component_type === type);
        expect(m, `${row.id} -> ${type}`).toBeDefined();
        expect(
          m!.requirements.some((r) => r.reason === row.reason && r.after_any === row.after_any),
          `${row.id} -> ${type}`,
        ).toBe(true);
      }
    }
  });

  it('puts PV after the heating decision', () => {
    expect(canPlan('SOLAR_PANELS', HOUSE, []).ok).toBe(false);
    expect(canPlan('SOLAR_PANELS', HOUSE, ['HEAT_PUMP_HYBRID']).ok).toBe(true);
    expect(canPlan('SOLAR_PANELS', { ...HOUSE, heating_device: 'CONDENSING_BOILER' }, []).ok).toBe(true);
  });

  it('matches roof insulation to the roof type, and never repeats or doubles a measure', () => {
    expect(canPlan('FLAT_ROOF_INSULATION', HOUSE, []).ok).toBe(false);
    expect(canPlan('INCLINED_ROOF_INSULATION_INSIDE', { ...HOUSE, roof_type: 'FLAT' }, []).ok).toBe(false);
    expect(canPlan('CAVITY_WALL_INSULATION', HOUSE, ['CAVITY_WALL_INSULATION']).ok).toBe(false);
    expect(canPlan('INCLINED_ROOF_INSULATION_OUTSIDE', HOUSE, ['INCLINED_ROOF_INSULATION_INSIDE']).ok).toBe(false);
    expect(canPlan('HEAT_PUMP_HYBRID', HOUSE, ['HEAT_PUMP_GEOTHERMAL']).ok).toBe(false);
  });
});
