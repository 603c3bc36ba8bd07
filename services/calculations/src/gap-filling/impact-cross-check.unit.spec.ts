import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import rules from './data/gap-filling.json' with { type: 'json' };
import { fillGaps } from './fill-gaps.ts';
import { compareImpact, crossCheckImpact } from './impact-cross-check.ts';
import type { EnergyEfficiencyProvider, GeometryProvider, ImpactEstimate, ProviderAnswer } from './providers.ts';

const home: PropertyDescription = {
  year_built: 1975,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 100,
  zip_code: '9000',
  country: 'BE',
  street: 'Veldstraat',
  house_number: '12',
};
const renovated: PropertyDescription = { ...home, outer_wall_insulation_type: 'STRONG' };
const model = { score_before: 400, score_after: 200 };
const impact = (score_after: number): ImpactEstimate => ({ score_before: 400, score_after, energy_efficiency_type: 'EPC_FLANDERS' });
const energyAnswering = (answer: ProviderAnswer<ImpactEstimate>): EnergyEfficiencyProvider => ({
  estimateScore: async () => ({ status: 'NO_DATA', reason: 'unused' }),
  estimateImpact: async () => answer,
});

describe('the renovation impact cross-check (data/gap-filling.json impact_cross_check)', () => {
  it('agrees inside the ratio band and flags outside it', () => {
    const { ratio_min, ratio_max } = rules.impact_cross_check;
    expect(compareImpact(model, impact(400 - 200 * ratio_min))).toBeNull();
    expect(compareImpact(model, impact(400 - 200 * ratio_max))).toBeNull();
    expect(compareImpact(model, impact(400 - 200 * ratio_min * 0.9))?.code).toBe('PROVIDER_IMPACT_MISMATCH');
    expect(compareImpact(model, impact(400 - 200 * ratio_max * 1.1))?.code).toBe('PROVIDER_IMPACT_MISMATCH');
    // The provider expects the score to get worse.
    expect(compareImpact(model, impact(450))?.code).toBe('PROVIDER_IMPACT_MISMATCH');
  });

  it('flags only; an unavailable provider or another scale leaves the result unchecked', async () => {
    const input = { property: home, renovated, model, scale: 'EPC_FLANDERS' as const };
    expect(await crossCheckImpact(energyAnswering({ status: 'OK', data: impact(180) }), input)).toEqual({
      flags: [],
      used: 'OK',
      provider: impact(180),
    });
    expect((await crossCheckImpact(energyAnswering({ status: 'OK', data: impact(390) }), input)).flags.map((f) => f.code)).toEqual([
      'PROVIDER_IMPACT_MISMATCH',
    ]);
    expect((await crossCheckImpact(energyAnswering({ status: 'UNAVAILABLE', reason: 'down' }), input)).flags.map((f) => f.code)).toEqual([
      'PROVIDER_UNAVAILABLE',
    ]);
    expect(
      (await crossCheckImpact(energyAnswering({ status: 'OK', data: { ...impact(180), energy_efficiency_type: 'EPC_WALLONIA' } }), input))
        .used,
    ).toBe('NO_DATA');
    expect(await crossCheckImpact(undefined, input)).toEqual({ flags: [], used: 'NOT_CONFIGURED', provider: null });
  });
});

describe('fillGaps keeps measured values within the 422 rules', () => {
  it('drops a LiDAR roof surface the rules would reject and keeps the rest', async () => {
    const lidar: GeometryProvider = {
      measure: async () => ({
        status: 'OK',
        data: { building_width: 8, building_depth: 10, inclined_roof_pane_surface: 5000, flat_roof_pane_surface: 0 },
      }),
    };
    const result = await fillGaps(home, {}, { geometry: lidar });
    expect(result.property.inclined_roof_pane_surface).toBeUndefined();
    expect(result.property).toMatchObject({ building_width: 8, building_depth: 10 });
    expect(result.flags.map((f) => [f.field, f.code])).toEqual([['inclined_roof_pane_surface', 'PROVIDER_VALUE_REJECTED']]);
  });

  it('without street and house number there is no lookup', async () => {
    let asked = 0;
    const lidar: GeometryProvider = {
      measure: async () => {
        asked++;
        return { status: 'NO_DATA', reason: 'x' };
      },
    };
    const { street: _s, house_number: _h, ...anonymous } = home;
    const result = await fillGaps(anonymous, {}, { geometry: lidar });
    expect(asked).toBe(0);
    expect(result.used.geometry).toBe('NO_DATA');
    expect(result.flags.map((f) => f.code)).toEqual(['PROVIDER_NO_DATA']);
  });
});
