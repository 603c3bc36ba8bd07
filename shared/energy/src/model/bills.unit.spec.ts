import { describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { evaluate } from './evaluate.ts';
import { expectedUseShare } from './energy.ts';

// A home's yearly energy cost lands where households' bills land (data/factors.json prices and expected_use).
// The model's cost covers heating, hot water and auxiliaries at variable prices: a household's whole bill
// (appliances, fixed charges) is above it, so the published bills are upper bounds for the model's cost.
const M3 = 9.77; // kWh per m3 of Dutch natural gas at the upper heating value (35.17 MJ/m3)
// CBS, "De energierekening januari 2025": the average household uses 987 m3 of gas and pays 2,065 EUR a year;
// multi-person households in large old detached gas-heated homes pay the most, 3,520 EUR a year on average.
const CBS = { averageGasM3: 987, averageBill: 2065, largeOldDetachedBill: 3520 };
// CREG: the standard profile of a Belgian household heated by gas uses 17,000 kWh a year (since April 2022).
const CREG_GAS_PROFILE_KWH = 17_000;

const nl = (p: Partial<PropertyDescription>): PropertyDescription => ({
  zip_code: '3731',
  country: 'NL',
  estate_format: 'CLOSED',
  habitable_space_m2: 110,
  year_built: 1930,
  ...p,
});

describe('energy costs at current prices (not the 2022-2023 crisis)', () => {
  it('a 1930 Utrecht row house of 110 m2 uses more gas than the average household, and costs less than the costliest group pays in all', () => {
    const e = evaluate(nl({}));
    expect(e.expected_use_kwh_per_year.GAS / M3).toBeGreaterThan(CBS.averageGasM3);
    expect(e.energy_cost_eur_per_year).toBeLessThan(CBS.largeOldDetachedBill);
    // The crisis-era model billed this home 11,171 EUR for 62,426 kWh of gas.
    expect(e.expected_use_kwh_per_year.GAS).toBeLessThan(30_000);
  });

  it('a 2016 Dutch row house of 110 m2 costs less than the average household bill, and far less than the 1930 one', () => {
    const e = evaluate(nl({ year_built: 2016 }));
    expect(e.energy_cost_eur_per_year).toBeLessThan(CBS.averageBill);
    expect(e.energy_cost_eur_per_year).toBeLessThan(0.6 * evaluate(nl({})).energy_cost_eur_per_year);
  });

  it("a partly renovated 1975 Flemish semi-detached house on gas uses within half of CREG's standard household profile", () => {
    const e = evaluate({
      year_built: 1975,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 130,
      zip_code: '2000',
      country: 'BE',
      window_glazing_type: 'DOUBLE_GLAZING',
      inclined_roof_insulation_type: 'LIGHT',
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
    });
    expect(e.expected_use_kwh_per_year.GAS).toBeGreaterThan(0.5 * CREG_GAS_PROFILE_KWH);
    expect(e.expected_use_kwh_per_year.GAS).toBeLessThan(1.5 * CREG_GAS_PROFILE_KWH);
  });

  it("the score stays the certificate's standard use; only the cost follows the expected use, less of it the poorer the home", () => {
    const poor = evaluate(nl({}));
    expect(poor.expected_use_kwh_per_year.GAS).toBeLessThan(poor.delivered_energy_kwh_per_year.GAS);
    expect(expectedUseShare(300)).toBeLessThan(expectedUseShare(150));
    expect(expectedUseShare(150)).toBeLessThan(expectedUseShare(40));
    expect(expectedUseShare(10)).toBeLessThanOrEqual(1);
    // A measure still saves money: insulation lowers both the score and the bill.
    const insulated = evaluate(nl({ outer_wall_insulation_type: 'STRONG' }));
    expect(insulated.energy_cost_eur_per_year).toBeLessThan(poor.energy_cost_eur_per_year);
    expect(insulated.epc_score).toBeLessThan(poor.epc_score);
  });
});
