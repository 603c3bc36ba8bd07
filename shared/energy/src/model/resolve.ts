/**
 * Fill every missing input from the typology (country, construction period, format), adjusted for
 * year_renovated and installation_age; tag each input with its source and flag what matters.
 */
import {
  GlazingType,
  InsulationLevel,
  type BasementType,
  type Country,
  type DataSource,
  type EcoFacility,
  type EnergyEfficiencyType,
  type HeatingDevice,
  type HeatingType,
  type PropertyDescription,
  type Region,
  type RoofType,
  type SanitaryHeatingDevice,
  type VentilationType,
} from '@renopath/contracts';
import {
  blendedCell,
  cellBlend,
  confidence,
  consistency,
  envelope,
  systems,
  typologyCell,
  type CellBlend,
  type TypologyCell,
} from './data.ts';
import { detectRegion, scaleOfRegion } from './region.ts';
import type { AssumedProperty, DataQualityFlag } from './types.ts';
import type { Known } from './uvalues.ts';

export type SourceOverrides = Partial<Record<string, DataSource>>;

export interface Resolved {
  assumed: AssumedProperty;
  region: Region;
  scale: EnergyEfficiencyType;
  /** The construction year's archetype, blended between the two periods around it. */
  cell: TypologyCell;
  blend: CellBlend;
  /** Which envelope parts the client described (the others take the stock's state). */
  known: Known;
  /** The client described the heating system (type, device or a heat pump among the eco facilities). */
  heatingKnown: boolean;
  /** The client stated whether there are solar panels, or their size. */
  pvKnown: boolean;
  apartment: boolean;
  roofExposed: boolean;
  floorExposed: boolean;
  /** An apartment whose position in the building is unknown: it carries the building's average roof and floor per m2 (data/envelope.json). */
  positionUnknown: boolean;
  /** Surfaces the caller gave (m2). */
  surfaces: { roof: number | null; wall: number | null; window: number | null; floor: number | null };
  sources: Record<string, DataSource>;
  flags: DataQualityFlag[];
}

/** The contracts' enums list their levels from worst to best. */
const LEVEL_ORDER = InsulationLevel.options;
const GLAZING_ORDER = GlazingType.options;
export const HEAT_PUMPS: ReadonlySet<string> = new Set([
  'AIR_WATER_HEAT_PUMP',
  'GEOTHERMAL_HEAT_PUMP',
  'AIR_AIR_HEAT_PUMP',
  'HYBRID_HEAT_PUMP',
]);
const LOCAL_DEVICES: ReadonlySet<string> = new Set(systems.space_heating.distribution.local_devices);
const APARTMENT_TYPES: ReadonlySet<string> = new Set(envelope.geometry.apartment_types);
/** The parts a renovation year stands for as renewed (data/envelope.json). */
const RENEWED_IN_RENOVATION: ReadonlySet<string> = new Set(envelope.defaults.renewed_in_renovation);

