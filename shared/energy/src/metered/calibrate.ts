/**
 * Calibration on the household's metered use (docs/domain.md "Metered use and the money per step"):
 * the home's heating use in a normal weather year, by a degree-day regression on twelve or more months
 * (slope and baseload) or from a yearly figure set against the normal year, and the heat-loss
 * coefficient that use implies. The coefficient is the model's scaled by metered over modelled heating:
 * the textbook conversion (slope x efficiency / 24 h) needs the home's balance temperature, which hides
 * its gains and the household's habits, and lands on another scale than the model's design heat load;
 * scaled, the coefficient sizes a heat pump on the same scale as the model does. The asset rating (the
 * EPC score) is never touched: what changes is the bill, the savings counted against it, and the heat
 * pump's size.
 */
import type { MeteredUse, Region } from '@renopath/contracts';
import { climate } from '../model/data.ts';
import { deliveredEnergy } from '../model/energy.ts';
import type { Carrier, Evaluation } from '../model/types.ts';
import { CARRIERS } from '../model/types.ts';
import { daysIn, meteredFigures, normals, normalDegreeDays, normalYearDegreeDays, NORMAL_YEAR_DAYS, stationOf } from './data.ts';
import { fitDegreeDays, tQuantile, type MonthPoint } from './regression.ts';

export type MeteredCarrier = 'GAS' | 'FUEL_OIL' | 'PELLET_FUEL' | 'ELECTRICITY';
const METERED: readonly MeteredCarrier[] = ['GAS', 'FUEL_OIL', 'PELLET_FUEL', 'ELECTRICITY'];

/** What the energy model says about the described home, for calibrating it. */
export interface HomeModel {
  region: Region;
  /** The carrier most of the space heating burns. */
  carrier: MeteredCarrier;
  /** The carrier's yearly use the model expects (the bill's basis), kWh. */
  modelled_kwh_year: number;
  /** Of it, the part that does not follow the weather (hot water, auxiliaries; appliances for electricity). */
  baseload_kwh_year: number;
  /** The model's heat-loss coefficient, transmission plus ventilation (W/K). */
  heat_loss_w_per_k: number;
}

/**
 * The calibration's view of an evaluated home, or null when its heat comes from a carrier the meter
 * fields do not cover (district heat, propane, wood). `household_electricity_kwh` is the appliances'
 * use, which an electricity meter also counts.
 */
export function homeModelOf(e: Evaluation, household_electricity_kwh: number): HomeModel | null {
  const stock = {
    condensingShare: e.stock.condensing_share,
    heatPumpShare: e.stock.heat_pump_share,
    heatRecoveryShare: e.stock.heat_recovery_share,
  };
  const base = deliveredEnergy(e.assumed, e.country, 0, e.hot_water_need_kwh_per_year, stock).byCarrier;
  const heating = {} as Record<Carrier, number>;
  for (const c of CARRIERS) heating[c] = Math.max(0, e.expected_use_kwh_per_year[c] - base[c]);
  const carrier = CARRIERS.reduce((a, b) => (heating[b] > heating[a] ? b : a), 'GAS' as Carrier);
  if (!(METERED as readonly Carrier[]).includes(carrier) || heating[carrier] <= 0) return null;
  const appliances = carrier === 'ELECTRICITY' ? household_electricity_kwh : 0;
  return {
    region: e.region,
    carrier: carrier as MeteredCarrier,
    modelled_kwh_year: e.expected_use_kwh_per_year[carrier] + appliances,
    baseload_kwh_year: base[carrier] + appliances,
    heat_loss_w_per_k: e.heat_loss.h_transmission_w_per_k + e.heat_loss.h_ventilation_w_per_k,
  };
}

export interface CalibrationFit {
  method: 'MONTHLY' | 'ANNUAL';
  carrier: MeteredCarrier;
  heat_loss_w_per_k: number;
  heat_loss_low_w_per_k: number;
  heat_loss_high_w_per_k: number;
  baseload_kwh_year: number;
  /** The carrier's use in a normal year: baseload plus heating. */
  metered_kwh_year: number;
  /** Its weather-dependent part in a normal year, with the 80% interval. */
  heating_kwh_year: number;
  heating_low_kwh_year: number;
  heating_high_kwh_year: number;
  modelled_kwh_year: number;
  modelled_heating_kwh_year: number;
  ratio: number;
  climate: string;
  /** What the fit had to assume (a floored heating share, a carrier read from the yearly figure). */
  notes: string[];
}

