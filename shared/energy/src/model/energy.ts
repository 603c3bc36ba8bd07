/** Delivered, primary energy, CO2 and cost from the net needs, through the system efficiencies (docs/domain-sources.md 2.3, 2.5-2.8). */
import type { Country } from '@renopath/contracts';
import { factors, stock, systems } from './data.ts';
import { interpolate } from './parameters.ts';
import type { AssumedProperty, Carrier, PerCarrier } from './types.ts';
import { CARRIERS } from './types.ts';

const SH = systems.space_heating;
const DHW = systems.hot_water;
const USE_NEED = factors.expected_use.factor_by_heat_need.map(([need]) => need);
const USE_SHARE = factors.expected_use.factor_by_heat_need.map(([, share]) => share);
const LOCAL = new Set(SH.distribution.local_devices);
const BOILERS = new Set(['NON_CONDENSING_BOILER', 'CONDENSING_BOILER', 'PELLET_BOILER']);
const BOILER_KINDS = new Set(['NON_CONDENSING_BOILER', 'CONDENSING_BOILER']);

const CARRIER_OF_TYPE: Record<string, Carrier> = {
  GAS: 'GAS',
  FUEL_OIL: 'FUEL_OIL',
  PROPANE: 'PROPANE',
  ELECTRIC: 'ELECTRICITY',
  HEAT_PUMP: 'ELECTRICITY',
  PELLET_FUEL: 'PELLET_FUEL',
  WOOD: 'WOOD',
  DISTRICT_HEATING: 'DISTRICT_HEATING',
  NONE: 'ELECTRICITY',
};

export function zeroCarriers(): PerCarrier {
  return { GAS: 0, FUEL_OIL: 0, PROPANE: 0, ELECTRICITY: 0, PELLET_FUEL: 0, WOOD: 0, DISTRICT_HEATING: 0 };
}

function fuelCarrier(a: AssumedProperty): Carrier {
  switch (a.heating_device) {
    case 'PELLET_BOILER':
      return 'PELLET_FUEL';
    case 'DISTRICT_HEATING_SUBSTATION':
      return 'DISTRICT_HEATING';
    case 'DIRECT_ELECTRIC':
    case 'DIRECT_ACCUMULATION':
      return 'ELECTRICITY';
    default: {
      const c = CARRIER_OF_TYPE[a.heating_type] ?? 'GAS';
      // A boiler or stove cannot burn electricity: an inconsistent pair falls back to gas.
      return c === 'ELECTRICITY' ? 'GAS' : c;
    }
  }
}

/** The fuel of a hybrid heat pump's boiler: gas unless the home burns propane or oil. */
function hybridBackup(a: AssumedProperty): Carrier {
  return a.heating_type === 'PROPANE' ? 'PROPANE' : a.heating_type === 'FUEL_OIL' ? 'FUEL_OIL' : 'GAS';
}

export interface Delivered {
  /** Delivered energy for space heating, hot water and auxiliaries, per carrier (kWh/yr). */
  byCarrier: PerCarrier;
  pvProduction: number;
}

/** What the stock level (data/stock.json) adds for systems the client did not describe. */
export interface StockSystems {
  /**
   * An undescribed boiler's expected kind: 0 non-condensing, 1 condensing, below 0 towards the certificate's
   * old-boiler default; null when the client described the device (its own efficiency counts).
   */
  condensingShare: number | null;
  /** Expected share of heat from an air-water heat pump when no heating system was described (0..1). */
  heatPumpShare: number;
  /** Expected share of balanced ventilation with heat recovery when no ventilation was described (0..1): its fans' electricity. */
  heatRecoveryShare: number;
}

const NO_STOCK: StockSystems = { condensingShare: null, heatPumpShare: 0, heatRecoveryShare: 0 };

/** A heat pump's seasonal performance for the home's emitters (data/systems.json emitters). */
function spfOf(device: string, a: AssumedProperty, country: Country): number {
  const gen = SH.generation[device] ?? SH.generation.AIR_WATER_HEAT_PUMP!;
  return gen.spf![country][a.heat_emitter_type ?? 'UNKNOWN'];
}