function better<T>(order: readonly T[], a: T, b: T): T {
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

function has(eco: readonly EcoFacility[] | undefined, f: EcoFacility): boolean {
  return eco?.includes(f) ?? false;
}

function boilerKind(country: Country, p: PropertyDescription): HeatingDevice {
  const d = systems.defaults;
  // A boiler younger than ten years is condensing (ecodesign, Sept 2015); an older one is as old as the home or its renovation.
  const original = p.year_built >= d.condensing_from_year_built[country];
  const condensing =
    p.installation_age !== undefined
      ? d.condensing_installation_ages.includes(p.installation_age) || original
      : original || (p.year_renovated !== undefined && p.year_renovated >= d.condensing_from_renovation_year);
  return condensing ? 'CONDENSING_BOILER' : 'NON_CONDENSING_BOILER';
}

/** The typical PV system of a home whose panels are known but not their size (data/systems.json). */
export function typicalKwp(area: number, apartment: boolean): number {
  const t = systems.pv.typical_system;
  if (apartment) return t.apartment_kwp;
  return Math.min(t.house_kwp_range[1], Math.max(t.house_kwp_range[0], t.house_kwp_per_m2 * area));
}

/**
 * `detail` false: the model's inputs only, for a variant whose score alone is wanted (the planner's
 * candidates): `sources` and `flags` are left empty, as they feed data quality and confidence.
 * Each element (roof, walls, windows, floor, heating, hot water, ventilation, PV) is resolved by a
 * function of its own below; they push their flags in this order.
 */
export function resolveProperty(p: PropertyDescription, overrides: SourceOverrides = {}, detail = true): Resolved {
  const flags: DataQualityFlag[] = [];
  const country = p.country;
  const region = regionOf(p, flags);
  const blend = cellBlend(country, p.year_built, p.estate_format);
  const cell = blendedCell(blend);
  const estateType = p.estate_type ?? 'HOUSE';
  const apartment = APARTMENT_TYPES.has(estateType);
  const renovationCell = renovationCellOf(p, flags);
  // A renovation year stands for a renewed roof and windows at least at the renovation period's level.
  const renovatedParts = renovationCell !== null;

  const roof = roofOf(p, cell, renovationCell);
  const wall = wallOf(p, cell, flags);
  const glazing = glazingOf(p, cell, renovationCell);
  const floor = floorOf(p, cell);
  const heating = heatingOf(p, flags);
  const sanitary = hotWaterOf(p, heating.device, flags);
  const ventilation = ventilationOf(p);
  const pv = pvOf(p, apartment, flags);
  const exposure = exposureOf(p, estateType, apartment, roof.surface, floor);

  const eco = p.eco_facilities;
  const known: Known = {
    inclinedRoof: p.inclined_roof_insulation_type !== undefined || (renovatedParts && RENEWED_IN_RENOVATION.has('roof')),
    flatRoof: p.flat_roof_insulation_type !== undefined || (renovatedParts && RENEWED_IN_RENOVATION.has('roof')),
    wall: p.outer_wall_insulation_type !== undefined || p.has_cavity_wall_insulation !== undefined,
    solidFloor: p.solid_ground_floor_insulation_type !== undefined,
    aboveFloor: p.floor_above_basement_insulation_type !== undefined,
    window: p.window_glazing_type !== undefined || (renovatedParts && RENEWED_IN_RENOVATION.has('window')),
  };
  const heatingKnown = p.heating_type !== undefined || p.heating_device !== undefined || has(eco, 'HEAT_PUMP');
  const pvKnown = p.has_solar_panels !== undefined || p.solar_panels_kwp !== undefined || has(eco, 'SOLAR_PANELS');

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
    roof_type: roof.type,
    inclined_roof_insulation_type: roof.inclinedLevel,
    flat_roof_insulation_type: roof.flatLevel,
    flat_roof_share: roof.flatShare,
    attic_usage: roof.hasInclined ? (p.attic_usage ?? null) : null,
    outer_wall_insulation_type: wall.level,
    has_cavity_wall_insulation: wall.cavityFilled,
    window_glazing_type: glazing,
    basement_type: floor.basementType,
    basement_share: floor.basementShare,
    solid_ground_floor_insulation_type: floor.solidLevel,
    floor_above_basement_insulation_type: floor.aboveLevel,
    ventilation_type: ventilation,
    heating_type: heating.type,
    heating_device: heating.device,
    installation_age: p.installation_age ?? null,
    sanitary_heating_device: sanitary,
    solar_panels_kwp: pv.kwp,
    has_solar_boiler: pv.solarBoiler,
    has_renewed_window_frames: p.has_renewed_window_frames ?? null,
    air_tightness_v50: p.air_tightness_v50 ?? null,
    heat_emitter_type: p.heat_emitter_type ?? null,
  };

  if (detail) {
    missingFlags(p, assumed, flags);
    unusualFlags(p, assumed, flags);
  }

  const basementStated = floor.statedBasement !== undefined;
  return {
    assumed,
    region,
    scale: scaleOfRegion(region),
    cell,
    blend,
    known,
    heatingKnown,
    pvKnown,
    apartment,
    ...exposure,
    surfaces: { roof: roof.surface, wall: p.outer_wall_surface ?? null, window: p.window_glazing_surface ?? null, floor: floor.surface },
    sources: detail
      ? sourcesOf(p, overrides, {
          hasInclined: roof.hasInclined,
          hasFlat: roof.hasFlat,
          basementStated,
          basementShare: floor.basementShare,
        })
      : {},
    flags: detail ? flags : [],
  };
}

