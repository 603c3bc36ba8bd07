/**
 * Fill every missing input from the typology (country, construction period, format), adjusted for
 * year_renovated and installation_age; tag each input with its source and flag what matters.
 */
import {
  GlazingType, InsulationLevel,
  type Country, type DataSource, type EcoFacility, type EnergyEfficiencyType, type HeatingDevice, type HeatingType,
  type PropertyDescription, type Region,
} from '@renopath/contracts';
import { confidence, consistency, envelope, systems, typologyCell, type TypologyCell } from './data.ts';
import { detectRegion, scaleOfRegion } from './region.ts';
import type { AssumedProperty, DataQualityFlag } from './types.ts';

export type SourceOverrides = Partial<Record<string, DataSource>>;

export interface Resolved {
  assumed: AssumedProperty;
  region: Region;
  scale: EnergyEfficiencyType;
  cell: TypologyCell;
  apartment: boolean;
  roofExposed: boolean;
  floorExposed: boolean;
  /** Surfaces the caller gave (m2). */
  surfaces: { roof: number | null; wall: number | null; window: number | null; floor: number | null };
  sources: Record<string, DataSource>;
  flags: DataQualityFlag[];
}

/** The contracts' enums list their levels from worst to best. */
const LEVEL_ORDER = InsulationLevel.options;
const GLAZING_ORDER = GlazingType.options;
const HEAT_PUMPS: ReadonlySet<string> = new Set(['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_AIR_AIR', 'HEAT_PUMP_HYBRID']);
const LOCAL_DEVICES: ReadonlySet<string> = new Set(systems.space_heating.distribution.local_devices);
const APARTMENT_TYPES: ReadonlySet<string> = new Set(envelope.geometry.apartment_types);

