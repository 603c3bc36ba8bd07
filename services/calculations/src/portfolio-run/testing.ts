/**
 * Synthetic portfolios for tests and the bench: homes across the four regions, periods, sizes and
 * systems, some with a certificate, each with a mortgage. Deterministic for a given seed.
 */
const ZIPS = ['9000', '2000', '3500', '8400', '1000', '1050', '4000', '5000', '6000', '3731 AB', '1012 AB', '3511 AA'];
const FORMATS = ['OPEN', 'SEMI_OPEN', 'CLOSED'];
const HEATING = ['GAS', 'FUEL_OIL', 'ELECTRIC', 'HEAT_PUMP'];
const GLAZING = ['SINGLE_GLAZING', 'DOUBLE_GLAZING', 'HR', 'DOUBLE_GLAZING'];
const TYPES = ['HOUSE', 'HOUSE', 'APARTMENT', 'VILLA'];

export const SYNTHETIC_COLUMNS = [
  'external_id',
  'country',
  'zip_code',
  'year_built',
  'estate_type',
  'estate_format',
  'habitable_space_m2',
  'window_glazing_type',
  'heating_type',
  'energy_efficiency_score',
  'outstanding_amount',
  'property_value',
] as const;

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** One synthetic row's cells, in SYNTHETIC_COLUMNS order. */
export function syntheticRow(i: number, random: () => number): string[] {
  const zip = ZIPS[Math.floor(random() * ZIPS.length)]!;
  const country = /[A-Z]/.test(zip) ? 'NL' : 'BE';
  const type = TYPES[Math.floor(random() * TYPES.length)]!;
  const value = Math.round(150_000 + random() * 450_000);
  // About one home in five carries its certificate score (Flanders' figures span roughly 0-700 kWh/m2).
  const certified = country === 'BE' && random() < 0.2;
  return [
    `H${String(i).padStart(7, '0')}`,
    country,
    zip,
    String(1900 + Math.floor(random() * 120)),
    type,
    FORMATS[Math.floor(random() * FORMATS.length)]!,
    String(type === 'APARTMENT' ? 50 + Math.floor(random() * 70) : 90 + Math.floor(random() * 160)),
    GLAZING[Math.floor(random() * GLAZING.length)]!,
    HEATING[Math.floor(random() * HEATING.length)]!,
    certified ? String(Math.round(80 + random() * 500)) : '',
    String(Math.round(value * (0.3 + random() * 0.6))),
    String(value),
  ];
}

/** A CSV of `rows` synthetic homes, produced a line at a time (never held whole by the generator). */
export function* syntheticCsv(rows: number, seed = 42, delimiter = ','): Generator<string> {
  const random = rng(seed);
  yield `${SYNTHETIC_COLUMNS.join(delimiter)}\n`;
  for (let i = 1; i <= rows; i++) yield `${syntheticRow(i, random).join(delimiter)}\n`;
}

export const syntheticCsvText = (rows: number, seed = 42, delimiter = ',') => [...syntheticCsv(rows, seed, delimiter)].join('');