function regionOf(p: PropertyDescription, flags: DataQualityFlag[]): Region {
  const country = p.country;
  const region = detectRegion(p.zip_code, country);
  if (region) return region;
  const assumed = country === 'NL' ? 'NETHERLANDS' : 'FLANDERS';
  flags.push({
    field: 'zip_code',
    code: 'ZIP_CODE_NOT_RECOGNISED',
    message: `zip_code ${p.zip_code} is not a postal code of ${country}; the region was assumed to be ${assumed}`,
  });
  return assumed;
}

/** The typology of the renovation's period, when a renovation year after the construction year is given. */
function renovationCellOf(p: PropertyDescription, flags: DataQualityFlag[]): TypologyCell | null {
  if (p.year_renovated !== undefined && p.year_renovated < p.year_built) {
    flags.push({
      field: 'year_renovated',
      code: 'RENOVATED_BEFORE_BUILT',
      message: `year_renovated ${p.year_renovated} is before year_built ${p.year_built}; the renovation year was ignored`,
    });
  }
  const renovationYear = p.year_renovated !== undefined && p.year_renovated > p.year_built ? p.year_renovated : null;
  return renovationYear !== null ? typologyCell(p.country, renovationYear, p.estate_format) : null;
}

/** Roof: one type, or MIXED with an inclined and a flat part, each with its own insulation. */
function roofOf(p: PropertyDescription, cell: TypologyCell, renovationCell: TypologyCell | null) {
  const inclinedHint = p.inclined_roof_insulation_type !== undefined || p.inclined_roof_pane_surface !== undefined;
  const flatHint = p.flat_roof_insulation_type !== undefined || p.flat_roof_pane_surface !== undefined;
  const type: RoofType =
    p.roof_type ?? (inclinedHint && flatHint ? 'MIXED' : flatHint ? 'FLAT' : inclinedHint ? 'INCLINED' : cell.roofType);
  let roofDefault = cell.typical.roof;
  if (renovationCell && RENEWED_IN_RENOVATION.has('roof')) roofDefault = better(LEVEL_ORDER, roofDefault, renovationCell.typical.roof);
  const hasInclined = type !== 'FLAT';
  const hasFlat = type !== 'INCLINED';
  const inclinedLevel = hasInclined ? (p.inclined_roof_insulation_type ?? roofDefault) : null;
  const flatLevel = hasFlat ? (p.flat_roof_insulation_type ?? roofDefault) : null;
  const surface =
    p.inclined_roof_pane_surface !== undefined || p.flat_roof_pane_surface !== undefined
      ? (hasInclined ? (p.inclined_roof_pane_surface ?? 0) : 0) + (hasFlat ? (p.flat_roof_pane_surface ?? 0) : 0)
      : null;
  const flatShare =
    type === 'FLAT'
      ? 1
      : type === 'INCLINED'
        ? 0
        : p.inclined_roof_pane_surface !== undefined && p.flat_roof_pane_surface !== undefined
          ? p.flat_roof_pane_surface / (p.flat_roof_pane_surface + p.inclined_roof_pane_surface)
          : 0.5;
  return { type, hasInclined, hasFlat, inclinedLevel, flatLevel, surface, flatShare };
}

function wallOf(p: PropertyDescription, cell: TypologyCell, flags: DataQualityFlag[]) {
  const given = p.outer_wall_insulation_type;
  const cavityFilled = p.has_cavity_wall_insulation === true;
  if (cavityFilled && given === 'NONE') {
    flags.push({
      field: 'outer_wall_insulation_type',
      code: 'INCONSISTENT_INPUT',
      message: 'outer_wall_insulation_type is NONE but has_cavity_wall_insulation is true; the cavity fill was counted',
    });
  }
  return { level: given ?? cell.typical.wall, cavityFilled };
}

function glazingOf(p: PropertyDescription, cell: TypologyCell, renovationCell: TypologyCell | null): GlazingType {
  const glazing = p.window_glazing_type ?? cell.typical.window;
  if (!p.window_glazing_type && renovationCell && RENEWED_IN_RENOVATION.has('window'))
    return better(GLAZING_ORDER, glazing, renovationCell.typical.window);
  return glazing;
}

type FloorOf = ReturnType<typeof floorOf>;

