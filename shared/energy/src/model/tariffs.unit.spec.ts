import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { factors } from './data.ts';
import { costOf } from './energy.ts';
import { evaluate } from './evaluate.ts';

/** What a bill counts (docs/domain.md "The planner", 9): storage heaters on the night tariff, PV's own use and export apart. */
const bungalow: PropertyDescription = {
  year_built: 1975,
  estate_format: 'OPEN',
  habitable_space_m2: 110,
  zip_code: '5100',
  country: 'BE',
  heating_type: 'ELECTRIC',
  heating_device: 'DIRECT_ACCUMULATION',
  sanitary_heating_device: 'ELECTRIC_BOILER',
};
const none = { GAS: 0, FUEL_OIL: 0, PROPANE: 0, ELECTRICITY: 0, PELLET_FUEL: 0, WOOD: 0, DISTRICT_HEATING: 0 };

describe('the energy bill', () => {
  it('prices storage heaters on the night tariff: the same use costs less than direct electric heating', () => {
    const storage = evaluate(bungalow);
    const direct = evaluate({ ...bungalow, heating_device: 'DIRECT_ELECTRIC' });
    const perKwh = (e: typeof storage) => e.energy_cost_eur_per_year / e.expected_use_kwh_per_year.ELECTRICITY;
    expect(perKwh(storage)).toBeLessThan(perKwh(direct));
    expect(perKwh(storage)).toBeGreaterThanOrEqual(factors.prices_eur_per_kwh.night_tariff.ELECTRICITY.BE - 1e-9);
  });

  it('values PV on self-consumption at the retail price, never above the own use, and the rest at the feed-in price', () => {
    const p = factors.prices_eur_per_kwh;
    for (const country of ['BE', 'NL'] as const) {
      const use = { ...none, ELECTRICITY: 3000 };
      const saved = costOf(use, 0, country) - costOf(use, 4000, country);
      const own = 4000 * p.pv.self_consumption_share[country];
      expect(saved).toBeCloseTo(own * p[country].ELECTRICITY + (4000 - own) * p.pv.feed_in_eur_per_kwh[country], 6);
      // Panels beyond the home's use only earn the feed-in price.
      const small = { ...none, ELECTRICITY: 100 };
      const savedSmall = costOf(small, 4000, country) - costOf(small, 8000, country);
      expect(savedSmall).toBeCloseTo(4000 * p.pv.feed_in_eur_per_kwh[country], 6);
    }
  });
});
