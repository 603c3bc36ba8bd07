/**
 * The calibration's figures, read once from ../../data (climate-normals.json, metered-use.json; each
 * with its source and year there) and checked against a schema.
 */
import { z } from 'zod';
import type { Region } from '@renopath/contracts';
import normalsJson from '../../data/climate-normals.json' with { type: 'json' };
import meteredJson from '../../data/metered-use.json' with { type: 'json' };

const num = z.number();
const Station = z.object({ name: z.string(), base_c: num, monthly_mean_c: z.array(num).length(12) });
const stationName = z.enum(['UCCLE', 'DE_BILT']);

export const normals = z
  .object({
    interannual_cv: num.positive(),
    stations: z.record(stationName, Station),
    station_of_region: z.object({ FLANDERS: stationName, BRUSSELS: stationName, WALLONIA: stationName, NETHERLANDS: stationName }),
  })
  .parse(normalsJson);

export const meteredFigures = z
  .object({
    kwh_per_unit: z.object({ gas_m3: num.positive(), fuel_oil_litres: num.positive(), pellets_kg: num.positive() }),
    max_ratio_to_model: num.positive(),
    baseload_relative_uncertainty: num.min(0),
    min_heating_share: num.min(0).max(1),
    interval_z_80: num.positive(),
  })
  .parse(meteredJson);

export type Station = z.infer<typeof Station>;

export function stationOf(region: Region): Station {
  return normals.stations[normals.station_of_region[region]]!;
}

const MONTH_DAYS = [31, 28.25, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a calendar month YYYY-MM (February 29 in leap years). */
export function daysIn(month: string): number {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Normal degree-days of calendar month m (1-12) at the station's base, from its normal monthly mean. */
export function normalDegreeDays(station: Station, m: number, days = MONTH_DAYS[m - 1]!): number {
  return days * Math.max(0, station.base_c - station.monthly_mean_c[m - 1]!);
}

/** Normal degree-days of a year (an average year: February of 28.25 days). */
export function normalYearDegreeDays(station: Station): number {
  let sum = 0;
  for (let m = 1; m <= 12; m++) sum += normalDegreeDays(station, m);
  return sum;
}

export const NORMAL_YEAR_DAYS = MONTH_DAYS.reduce((a, b) => a + b, 0);
