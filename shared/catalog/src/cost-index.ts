import type { Country } from '@renopath/contracts';
import { DATA } from './data.ts';

export const PRICE_LEVEL_YEAR = DATA.unitPrices.price_level_year;

function indexValue(country: Country, year: number): { value: number; assumption?: string } {
  const series = DATA.costIndex.countries.find((c) => c.country === country);
  if (!series) throw new Error(`construction-cost-index.json has no series for ${country}`);
  const rows = [...series.rows].sort((a, b) => a.year - b.year);
  const firstRow = rows[0]!;
  const lastRow = rows[rows.length - 1]!;
  if (year <= firstRow.year) return { value: firstRow.value };
  if (year >= lastRow.year) {
    const years = year - lastRow.year;
    if (years === 0) return { value: lastRow.value };
    return {
      value: lastRow.value * (1 + series.annual_growth_after_last_row) ** years,
      assumption: `Prices for ${year} extrapolated from the ${series.index_name} of ${lastRow.year} at ${(series.annual_growth_after_last_row * 100).toFixed(1)}% a year.`,
    };
  }
  const upper = rows.findIndex((r) => r.year >= year);
  const hi = rows[upper]!;
  const lo = rows[upper - 1]!;
  return { value: lo.value + ((hi.value - lo.value) * (year - lo.year)) / (hi.year - lo.year) };
}

type IndexFactor = Readonly<{ factor: number; assumption?: string }>;
/** Factors already worked out: the series are fixed data, and every price asks for one. */
const FACTORS = new Map<string, IndexFactor>();

/** Multiplier from the catalogue's price level (2025) to `year`, with an assumption when extrapolated. */
export function costIndexFactor(country: Country, year: number): IndexFactor {
  const key = `${country}|${year}`;
  let known = FACTORS.get(key);
  if (!known) {
    const base = indexValue(country, PRICE_LEVEL_YEAR);
    const target = indexValue(country, year);
    known = Object.freeze({ factor: target.value / base.value, ...(target.assumption ? { assumption: target.assumption } : {}) });
    FACTORS.set(key, known);
  }
  return known;
}