/** Floor: on the ground, above a basement or crawl space, or partly both. */
function floorOf(p: PropertyDescription, cell: TypologyCell) {
  const basementHint =
    p.floor_above_basement_insulation_type !== undefined ||
    p.basement_ceiling_surface !== undefined ||
    p.basement_ceiling_height !== undefined;
  const statedBasement = p.basement_type === 'UNSPECIFIED' ? undefined : p.basement_type;
  const basementType: BasementType =
    statedBasement ??
    (basementHint && p.solid_ground_floor_insulation_type !== undefined
      ? 'PARTIAL'
      : basementHint
        ? 'FULL'
        : envelope.defaults.basement_type[p.country]);
  let basementShare = basementType === 'NONE' ? 0 : basementType === 'PARTIAL' ? envelope.defaults.partial_basement_share : 1;
  if (basementType === 'PARTIAL' && p.basement_ceiling_surface !== undefined && p.ground_floor_surface !== undefined) {
    basementShare = Math.min(1, p.basement_ceiling_surface / p.ground_floor_surface);
  }
  const surface =
    p.ground_floor_surface ?? (basementType === 'FULL' || basementType === 'CRAWL_SPACE' ? p.basement_ceiling_surface : undefined) ?? null;
  return {
    statedBasement,
    basementType,
    basementShare,
    solidLevel: p.solid_ground_floor_insulation_type ?? cell.typical.floor,
    aboveLevel: p.floor_above_basement_insulation_type ?? cell.typical.floor,
    surface,
  };
}

function heatingOf(p: PropertyDescription, flags: DataQualityFlag[]): { type: HeatingType; device: HeatingDevice } {
  const country = p.country;
  const eco = p.eco_facilities;
  let heatingDevice: HeatingDevice | undefined = p.heating_device;
  let heatingType: HeatingType | undefined = p.heating_type;
  if (!heatingDevice && !heatingType && has(eco, 'HEAT_PUMP')) {
    heatingDevice = 'AIR_WATER_HEAT_PUMP';
    heatingType = 'HEAT_PUMP';
  }
  if (!heatingType) {
    heatingType = heatingDevice
      ? ((systems.space_heating.carrier_of_device[heatingDevice] as HeatingType | undefined) ?? systems.defaults.heating_type[country])
      : systems.defaults.heating_type[country];
  }
  if (!heatingDevice) {
    const d = systems.space_heating.device_of_carrier[heatingType] ?? 'BOILER';
    heatingDevice = d === 'BOILER' ? boilerKind(country, p) : (d as HeatingDevice);
  }
  if (heatingType === 'NONE') {
    flags.push({
      field: 'heating_type',
      code: 'NO_HEATING_SYSTEM',
      message: 'heating_type is NONE: like the certificate methods, the model assumes electric resistance heating',
    });
  }
  const allowed = consistency.devices_by_heating_type[heatingType];
  if (p.heating_device && p.heating_type && Array.isArray(allowed) && !allowed.includes(p.heating_device)) {
    flags.push({
      field: 'heating_device',
      code: 'INCONSISTENT_INPUT',
      message: `heating_device ${p.heating_device} does not run on heating_type ${p.heating_type}; the device decided the energy carrier`,
    });
  }
  if (has(eco, 'HEAT_PUMP') && !HEAT_PUMPS.has(heatingDevice)) {
    flags.push({
      field: 'eco_facilities',
      code: 'INCONSISTENT_INPUT',
      message: `eco_facilities lists HEAT_PUMP but heating_device is ${heatingDevice}`,
    });
  }
  return { type: heatingType, device: heatingDevice };
}

/** Hot water: a local heater cannot make it, so NOT_SEPARATED falls back to an electric boiler. */
function hotWaterOf(p: PropertyDescription, heatingDevice: HeatingDevice, flags: DataQualityFlag[]): SanitaryHeatingDevice {
  let sanitary: SanitaryHeatingDevice =
    p.sanitary_heating_device ?? (LOCAL_DEVICES.has(heatingDevice) ? 'ELECTRIC_BOILER' : 'NOT_SEPARATED');
  if (sanitary === 'NOT_SEPARATED' && LOCAL_DEVICES.has(heatingDevice)) {
    flags.push({
      field: 'sanitary_heating_device',
      code: 'INCONSISTENT_INPUT',
      message: `sanitary_heating_device NOT_SEPARATED but a ${heatingDevice} cannot make hot water; an electric boiler was assumed`,
    });
    sanitary = 'ELECTRIC_BOILER';
  }
  if (sanitary === 'NONE') {
    flags.push({
      field: 'sanitary_heating_device',
      code: 'NO_HOT_WATER_SYSTEM',
      message: 'sanitary_heating_device is NONE: like the certificate methods, the model assumes an electric storage boiler',
    });
  }
  return sanitary;
}