function better<T>(order: readonly T[], a: T, b: T): T {
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

function has(eco: readonly EcoFacility[] | undefined, f: EcoFacility): boolean {
  return eco !== undefined && eco.includes(f);
}

function defaultLevel(cell: TypologyCell, element: 'roof' | 'wall' | 'floor'): InsulationLevel {
  return cell.typical[element];
}

function boilerKind(country: Country, p: PropertyDescription): HeatingDevice {
  const d = systems.defaults;
  const condensing =
    (p.installation_age !== undefined && p.installation_age <= d.condensing_if_installation_age_at_most) ||
    (p.installation_age === undefined && p.year_renovated !== undefined && p.year_renovated >= d.condensing_from_renovation_year) ||
    (p.installation_age === undefined && p.year_built >= d.condensing_from_year_built[country]);
  return condensing ? 'CONDENSING_BOILER' : 'NON_CONDENSING_BOILER';
}

export function resolveProperty(p: PropertyDescription, overrides: SourceOverrides = {}): Resolved {
  const flags: DataQualityFlag[] = [];
  const sources: Record<string, DataSource> = {};
  const given = (field: keyof PropertyDescription): boolean => p[field] !== undefined;
  const mark = (field: string, isGiven: boolean): void => {
    sources[field] = isGiven ? (overrides[field] ?? 'INPUT') : 'MODEL';
  };
  for (const f of ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'] as const) mark(f, true);

  const country = p.country;
  let region = detectRegion(p.zip_code, country);
  if (!region) {
    region = country === 'NL' ? 'NETHERLANDS' : 'FLANDERS';
    flags.push({ field: 'zip_code', code: 'ZIP_CODE_NOT_RECOGNISED', message: `zip_code ${p.zip_code} is not a postal code of ${country}; the region was assumed to be ${region}` });
  }
  const cell = typologyCell(country, p.year_built, p.estate_format);
  const estateType = p.estate_type ?? 'HOUSE';
  mark('estate_type', given('estate_type'));
  const apartment = APARTMENT_TYPES.has(estateType);

  for (const f of ['year_renovated', 'number_of_floors', 'building_width', 'building_depth', 'cornice_height', 'energy_efficiency_score', 'installation_age'] as const) {
    if (given(f)) mark(f, true);
  }
  if (p.year_renovated !== undefined && p.year_renovated < p.year_built) {
    flags.push({ field: 'year_renovated', code: 'RENOVATED_BEFORE_BUILT', message: `year_renovated ${p.year_renovated} is before year_built ${p.year_built}; the renovation year was ignored` });
  }
  const renovationYear = p.year_renovated !== undefined && p.year_renovated > p.year_built ? p.year_renovated : null;
  const renovationCell = renovationYear !== null ? typologyCell(country, renovationYear, p.estate_format) : null;
  const renewed = new Set<string>(envelope.defaults.renewed_in_renovation);

  // Roof
  const roofType: 'INCLINED' | 'FLAT' = p.roof_type
    ?? (p.flat_roof_insulation_type !== undefined || p.flat_roof_surface !== undefined ? 'FLAT'
      : p.inclined_roof_insulation_type !== undefined || p.inclined_roof_surface !== undefined ? 'INCLINED' : cell.roofType);
  mark('roof_type', given('roof_type'));
  const roofField = roofType === 'FLAT' ? 'flat_roof_insulation_type' : 'inclined_roof_insulation_type';
  const roofGiven = (roofType === 'FLAT' ? p.flat_roof_insulation_type : p.inclined_roof_insulation_type)
    ?? p.inclined_roof_insulation_type ?? p.flat_roof_insulation_type;
  let roofLevel = roofGiven ?? defaultLevel(cell, 'roof');
  if (!roofGiven && renovationCell && renewed.has('roof')) roofLevel = better(LEVEL_ORDER, roofLevel, renovationCell.typical.roof);
  mark(roofField, roofGiven !== undefined);
  const roofSurface = p.inclined_roof_surface !== undefined || p.flat_roof_surface !== undefined
    ? (p.inclined_roof_surface ?? 0) + (p.flat_roof_surface ?? 0) : null;
  mark(roofType === 'FLAT' ? 'flat_roof_surface' : 'inclined_roof_surface', roofSurface !== null);

  // Walls
  const wallGiven = p.outer_wall_insulation_type;
  const cavityFilled = p.has_cavity_wall_insulation === true;
  const wallLevel = wallGiven ?? defaultLevel(cell, 'wall');
  mark('outer_wall_insulation_type', wallGiven !== undefined);
  if (given('has_cavity_wall_insulation')) mark('has_cavity_wall_insulation', true);
  if (given('has_cavity_wall')) mark('has_cavity_wall', true);
  if (given('cavity_wall_width')) mark('cavity_wall_width', true);
  mark('outer_wall_surface', given('outer_wall_surface'));
  if (cavityFilled && wallGiven === 'NONE') {
    flags.push({ field: 'outer_wall_insulation_type', code: 'INCONSISTENT_INPUT', message: 'outer_wall_insulation_type is NONE but has_cavity_wall_insulation is true; the cavity fill was counted' });
  }

  // Windows
  let glazing = p.window_glazing_type ?? cell.typical.window;
  if (!p.window_glazing_type && renovationCell && renewed.has('window')) glazing = better(GLAZING_ORDER, glazing, renovationCell.typical.window);
  mark('window_glazing_type', given('window_glazing_type'));
  mark('window_surface', given('window_surface'));

  // Floor
  const basementType = p.basement_type
    ?? (p.floor_above_basement_insulation_type !== undefined || p.basement_ceiling_surface !== undefined ? 'UNHEATED'
      : p.solid_ground_floor_insulation_type !== undefined || p.solid_ground_floor_surface !== undefined ? 'NONE'
        : envelope.defaults.basement_type[country]);
  mark('basement_type', given('basement_type'));
  const aboveBasement = basementType === 'UNHEATED' || basementType === 'CRAWL_SPACE';
  const floorField = aboveBasement ? 'floor_above_basement_insulation_type' : 'solid_ground_floor_insulation_type';
  const floorGiven = (aboveBasement ? p.floor_above_basement_insulation_type : p.solid_ground_floor_insulation_type)
    ?? p.floor_above_basement_insulation_type ?? p.solid_ground_floor_insulation_type;
  const floorLevel = floorGiven ?? defaultLevel(cell, 'floor');
  mark(floorField, floorGiven !== undefined);
  const floorSurface = p.basement_ceiling_surface !== undefined || p.solid_ground_floor_surface !== undefined
    ? (p.basement_ceiling_surface ?? 0) + (p.solid_ground_floor_surface ?? 0) : null;
  mark(aboveBasement ? 'basement_ceiling_surface' : 'solid_ground_floor_surface', floorSurface !== null);

  // Heating
  const eco = p.eco_facilities;
  let heatingDevice: HeatingDevice | undefined = p.heating_device;
  let heatingType: HeatingType | undefined = p.heating_type;
  if (!heatingDevice && !heatingType && has(eco, 'HEAT_PUMP')) { heatingDevice = 'HEAT_PUMP_AIR_WATER'; heatingType = 'ELECTRIC'; }
  if (!heatingType) {
    heatingType = heatingDevice
      ? (systems.space_heating.carrier_of_device[heatingDevice] as HeatingType | undefined) ?? systems.defaults.heating_type[country] as HeatingType
      : systems.defaults.heating_type[country] as HeatingType;
  }
  if (!heatingDevice) {
    const d = systems.space_heating.device_of_carrier[heatingType] ?? 'BOILER';
    heatingDevice = d === 'BOILER' ? boilerKind(country, p) : d as HeatingDevice;
  }
  mark('heating_type', given('heating_type'));
  mark('heating_device', given('heating_device'));
  if (heatingType === 'NONE') {
    flags.push({ field: 'heating_type', code: 'NO_HEATING_SYSTEM', message: 'heating_type is NONE: like the certificate methods, the model assumes electric resistance heating' });
  }
  const allowed = consistency.devices_by_heating_type[heatingType];
  if (p.heating_device && p.heating_type && Array.isArray(allowed) && !allowed.includes(p.heating_device)) {
    flags.push({ field: 'heating_device', code: 'INCONSISTENT_INPUT', message: `heating_device ${p.heating_device} does not run on heating_type ${p.heating_type}; the device decided the energy carrier` });
  }
  if (has(eco, 'HEAT_PUMP') && !HEAT_PUMPS.has(heatingDevice)) {
    flags.push({ field: 'eco_facilities', code: 'INCONSISTENT_INPUT', message: `eco_facilities lists HEAT_PUMP but heating_device is ${heatingDevice}` });
  }

  // Hot water, ventilation, PV, solar boiler
  const sanitary = p.sanitary_heating_device
    ?? (LOCAL_DEVICES.has(heatingDevice) ? 'ELECTRIC_BOILER' : 'SAME_AS_HEATING');
  mark('sanitary_heating_device', given('sanitary_heating_device'));
  const ventilation = p.ventilation_type
    ?? (has(eco, 'VENTILATION_D') ? 'SYSTEM_D' : has(eco, 'VENTILATION_C') ? 'SYSTEM_C'
      : p.year_built >= systems.defaults.ventilation_system_c_from_year_built ? 'SYSTEM_C' : 'NONE');
  mark('ventilation_type', given('ventilation_type'));
  let kwp = p.solar_panels_kwp ?? 0;
  if (p.solar_panels_kwp === undefined && has(eco, 'SOLAR_PANELS')) {
    kwp = systems.pv.assumed_kwp_when_only_flagged;
    flags.push({ field: 'solar_panels_kwp', code: 'ASSUMED_PV_SIZE', message: `eco_facilities lists SOLAR_PANELS without solar_panels_kwp; ${kwp} kWp was assumed` });
  }
  if (p.solar_panels_kwp === 0 && has(eco, 'SOLAR_PANELS')) {
    flags.push({ field: 'solar_panels_kwp', code: 'INCONSISTENT_INPUT', message: 'eco_facilities lists SOLAR_PANELS but solar_panels_kwp is 0' });
  }
  mark('solar_panels_kwp', given('solar_panels_kwp'));
  const solarBoiler = p.has_solar_boiler ?? (has(eco, 'SOLAR_BOILER') || sanitary === 'SOLAR_BOILER');
  if (p.has_solar_boiler === false && (has(eco, 'SOLAR_BOILER') || sanitary === 'SOLAR_BOILER')) {
    flags.push({ field: 'has_solar_boiler', code: 'INCONSISTENT_INPUT', message: 'has_solar_boiler is false but a solar boiler is listed elsewhere; none was counted' });
  }
  mark('has_solar_boiler', given('has_solar_boiler'));

  // Exposure of an apartment's roof and floor: only when the caller describes them.
  const roofDescribed = p.roof_type !== undefined || roofGiven !== undefined || roofSurface !== null;
  const floorDescribed = p.basement_type !== undefined || floorGiven !== undefined || floorSurface !== null;
  const roofExposed = !apartment || roofDescribed || envelope.geometry.apartment_roof_exposed_by_default[estateType] === true;
  const floorExposed = !apartment || floorDescribed;

  const assumed: AssumedProperty = {
    year_built: p.year_built,
    estate_format: p.estate_format,
    habitable_space_m2: p.habitable_space_m2,
    zip_code: p.zip_code,
    country,
    estate_type: estateType,
    year_renovated: p.year_renovated ?? null,
    number_of_floors: p.number_of_floors ?? null,
    building_width: p.building_width ?? null,
    building_depth: p.building_depth ?? null,
    cornice_height: p.cornice_height ?? null,
    energy_efficiency_score: p.energy_efficiency_score ?? null,
    roof_type: roofType,
    roof_insulation_type: roofLevel,
    outer_wall_insulation_type: wallLevel,
    has_cavity_wall_insulation: cavityFilled,
    window_glazing_type: glazing,
    basement_type: basementType,
    floor_insulation_type: floorLevel,
    ventilation_type: ventilation,
    heating_type: heatingType,
    heating_device: heatingDevice,
    installation_age: p.installation_age ?? null,
    sanitary_heating_device: sanitary,
    solar_panels_kwp: kwp,
    has_solar_boiler: solarBoiler,
  };

  missingFlags(p, assumed, flags);
  unusualFlags(p, assumed, flags);

  return {
    assumed, region, scale: scaleOfRegion(region), cell, apartment, roofExposed, floorExposed,
    surfaces: { roof: roofSurface, wall: p.outer_wall_surface ?? null, window: p.window_surface ?? null, floor: floorSurface },
    sources, flags,
  };
}

const ASSUMED_VALUE: Record<string, (a: AssumedProperty) => string> = {
  heating_type: (a) => a.heating_type,
  heating_device: (a) => a.heating_device,
  installation_age: () => 'unknown (no ageing penalty)',
  glazing: (a) => a.window_glazing_type,
  roof_insulation: (a) => a.roof_insulation_type,
  wall_insulation: (a) => a.outer_wall_insulation_type,
  floor_insulation: (a) => a.floor_insulation_type,
};

function missingFlags(p: PropertyDescription, a: AssumedProperty, flags: DataQualityFlag[]): void {
  for (const item of confidence.items) {
    if (!item.flag_when_missing) continue;
    if (item.fields.some((f) => p[f as keyof PropertyDescription] !== undefined)) continue;
    const value = ASSUMED_VALUE[item.item]?.(a) ?? 'a typology default';
    flags.push({
      field: item.fields[0]!,
      code: 'MISSING_INPUT',
      message: `${item.fields.join(' / ')} not given: assumed ${value} (typical for ${a.country} homes built in ${a.year_built})`,
    });
  }
}

function unusualFlags(p: PropertyDescription, a: AssumedProperty, flags: DataQualityFlag[]): void {
  const insulated = (l: InsulationLevel | undefined) => l === 'MODERATE' || l === 'STRONG';
  const givenLevels: [string, InsulationLevel | undefined][] = [
    ['outer_wall_insulation_type', p.outer_wall_insulation_type],
    ['inclined_roof_insulation_type', p.inclined_roof_insulation_type],
    ['flat_roof_insulation_type', p.flat_roof_insulation_type],
    ['floor_above_basement_insulation_type', p.floor_above_basement_insulation_type],
    ['solid_ground_floor_insulation_type', p.solid_ground_floor_insulation_type],
  ];
  if (p.window_glazing_type === 'SINGLE_GLAZING') {
    const strong = givenLevels.filter(([, l]) => insulated(l)).map(([f, l]) => `${f} ${l}`);
    if (strong.length > 0) {
      flags.push({
        field: 'window_glazing_type', code: 'UNUSUAL_COMBINATION',
        message: `a house built in ${a.year_built} with ${strong.join(', ')} but single glazing is unusual: check window_glazing_type`,
      });
    }
  }
  if (a.year_built >= systems.defaults.ventilation_system_c_from_year_built) {
    for (const [f, l] of givenLevels) {
      if (l === 'NONE') flags.push({ field: f, code: 'UNUSUAL_COMBINATION', message: `${f} NONE is unusual for a home built in ${a.year_built}` });
    }
  }
  if (HEAT_PUMPS.has(a.heating_device) && a.heating_device !== 'HEAT_PUMP_HYBRID'
    && a.outer_wall_insulation_type === 'NONE' && a.roof_insulation_type === 'NONE') {
    flags.push({ field: 'heating_device', code: 'UNUSUAL_COMBINATION', message: `a ${a.heating_device} in a home without wall and roof insulation is unusual and works poorly` });
  }
}