/** The yearly reading of a carrier in kWh, or null when the request gives none. */
export function annualKwh(m: MeteredUse, carrier: MeteredCarrier): number | null {
  const k = meteredFigures.kwh_per_unit;
  switch (carrier) {
    case 'GAS':
      return m.gas_kwh ?? (m.gas_m3 !== undefined ? m.gas_m3 * k.gas_m3 : null);
    case 'FUEL_OIL':
      return m.fuel_oil_litres !== undefined ? m.fuel_oil_litres * k.fuel_oil_litres : null;
    case 'PELLET_FUEL':
      return m.pellets_kg !== undefined ? m.pellets_kg * k.pellets_kg : null;
    case 'ELECTRICITY':
      return m.electricity_kwh ?? null;
  }
}

function monthlyKwh(row: NonNullable<MeteredUse['monthly']>[number], carrier: MeteredCarrier): number | null {
  if (carrier === 'GAS') return row.gas_kwh ?? null;
  if (carrier === 'ELECTRICITY') return row.electricity_kwh ?? null;
  if (carrier === 'FUEL_OIL')
    return row.fuel_oil_litres !== undefined ? row.fuel_oil_litres * meteredFigures.kwh_per_unit.fuel_oil_litres : null;
  return null;
}

/**
 * The home's heat-loss coefficient from its readings. Twelve months or more of the heating carrier:
 * the degree-day regression, its 80% interval from the slope's standard error (Student's t). A yearly
 * figure: the model's baseload taken off, the rest set against the normal year's degree-days, its
 * interval from the weather year's spread and the baseload's uncertainty. Null when the readings do
 * not cover the carrier the home is heated with.
 */
export function calibrate(m: MeteredUse, home: HomeModel): CalibrationFit | null {
  const station = stationOf(home.region);
  const yearDd = normalYearDegreeDays(station);
  const z = meteredFigures.interval_z_80;
  const modelledHeating = home.modelled_kwh_year - home.baseload_kwh_year;
  // The model's heating per W/K of heat loss in a normal year: metered heating over it is the home's coefficient.
  const toH = (kwhYear: number) => (kwhYear / modelledHeating) * home.heat_loss_w_per_k;
  const common = {
    carrier: home.carrier,
    modelled_kwh_year: home.modelled_kwh_year,
    modelled_heating_kwh_year: modelledHeating,
    climate: station.name,
  };
  const points: MonthPoint[] = [];
  for (const row of m.monthly ?? []) {
    const kwh = monthlyKwh(row, home.carrier);
    if (kwh === null) continue;
    const month = Number(row.month.slice(5, 7));
    const days = daysIn(row.month);
    points.push({ days, degree_days: normalDegreeDays(station, month, days), kwh });
  }
  const fit = points.length >= 12 ? fitDegreeDays(points) : null;
  if (fit && fit.slope_kwh_per_kd > 0) {
    const t = tQuantile(z, fit.df);
    const heating = fit.slope_kwh_per_kd * yearDd;
    const halfWidth = t * fit.slope_se * yearDd;
    const baseload = Math.max(0, fit.baseload_kwh_per_day * NORMAL_YEAR_DAYS);
    return {
      ...common,
      method: 'MONTHLY',
      heat_loss_w_per_k: toH(heating),
      heat_loss_low_w_per_k: toH(Math.max(0, heating - halfWidth)),
      heat_loss_high_w_per_k: toH(heating + halfWidth),
      baseload_kwh_year: baseload,
      metered_kwh_year: baseload + heating,
      heating_kwh_year: heating,
      heating_low_kwh_year: Math.max(0, heating - halfWidth),
      heating_high_kwh_year: heating + halfWidth,
      ratio: (baseload + heating) / home.modelled_kwh_year,
      notes: [],
    };
  }
  const annual = annualKwh(m, home.carrier) ?? (points.length >= 12 ? points.reduce((a, p) => a + p.kwh, 0) * (12 / points.length) : null);
  if (annual === null) return null;
  const notes: string[] = [];
  if (points.length >= 12) notes.push('the monthly readings show no heating slope: their total was fitted as a yearly figure');
  const floor = meteredFigures.min_heating_share * modelledHeating;
  let heating = annual - home.baseload_kwh_year;
  if (heating < floor) {
    notes.push(
      `the yearly figure leaves less than ${Math.round(meteredFigures.min_heating_share * 100)}% of the modelled heating after the modelled hot water and baseload: the fit is floored there`,
    );
    heating = floor;
  }
  const rel = Math.hypot(normals.interannual_cv, (meteredFigures.baseload_relative_uncertainty * home.baseload_kwh_year) / heating);
  const low = heating * Math.max(0, 1 - z * rel);
  const high = heating * (1 + z * rel);
  notes.push('a yearly figure is taken as a normal weather year; the weather of its own year widens the interval');
  return {
    ...common,
    method: 'ANNUAL',
    heat_loss_w_per_k: toH(heating),
    heat_loss_low_w_per_k: toH(low),
    heat_loss_high_w_per_k: toH(high),
    baseload_kwh_year: home.baseload_kwh_year,
    metered_kwh_year: annual,
    heating_kwh_year: heating,
    heating_low_kwh_year: low,
    heating_high_kwh_year: high,
    ratio: annual / home.modelled_kwh_year,
    notes,
  };
}