/** Seasonal performance of each heat pump on this home's emitters (the planner's sizing and comparison). */
export function heatPumpSpf(
  a: AssumedProperty,
): Record<'AIR_WATER_HEAT_PUMP' | 'GEOTHERMAL_HEAT_PUMP' | 'AIR_AIR_HEAT_PUMP' | 'HYBRID_HEAT_PUMP', number> {
  return {
    AIR_WATER_HEAT_PUMP: spfOf('AIR_WATER_HEAT_PUMP', a, a.country),
    GEOTHERMAL_HEAT_PUMP: spfOf('GEOTHERMAL_HEAT_PUMP', a, a.country),
    AIR_AIR_HEAT_PUMP: spfOf('AIR_AIR_HEAT_PUMP', a, a.country),
    HYBRID_HEAT_PUMP: spfOf('HYBRID_HEAT_PUMP', a, a.country),
  };
}

/** Delivered energy of the space heating alone (kWh/yr per carrier into out). */
function spaceHeating(out: PerCarrier, a: AssumedProperty, country: Country, heat: number, s: StockSystems, device: string): void {
  const gen = SH.generation[device] ?? SH.generation.DIRECT_ELECTRIC!;
  const ageFactor =
    BOILERS.has(device) && a.installation_age !== null ? (SH.ageing.factor_by_installation_age[a.installation_age] ?? 1) : 1;
  if (device === 'HYBRID_HEAT_PUMP') {
    const share = gen.heat_pump_share ?? 0;
    out.ELECTRICITY += (share * heat) / spfOf(device, a, country);
    out[hybridBackup(a)] += ((1 - share) * heat) / (gen.backup_efficiency ?? 1);
  } else if (gen.spf) {
    out.ELECTRICITY += heat / spfOf(device, a, country);
  } else {
    let efficiency = gen.efficiency ?? 1;
    // An undescribed boiler is condensing with the stock's probability: its expected efficiency.
    if (BOILER_KINDS.has(device) && s.condensingShare !== null) {
      const old = SH.generation.NON_CONDENSING_BOILER!.efficiency!;
      efficiency =
        s.condensingShare >= 0
          ? old + s.condensingShare * (SH.generation.CONDENSING_BOILER!.efficiency! - old)
          : old + s.condensingShare * (old - stock.certificate_default_state.boiler_efficiency);
    }
    out[fuelCarrier(a)] += heat / (efficiency * ageFactor);
  }
}

/**
 * @param heatingNeed net space-heating need under the certificate conditions (kWh/yr)
 * @param hotWaterNeed net hot-water need (kWh/yr)
 * @param stockSystems expected systems of an undescribed home (expected values over the stock)
 */
export function deliveredEnergy(
  a: AssumedProperty,
  country: Country,
  heatingNeed: number,
  hotWaterNeed: number,
  stockSystems: StockSystems = NO_STOCK,
): Delivered {
  const out = zeroCarriers();
  const device = a.heating_device;
  const local = LOCAL.has(device);
  const heat = heatingNeed / (local ? SH.distribution.local : SH.distribution.central);
  const hp = stockSystems.heatPumpShare;
  spaceHeating(out, a, country, (1 - hp) * heat, stockSystems, device);
  if (hp > 0) spaceHeating(out, a, country, (hp * heatingNeed) / SH.distribution.central, stockSystems, 'AIR_WATER_HEAT_PUMP');
  const ageFactor =
    BOILERS.has(device) && a.installation_age !== null ? (SH.ageing.factor_by_installation_age[a.installation_age] ?? 1) : 1;

  // Hot water: solar share first, the rest by the hot-water generator.
  const water = hotWaterNeed * (a.has_solar_boiler ? 1 - DHW.solar_fraction : 1);
  const sanitary = a.sanitary_heating_device;
  const eff = DHW.efficiency;
  // NTA 8800 rates a heat pump's tap water lower than the Belgian methods do (data/systems.json hot_water.netherlands).
  const hpWater = country === 'NL' ? DHW.netherlands.heat_pump_efficiency : eff.HEAT_PUMP_WATER!;
  const hpBoiler = country === 'NL' ? DHW.netherlands.heat_pump_efficiency : eff.HEAT_PUMP_BOILER!;
  if (sanitary === 'GAS_BOILER') out.GAS += water / eff.GAS_BOILER!;
  else if (sanitary === 'FUEL_OIL_BOILER') out.FUEL_OIL += water / eff.FUEL_OIL_BOILER!;
  else if (sanitary === 'ELECTRIC_BOILER' || sanitary === 'NONE') out.ELECTRICITY += water / eff.ELECTRIC_BOILER!;
  else if (sanitary === 'HEAT_PUMP_BOILER') out.ELECTRICITY += water / hpBoiler;
  else if (device === 'AIR_WATER_HEAT_PUMP' || device === 'GEOTHERMAL_HEAT_PUMP') out.ELECTRICITY += water / hpWater;
  else if (device === 'HYBRID_HEAT_PUMP') out[hybridBackup(a)] += water / eff.CONDENSING_BOILER!;
  else if (local) out.ELECTRICITY += water / eff.ELECTRIC_BOILER!;
  else {
    let e = eff[device] ?? eff.CONDENSING_BOILER!;
    const share = stockSystems.condensingShare;
    if (BOILER_KINDS.has(device) && share !== null)
      e = eff.NON_CONDENSING_BOILER! + Math.max(0, share) * (eff.CONDENSING_BOILER! - eff.NON_CONDENSING_BOILER!);
    out[fuelCarrier(a)] += ((1 - hp) * water) / (e * ageFactor);
    out.ELECTRICITY += (hp * water) / hpWater;
  }

  // Auxiliaries: circulator and controls of central systems, ventilation fans.
  if (!local) out.ELECTRICITY += systems.auxiliary.central_heating_kwh;
  const fans = systems.auxiliary.ventilation_kwh;
  const hr = stockSystems.heatRecoveryShare;
  out.ELECTRICITY += (1 - hr) * (fans[a.ventilation_type] ?? 0) + hr * (fans.SYSTEM_D ?? 0);

  return { byCarrier: out, pvProduction: a.solar_panels_kwp * systems.pv.yield_kwh_per_kwp[country] };
}

