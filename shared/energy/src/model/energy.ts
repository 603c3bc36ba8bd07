/** Delivered, primary energy, CO2 and cost from the net needs, through the system efficiencies (DOMAIN-SOURCES 2.3, 2.5-2.8). */
import type { Country } from '@renopath/contracts';
import { factors, systems } from './data.ts';
import type { AssumedProperty, Carrier, PerCarrier } from './types.ts';
import { CARRIERS } from './types.ts';

const SH = systems.space_heating;
const DHW = systems.hot_water;
const LOCAL = new Set(SH.distribution.local_devices);
const BOILERS = new Set(['NON_CONDENSING_BOILER', 'CONDENSING_BOILER', 'PELLET_BOILER']);

const CARRIER_OF_TYPE: Record<string, Carrier> = {
  NATURAL_GAS: 'NATURAL_GAS', FUEL_OIL: 'FUEL_OIL', PROPANE: 'PROPANE', ELECTRIC: 'ELECTRICITY',
  WOOD_PELLETS: 'WOOD_PELLETS', WOOD: 'WOOD', DISTRICT_HEATING: 'DISTRICT_HEATING', NONE: 'ELECTRICITY',
};

export function zeroCarriers(): PerCarrier {
  return { NATURAL_GAS: 0, FUEL_OIL: 0, PROPANE: 0, ELECTRICITY: 0, WOOD_PELLETS: 0, WOOD: 0, DISTRICT_HEATING: 0 };
}

function fuelCarrier(a: AssumedProperty): Carrier {
  switch (a.heating_device) {
    case 'PELLET_BOILER': return 'WOOD_PELLETS';
    case 'DISTRICT_HEATING_SUBSTATION': return 'DISTRICT_HEATING';
    case 'DIRECT_ELECTRIC': case 'DIRECT_ACCUMULATION': return 'ELECTRICITY';
    default: {
      const c = CARRIER_OF_TYPE[a.heating_type] ?? 'NATURAL_GAS';
      // A boiler or stove cannot burn electricity: an inconsistent pair falls back to gas.
      return c === 'ELECTRICITY' ? 'NATURAL_GAS' : c;
    }
  }
}

export interface Delivered {
  /** Delivered energy for space heating, hot water and auxiliaries, per carrier (kWh/yr). */
  byCarrier: PerCarrier;
  pvProduction: number;
}

/**
 * @param heatingNeed net space-heating need under the certificate conditions (kWh/yr)
 * @param hotWaterNeed net hot-water need (kWh/yr)
 */
export function deliveredEnergy(a: AssumedProperty, country: Country, heatingNeed: number, hotWaterNeed: number): Delivered {
  const out = zeroCarriers();
  const device = a.heating_device;
  const gen = SH.generation[device] ?? SH.generation.DIRECT_ELECTRIC!;
  const local = LOCAL.has(device);
  const heat = heatingNeed / (local ? SH.distribution.local : SH.distribution.central);
  const aged = BOILERS.has(device) && a.installation_age !== null && a.installation_age > SH.ageing.boiler_age_years;
  const ageFactor = aged ? SH.ageing.boiler_factor : 1;

  if (device === 'HEAT_PUMP_HYBRID') {
    const share = gen.heat_pump_share ?? 0;
    out.ELECTRICITY += (share * heat) / gen.spf![country];
    out.NATURAL_GAS += ((1 - share) * heat) / (gen.backup_efficiency ?? 1);
  } else if (gen.spf) {
    out.ELECTRICITY += heat / gen.spf[country];
  } else {
    out[fuelCarrier(a)] += heat / ((gen.efficiency ?? 1) * ageFactor);
  }

  // Hot water: solar share first, the rest by the hot-water generator.
  const water = hotWaterNeed * (a.has_solar_boiler ? 1 - DHW.solar_fraction : 1);
  const sanitary = a.sanitary_heating_device;
  const eff = DHW.efficiency;
  if (sanitary === 'GAS_INSTANTANEOUS') out.NATURAL_GAS += water / eff.GAS_INSTANTANEOUS!;
  else if (sanitary === 'ELECTRIC_BOILER') out.ELECTRICITY += water / eff.ELECTRIC_BOILER!;
  else if (sanitary === 'HEAT_PUMP_BOILER') out.ELECTRICITY += water / eff.HEAT_PUMP_BOILER!;
  else if (device === 'HEAT_PUMP_AIR_WATER' || device === 'HEAT_PUMP_GEOTHERMAL') out.ELECTRICITY += water / eff.HEAT_PUMP_WATER!;
  else if (device === 'HEAT_PUMP_HYBRID') out.NATURAL_GAS += water / eff.CONDENSING_BOILER!;
  else if (local) out.ELECTRICITY += water / eff.ELECTRIC_BOILER!;
  else out[fuelCarrier(a)] += water / ((eff[device] ?? eff.CONDENSING_BOILER!) * ageFactor);

  // Auxiliaries: circulator and controls of central systems, ventilation fans.
  if (!local) out.ELECTRICITY += systems.auxiliary.central_heating_kwh;
  out.ELECTRICITY += systems.auxiliary.ventilation_kwh[a.ventilation_type] ?? 0;

  return { byCarrier: out, pvProduction: a.solar_panels_kwp * systems.pv.yield_kwh_per_kwp[country] };
}

export interface Weighted {
  primaryByCarrier: PerCarrier;
  primaryGross: number;
  pvPrimaryCredit: number;
  co2: number;
  cost: number;
}

export function weigh(delivered: PerCarrier, pv: number, country: Country): Weighted {
  const pf = factors.primary_energy[country];
  const co2f = factors.co2_kg_per_kwh[country];
  const price = factors.prices_eur_per_kwh[country];
  const primaryByCarrier = zeroCarriers();
  let primaryGross = 0;
  let co2 = 0;
  let cost = 0;
  for (const c of CARRIERS) {
    const e = delivered[c];
    primaryByCarrier[c] = e * pf[c];
    primaryGross += primaryByCarrier[c];
    co2 += e * co2f[c];
    cost += e * price[c];
  }
  co2 -= pv * co2f.ELECTRICITY;
  cost -= pv * price.ELECTRICITY * factors.prices_eur_per_kwh.pv_value_share;
  return { primaryByCarrier, primaryGross, pvPrimaryCredit: pv * pf.ELECTRICITY, co2, cost };
}

export function hotWaterNeed(area: number, apartment: boolean): number {
  return area * (apartment ? DHW.need_kwh_per_m2.apartment : DHW.need_kwh_per_m2.house);
}