/** A heat pump's power for a heat-loss coefficient: the steady load at the country's design conditions (EN 12831, data/climate.json design). */
export function heatPumpKw(heatLossWPerK: number, country: 'BE' | 'NL'): number {
  return (heatLossWPerK * (climate.design.indoor_c - climate.design.outdoor_c[country])) / 1000;
}

/**
 * Readings that cannot belong to the described home: a carrier's yearly use over ten times what the
 * model gives it (months are brought to a year). One message per field, naming it; carriers the model
 * does not use are not judged (a gas cooker in an electrically heated home).
 */
export function implausibleMeteredUse(m: MeteredUse, e: Evaluation, household_electricity_kwh: number): string[] {
  const out: string[] = [];
  const max = meteredFigures.max_ratio_to_model;
  const modelled: Record<MeteredCarrier, number> = {
    GAS: e.expected_use_kwh_per_year.GAS,
    FUEL_OIL: e.expected_use_kwh_per_year.FUEL_OIL,
    PELLET_FUEL: e.expected_use_kwh_per_year.PELLET_FUEL,
    ELECTRICITY: e.expected_use_kwh_per_year.ELECTRICITY + household_electricity_kwh,
  };
  const field: Record<MeteredCarrier, string> = {
    GAS: m.gas_m3 !== undefined ? 'gas_m3' : 'gas_kwh',
    FUEL_OIL: 'fuel_oil_litres',
    PELLET_FUEL: 'pellets_kg',
    ELECTRICITY: 'electricity_kwh',
  };
  for (const c of METERED) {
    if (modelled[c] <= 0) continue;
    const yearly = annualKwh(m, c);
    if (yearly !== null && yearly > max * modelled[c])
      out.push(
        `metered_use.${field[c]}: ${Math.round(yearly)} kWh a year is more than ${max} times the ${Math.round(modelled[c])} kWh the described home would use; check the readings and the described home`,
      );
    const rows = (m.monthly ?? []).map((r) => monthlyKwh(r, c)).filter((v): v is number => v !== null);
    if (rows.length > 0) {
      const perYear = (rows.reduce((a, b) => a + b, 0) * 12) / rows.length;
      if (perYear > max * modelled[c])
        out.push(
          `metered_use.monthly: the ${field[c]} readings come to ${Math.round(perYear)} kWh a year, more than ${max} times the ${Math.round(modelled[c])} kWh the described home would use`,
        );
    }
  }
  return out;
}