function ventilationOf(p: PropertyDescription): VentilationType {
  const eco = p.eco_facilities;
  return (
    p.ventilation_type ??
    (has(eco, 'VENTILATION_D')
      ? 'SYSTEM_D'
      : has(eco, 'VENTILATION_C')
        ? 'SYSTEM_C'
        : p.year_built >= systems.defaults.ventilation_system_c_from_year_built
          ? 'SYSTEM_C'
          : 'NONE')
  );
}

/** PV: a stated size wins; panels known without a size get the home's typical system (source MODEL). Also the solar boiler. */
function pvOf(p: PropertyDescription, apartment: boolean, flags: DataQualityFlag[]): { kwp: number; solarBoiler: boolean } {
  const eco = p.eco_facilities;
  const panels = p.has_solar_panels ?? (has(eco, 'SOLAR_PANELS') ? true : undefined);
  let kwp = p.solar_panels_kwp ?? 0;
  if (p.solar_panels_kwp === undefined && panels === true) {
    kwp = typicalKwp(p.habitable_space_m2, apartment);
    flags.push({
      field: 'solar_panels_kwp',
      code: 'ASSUMED_PV_SIZE',
      message: `solar panels without solar_panels_kwp; a typical ${kwp.toFixed(1)} kWp system was assumed`,
    });
  }
  if (p.solar_panels_kwp !== undefined && p.solar_panels_kwp > 0 && p.has_solar_panels === false) {
    flags.push({
      field: 'has_solar_panels',
      code: 'INCONSISTENT_INPUT',
      message: `has_solar_panels is false but solar_panels_kwp is ${p.solar_panels_kwp}; the stated size was counted`,
    });
  }
  if (p.solar_panels_kwp === 0 && panels === true) {
    flags.push({ field: 'solar_panels_kwp', code: 'INCONSISTENT_INPUT', message: 'solar panels are listed but solar_panels_kwp is 0' });
  }
  const solarBoiler = p.has_solar_boiler ?? has(eco, 'SOLAR_BOILER');
  if (p.has_solar_boiler === false && has(eco, 'SOLAR_BOILER')) {
    flags.push({
      field: 'has_solar_boiler',
      code: 'INCONSISTENT_INPUT',
      message: 'has_solar_boiler is false but eco_facilities lists SOLAR_BOILER; none was counted',
    });
  }
  return { kwp, solarBoiler };
}

/** Exposure of an apartment's roof and floor: only when the caller describes them. */
function exposureOf(p: PropertyDescription, estateType: string, apartment: boolean, roofSurface: number | null, floor: FloorOf) {
  const roofDescribed =
    p.roof_type !== undefined ||
    p.inclined_roof_insulation_type !== undefined ||
    p.flat_roof_insulation_type !== undefined ||
    roofSurface !== null;
  const floorDescribed =
    floor.statedBasement !== undefined ||
    p.solid_ground_floor_insulation_type !== undefined ||
    p.floor_above_basement_insulation_type !== undefined ||
    floor.surface !== null;
  // A flat's stated floor position wins: a middle floor has neither roof nor ground floor of its own.
  const position = apartment ? p.floor_position : undefined;
  const roofExposed =
    !apartment ||
    (position !== undefined
      ? position === 'TOP'
      : roofDescribed || envelope.geometry.apartment_roof_exposed_by_default[estateType] === true);
  const floorExposed = !apartment || (position !== undefined ? position === 'GROUND' : floorDescribed);
  const positionUnknown = apartment && position === undefined && !roofExposed && !floorExposed;
  return { roofExposed, floorExposed, positionUnknown };
}

/** Fields reported only when the client gave them (the model assumes nothing in their place). */
const REPORTED_WHEN_GIVEN = [
  'year_renovated',
  'number_of_floors',
  'building_width',
  'building_depth',
  'cornice_height',
  'energy_efficiency_score',
  'installation_age',
  'attic_usage',
  'has_renewed_window_frames',
  'air_tightness_v50',
  'heat_emitter_type',
  'basement_ceiling_height',
] as const;

