import type { Country, EnergyEfficiencyType, Region } from '@renopath/contracts';
import { labels } from './data.ts';

const NL_POSTCODE = /^[1-9][0-9]{3} ?[A-Za-z]{2}$/;
const FOUR_DIGITS = /^[0-9]{4}$/;

/**
 * True when zip_code is a postal code of the country (BE: 4 digits 1000-9999; NL: 4 digits + 2 letters,
 * optional space). `numericNl`: a Dutch code written with its four digits only (`3731`, common in
 * portfolio data) is enough too: the digits alone place the home in the Netherlands, which is all the
 * energy model needs. An address keeps the full form.
 */
export function isPostalCodeOf(zip: string, country: Country, options: { numericNl?: boolean } = {}): boolean {
  const z = zip.trim();
  if (country === 'NL') return NL_POSTCODE.test(z) || (options.numericNl === true && FOUR_DIGITS.test(z) && Number(z) >= 1000);
  return FOUR_DIGITS.test(z) && Number(z) >= 1000;
}

/**
 * The region of a postal code. A Dutch `1234 AB` code is NETHERLANDS; a Belgian 4-digit code maps by range
 * (data/labels.json). With country NL a bare 4-digit code (the numeric part of a Dutch postcode) is accepted
 * too. Returns null when the code is not recognised or contradicts the country.
 */
export function detectRegion(zip: string, country?: Country): Region | null {
  const z = zip.trim();
  if (NL_POSTCODE.test(z)) return country === 'BE' ? null : 'NETHERLANDS';
  if (!FOUR_DIGITS.test(z)) return null;
  const n = Number(z);
  if (country === 'NL') return n >= 1000 ? 'NETHERLANDS' : null;
  for (const r of labels.regions.BE) if (n >= r.from && n <= r.to) return r.region;
  return null;
}

export function scaleOfRegion(region: Region): EnergyEfficiencyType {
  return labels.regions.scale_of_region[region];
}