export interface Weighted {
  primaryByCarrier: PerCarrier;
  primaryGross: number;
  pvPrimaryCredit: number;
  co2: number;
}

export function weigh(delivered: PerCarrier, pv: number, country: Country): Weighted {
  const pf = factors.primary_energy[country];
  const co2f = factors.co2_kg_per_kwh[country];
  const primaryByCarrier = zeroCarriers();
  let primaryGross = 0;
  let co2 = 0;
  for (const c of CARRIERS) {
    const e = delivered[c];
    primaryByCarrier[c] = e * pf[c];
    primaryGross += primaryByCarrier[c];
    co2 += e * co2f[c];
  }
  co2 -= pv * co2f.ELECTRICITY;
  return { primaryByCarrier, primaryGross, pvPrimaryCredit: pv * pf.ELECTRICITY, co2 };
}

/**
 * The yearly energy cost of delivered energy at the country's prices: PV's self-consumed share (never
 * more than the home's electricity use) at the retail price and its export at the feed-in price; a
 * storage heater's electricity (`nightKwh`) at the night tariff.
 */
export function costOf(delivered: PerCarrier, pv: number, country: Country, nightKwh = 0): number {
  const prices = factors.prices_eur_per_kwh;
  const price = prices[country];
  let cost = 0;
  for (const c of CARRIERS) cost += delivered[c] * price[c];
  cost -= nightKwh * (price.ELECTRICITY - prices.night_tariff.ELECTRICITY[country]);
  const own = Math.min(pv * prices.pv.self_consumption_share[country], Math.max(0, delivered.ELECTRICITY));
  return cost - own * price.ELECTRICITY - (pv - own) * prices.pv.feed_in_eur_per_kwh[country];
}

/**
 * The share of its calculated space-heating need a household actually uses (data/factors.json expected_use,
 * the prebound effect): about all of it in an efficient home, 40 % less in a very poor one.
 */
export function expectedUseShare(heatNeedPerM2: number): number {
  return interpolate(USE_NEED, USE_SHARE, heatNeedPerM2);
}

/** Net tap-water need (kWh/yr): TABULA's per m2 in Belgium, NTA 8800's per dwelling in the Netherlands (data/systems.json). */
export function hotWaterNeed(area: number, apartment: boolean, country: Country): number {
  if (country === 'NL') return DHW.netherlands.base_kwh + DHW.netherlands.per_m2 * area;
  return area * (apartment ? DHW.need_kwh_per_m2.apartment : DHW.need_kwh_per_m2.house);
}