/**
 * Where each input came from: INPUT (or the caller's override: EPC_DOCUMENT, LIDAR, PROVIDER) when
 * given, MODEL when the typology filled it. A part the home does not have (a flat roof's inclined
 * insulation, a floor over a basement without one) is not listed.
 */
function sourcesOf(
  p: PropertyDescription,
  overrides: SourceOverrides,
  parts: { hasInclined: boolean; hasFlat: boolean; basementStated: boolean; basementShare: number },
): Record<string, DataSource> {
  const sources: Record<string, DataSource> = {};
  const mark = (field: keyof PropertyDescription, isGiven = p[field] !== undefined): void => {
    sources[field] = isGiven ? (overrides[field] ?? 'INPUT') : 'MODEL';
  };
  const markGiven = (field: keyof PropertyDescription): void => {
    if (p[field] !== undefined) mark(field, true);
  };
  for (const f of ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'] as const) mark(f, true);
  mark('estate_type');
  for (const f of REPORTED_WHEN_GIVEN) markGiven(f);
  mark('roof_type');
  if (parts.hasInclined) mark('inclined_roof_insulation_type');
  if (parts.hasFlat) mark('flat_roof_insulation_type');
  if (parts.hasInclined) mark('inclined_roof_pane_surface');
  if (parts.hasFlat) mark('flat_roof_pane_surface');
  mark('outer_wall_insulation_type');
  markGiven('has_cavity_wall_insulation');
  markGiven('has_cavity_wall');
  markGiven('cavity_wall_width');
  mark('outer_wall_surface');
  mark('window_glazing_type');
  mark('window_glazing_surface');
  // UNSPECIFIED is not a statement about the basement.
  mark('basement_type', parts.basementStated);
  if (parts.basementShare < 1) mark('solid_ground_floor_insulation_type');
  if (parts.basementShare > 0) mark('floor_above_basement_insulation_type');
  mark('ground_floor_surface');
  if (parts.basementShare > 0) mark('basement_ceiling_surface');
  for (const f of [
    'heating_type',
    'heating_device',
    'sanitary_heating_device',
    'ventilation_type',
    'solar_panels_kwp',
    'has_solar_panels',
    'has_solar_boiler',
  ] as const)
    mark(f);
  return sources;
}

/** The main roof's level: the inclined part's unless the roof is mostly flat. */
export function mainRoofLevel(a: AssumedProperty): InsulationLevel {
  return (a.flat_roof_share > 0.5 ? a.flat_roof_insulation_type : a.inclined_roof_insulation_type) ?? a.flat_roof_insulation_type ?? 'NONE';
}

const ASSUMED_VALUE: Record<string, (a: AssumedProperty) => string> = {
  heating_type: (a) => a.heating_type,
  heating_device: (a) => a.heating_device,
  installation_age: () => 'unknown (no ageing penalty)',
  glazing: (a) => a.window_glazing_type,
  roof_insulation: (a) => mainRoofLevel(a),
  wall_insulation: (a) => a.outer_wall_insulation_type,
  floor_insulation: (a) => (a.basement_share > 0.5 ? a.floor_above_basement_insulation_type : a.solid_ground_floor_insulation_type),
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
  const insulated = (l: string | undefined) => l === 'MODERATE' || l === 'STRONG';
  const givenLevels: [string, string | undefined][] = [
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
        field: 'window_glazing_type',
        code: 'UNUSUAL_COMBINATION',
        message: `a house built in ${a.year_built} with ${strong.join(', ')} but single glazing is unusual: check window_glazing_type`,
      });
    }
  }
  if (a.year_built >= systems.defaults.ventilation_system_c_from_year_built) {
    for (const [f, l] of givenLevels) {
      if (l === 'NONE')
        flags.push({ field: f, code: 'UNUSUAL_COMBINATION', message: `${f} NONE is unusual for a home built in ${a.year_built}` });
    }
  }
  if (
    HEAT_PUMPS.has(a.heating_device) &&
    a.heating_device !== 'HYBRID_HEAT_PUMP' &&
    a.outer_wall_insulation_type === 'NONE' &&
    mainRoofLevel(a) === 'NONE'
  ) {
    flags.push({
      field: 'heating_device',
      code: 'UNUSUAL_COMBINATION',
      message: `a ${a.heating_device} in a home without wall and roof insulation is unusual and works poorly`,
    });
  }
}
