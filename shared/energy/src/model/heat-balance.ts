/**
 * Seasonal heat balance, TABULA common method (EN ISO 13790 spirit), docs/domain-sources.md 2.4:
 * transmission with thermal-bridge surcharge and b-factors, ventilation (use + infiltration, heat recovery),
 * solar and internal gains with the gain utilisation factor.
 */
import { climate } from './data.ts';
import type { Element, HeatBalance, HeatLoss, Orientation } from './types.ts';
import { ELEMENTS, ORIENTATIONS } from './types.ts';

const HB = climate.heat_balance;
/** Wh -> kWh over hours of a day: 24 h / 1000. */
const KWH_PER_WATT_DAY = 0.024;
/** Volumetric heat capacity of air, Wh/(m3.K). */
const AIR_HEAT_CAPACITY = 0.34;

export interface BalanceInput {
  /** Reference (habitable) floor area, m2. */
  area: number;
  areas: Record<Element, number>;
  u: Record<Element, number>;
  floorB: number;
  /** Thermal-bridge surcharge on the whole envelope area (W/m2K). */
  duTb: number;
  nInf: number;
  heatRecovery: number;
  g: number;
  orientationShare: Record<Orientation, number>;
  apartment: boolean;
}

export interface Conditions {
  setPoint: number;
  reducedHeating: boolean;
  heatingDays: number;
  meanOutdoor: number;
  solar: Record<Orientation, number>;
}

export function heatLoss(i: BalanceInput): HeatLoss {
  const byElement = {} as Record<Element, number>;
  let ua = 0;
  let envelopeArea = 0;
  for (const e of ELEMENTS) {
    const b = e === 'floor' ? i.floorB : 1;
    byElement[e] = b * i.u[e] * i.areas[e];
    ua += byElement[e];
    envelopeArea += i.areas[e];
  }
  const tb = i.duTb * envelopeArea;
  const airChange = HB.use_air_change_per_h * (1 - i.heatRecovery) + i.nInf;
  return {
    h_transmission_w_per_k: ua + tb,
    h_ventilation_w_per_k: AIR_HEAT_CAPACITY * airChange * HB.room_height_m * i.area,
    h_thermal_bridges_w_per_k: tb,
    by_element_w_per_k: byElement,
    u_values_w_per_m2k: { ...i.u },
  };
}

export function heatBalance(i: BalanceInput, loss: HeatLoss, c: Conditions): HeatBalance {
  const hTr = loss.h_transmission_w_per_k;
  const hVe = loss.h_ventilation_w_per_k;
  const degreeDays = (c.setPoint - c.meanOutdoor) * c.heatingDays;
  let reduction = 1;
  if (c.reducedHeating) {
    const f = i.apartment ? HB.reduced_heating.apartment : HB.reduced_heating.house;
    const htr = hTr / i.area;
    const knot = HB.reduced_heating.no_reduction_at_htr;
    reduction =
      htr < 1
        ? Math.min(1, f.at_htr_1 + ((1 - f.at_htr_1) * (1 - htr)) / (1 - knot))
        : f.at_htr_1 + (f.at_htr_4 - f.at_htr_1) * Math.min(1, (htr - 1) / 3);
  }
  const transmission = KWH_PER_WATT_DAY * degreeDays * reduction * hTr;
  const ventilation = KWH_PER_WATT_DAY * degreeDays * reduction * hVe;
  let solarSum = 0;
  for (const o of ORIENTATIONS) solarSum += i.orientationShare[o] * c.solar[o];
  const solar = HB.shading_vertical * (1 - HB.frame_fraction) * HB.non_perpendicular * i.g * i.areas.window * solarSum;
  const internal = HB.internal_gains_w_per_m2 * KWH_PER_WATT_DAY * c.heatingDays * i.area;
  const losses = transmission + ventilation;
  const gains = solar + internal;
  const tau = (HB.heat_capacity_wh_per_m2k * i.area) / (hTr + hVe);
  const aH = HB.utilisation_a0 + tau / HB.utilisation_tau0_h;
  const gamma = losses > 0 ? gains / losses : Infinity;
  const eta = !Number.isFinite(gamma) ? 0 : Math.abs(gamma - 1) < 1e-9 ? aH / (aH + 1) : (1 - gamma ** aH) / (1 - gamma ** (aH + 1));
  const need = Math.max(0, losses - eta * gains);
  return {
    set_point_c: c.setPoint,
    degree_days_kd: degreeDays,
    reduction_factor: reduction,
    transmission_kwh: transmission,
    ventilation_kwh: ventilation,
    solar_gains_kwh: solar,
    internal_gains_kwh: internal,
    gain_utilisation: eta,
    heating_need_kwh: need,
    heating_need_kwh_per_m2: need / i.area,
  };
}
