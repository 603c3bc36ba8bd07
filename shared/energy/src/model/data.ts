/**
 * The model's figures, read once from ../../data/*.json (every table carries its source and year there),
 * checked against a schema, and turned into lookup structures. Nothing else in the model holds a figure.
 */
import { z } from 'zod';
import archetypesJson from '../../data/tabula-archetypes.json' with { type: 'json' };
import typologyJson from '../../data/typology.json' with { type: 'json' };
import climateJson from '../../data/climate.json' with { type: 'json' };
import envelopeJson from '../../data/envelope.json' with { type: 'json' };
import systemsJson from '../../data/systems.json' with { type: 'json' };
import factorsJson from '../../data/factors.json' with { type: 'json' };
import labelsJson from '../../data/labels.json' with { type: 'json' };
import confidenceJson from '../../data/confidence.json' with { type: 'json' };
import consistencyJson from '../../data/consistency.json' with { type: 'json' };
import calibrationJson from '../../data/calibration.json' with { type: 'json' };
import stockJson from '../../data/stock.json' with { type: 'json' };
import { BasementType, Country, EstateFormat, HeatingType, InstallationAge, InsulationLevel, type GlazingType } from '@renopath/contracts';
import { ELEMENTS, ORIENTATIONS, type Element, type OpaqueElement, type Orientation } from './types.ts';

const num = z.number();
const perElement = z.object({ roof: num, wall: num, floor: num, window: num, door: num });
const perOrientation = z.object({ E: num, S: num, W: num, N: num });
const levels = z.object({ NONE: num, LIGHT: num, MODERATE: num, STRONG: num });
const band = z.tuple([num, num]);
const levelBands = z.object({ NONE: band, LIGHT: band, MODERATE: band, STRONG: band });
const glazingNumbers = z.object({ SINGLE_GLAZING: num, DOUBLE_GLAZING: num, HR: num, TRIPLE_GLAZING: num });
const carrierTable = z.object({
  GAS: num,
  FUEL_OIL: num,
  PROPANE: num,
  ELECTRICITY: num,
  PELLET_FUEL: num,
  WOOD: num,
  DISTRICT_HEATING: num,
});
const byCountry = <T extends z.ZodType>(t: T) => z.object({ BE: t, NL: t });

const Archetype = z.object({
  code: z.string(),
  country: z.enum(['BE', 'NL']),
  years: z.tuple([num, num]),
  neighbours: num,
  roof_type: z.enum(['INCLINED', 'FLAT']),
  a_ref: num,
  area: perElement,
  h: perElement,
  du_tb: num,
  n_inf: num,
  g: num,
  window_m2: perOrientation,
  check: z.object({ h_tr: num, q_h_nd: num }),
});
export type Archetype = z.infer<typeof Archetype>;

const Cell = z.object({ archetypes: z.array(z.string()).min(1), u_from: z.string().optional() });
const Period = z.object({
  id: z.string(),
  representative_year: num,
  from: num,
  to: num,
  cells: z.object({ OPEN: Cell, SEMI_OPEN: Cell, CLOSED: Cell }),
});

export const archetypes = z.object({ archetypes: z.array(Archetype) }).parse(archetypesJson).archetypes;
const typology = z.object({ countries: byCountry(z.object({ periods: z.array(Period) })) }).parse(typologyJson);

export const climate = z
  .object({
    countries: byCountry(z.object({ heating_days: num, mean_outdoor_c: num, solar_kwh_per_m2: perOrientation.extend({ H: num }) })),
    tabula: z.object({ set_point_c: num, reduced_heating: z.boolean() }),
    heat_balance: z.object({
      internal_gains_w_per_m2: num,
      heat_capacity_wh_per_m2k: num,
      room_height_m: num,
      use_air_change_per_h: num,
      shading_vertical: num,
      frame_fraction: num,
      non_perpendicular: num,
      reduced_heating: z.object({
        house: z.object({ at_htr_1: num, at_htr_4: num }),
        apartment: z.object({ at_htr_1: num, at_htr_4: num }),
        no_reduction_at_htr: num,
      }),
      utilisation_a0: num,
      utilisation_tau0_h: num,
    }),
    design: z.object({ indoor_c: num, outdoor_c: byCountry(num) }),
    certificate_methods: z.object({
      FLANDERS: z.object({ set_point_c: num, reduced_heating: z.boolean(), climate: z.enum(['BE', 'NL']) }),
      BRUSSELS: z.object({ set_point_c: num, reduced_heating: z.boolean(), climate: z.enum(['BE', 'NL']) }),
      WALLONIA: z.object({ set_point_c: num, reduced_heating: z.boolean(), climate: z.enum(['BE', 'NL']) }),
      NETHERLANDS: z.object({ set_point_c: num, reduced_heating: z.boolean(), climate: z.enum(['BE', 'NL']) }),
    }),
  })
  .parse(climateJson);

const elementRange = z.object({ roof: band, wall: band, floor: band, window: band });
export const envelope = z
  .object({
    insulation_levels: z.object({ r_added_m2k_per_w: levels }),
    u_bands: z.object({ roof: levelBands, wall: levelBands, floor: levelBands }),
    tabula_corrections: z.object({
      u_w_per_m2k: z.record(z.string(), z.object({ roof: num.optional(), wall: num.optional(), floor: num.optional() })),
    }),
    existing_state_u_ranges: z.object({
      tolerance_share: num,
      physical_max: z.object({ roof: num, wall: num, floor: num, window: num }),
      BE: z.record(z.string(), elementRange),
      NL: z.record(z.string(), elementRange),
    }),
    cavity_fill: z.object({ r_added_m2k_per_w: num }),
    unheated_space: z.object({ r_added_m2k_per_w: num, floor_b_factor: num }),
    windows: z.object({
      frame_fraction: num,
      glass_u: glazingNumbers,
      glass_g: glazingNumbers,
      frame_u: z.object({ old: num, modern: num, triple: num }),
      edge_u: z.object({ old: num, modern: num }),
      modern_frames_years: band,
      hr_double_years: band,
      triple_needs_new_frames: z.boolean(),
      u_bands: z.object({ SINGLE_GLAZING: band, DOUBLE_GLAZING: band, HR: band, TRIPLE_GLAZING: band }),
    }),
    geometry: z.object({
      useful_to_gross: num,
      storey_height_m: num,
      inclined_roof_factor: num,
      apartment_depth_to_width: num,
      max_window_share_of_facade: num,
      min_opaque_wall_share: num,
      apartment_storeys: z.record(z.string(), num),
      apartment_types: z.array(z.string()),
      apartment_roof_exposed_by_default: z.record(z.string(), z.boolean()),
      apartment_door_m2: num,
      apartment_unknown_position: z.object({ roof_m2_per_m2: num, floor_m2_per_m2: num }),
    }),
    defaults: z.object({
      basement_type: byCountry(BasementType),
      partial_basement_share: num,
      renewed_in_renovation: z.array(z.enum(['roof', 'window'])),
    }),
    indication_defaults: z.object({ estate_format: EstateFormat, country: Country, zip_code: byCountry(z.string()) }),
  })
  .parse(envelopeJson);

const spfByEmitter = z.object({ UNKNOWN: num, RADIATORS: num, LOW_TEMPERATURE_RADIATORS: num, FLOOR_HEATING: num, AIR: num });
const generation = z.object({
  efficiency: num.optional(),
  spf: byCountry(spfByEmitter).optional(),
  heat_pump_share: num.optional(),
  backup_efficiency: num.optional(),
});
export const systems = z
  .object({
    space_heating: z.object({
      generation: z.record(z.string(), generation),
      distribution: z.object({ central: num, local: num, local_devices: z.array(z.string()) }),
      ageing: z.object({ factor_by_installation_age: z.record(InstallationAge, num) }),
      carrier_of_device: z.record(z.string(), z.string()),
      device_of_carrier: z.record(z.string(), z.string()),
    }),
    defaults: z.object({
      heating_type: byCountry(HeatingType),
      condensing_from_year_built: byCountry(num),
      condensing_ramp_half_width_years: num,
      condensing_installation_ages: z.array(InstallationAge),
      condensing_from_renovation_year: num,
      ventilation_system_c_from_year_built: num,
    }),
    hot_water: z.object({
      need_kwh_per_m2: z.object({ house: num, apartment: num }),
      netherlands: z.object({ base_kwh: num, per_m2: num, heat_pump_efficiency: num }),
      solar_fraction: num,
      efficiency: z.record(z.string(), num),
    }),
    auxiliary: z.object({ central_heating_kwh: num, ventilation_kwh: z.record(z.string(), num) }),
    ventilation: z.object({
      heat_recovery: z.record(z.string(), num),
      infiltration: z.object({
        flow_per_v50: num,
        renovated: z.object({
          n_inf: num,
          min_level: InsulationLevel,
          better_than_built: num,
          weights: z.object({ windows: num, roof: num, wall: num }),
        }),
      }),
    }),
    pv: z.object({
      yield_kwh_per_kwp: byCountry(num),
      typical_system: z.object({ house_kwp_per_m2: num, house_kwp_range: band, apartment_kwp: num }),
    }),
  })
  .parse(systemsJson);

export const factors = z
  .object({
    primary_energy: byCountry(carrierTable),
    co2_kg_per_kwh: byCountry(carrierTable),
    prices_eur_per_kwh: z.object({
      BE: carrierTable,
      NL: carrierTable,
      year: num,
      source: z.string(),
      pv: z.object({
        self_consumption_share: z.object({ BE: num, NL: num }),
        feed_in_eur_per_kwh: z.object({ BE: num, NL: num }),
        note: z.string(),
      }),
      night_tariff: z.object({ ELECTRICITY: z.object({ BE: num, NL: num }), note: z.string() }),
    }),
    expected_use: z.object({ factor_by_heat_need: z.array(z.tuple([num, num])).min(2) }),
  })
  .parse(factorsJson);

const LabelRow = z.object({ label: z.string(), upper: num.nullable(), inclusive: z.boolean() });
export const labels = z
  .object({
    scales: z.object({
      EPC_FLANDERS: z.array(LabelRow),
      EPC_BRUSSELS: z.array(LabelRow),
      EPC_WALLONIA: z.array(LabelRow),
      ENERGY_LABEL_NL: z.array(LabelRow),
    }),
    regions: z.object({
      BE: z.array(z.object({ from: num, to: num, region: z.enum(['FLANDERS', 'BRUSSELS', 'WALLONIA']) })),
      scale_of_region: z.object({
        FLANDERS: z.literal('EPC_FLANDERS'),
        BRUSSELS: z.literal('EPC_BRUSSELS'),
        WALLONIA: z.literal('EPC_WALLONIA'),
        NETHERLANDS: z.literal('ENERGY_LABEL_NL'),
      }),
    }),
  })
  .parse(labelsJson);

export const confidence = z
  .object({
    source_factor: z.object({ INPUT: num, EPC_DOCUMENT: num, LIDAR: num, PROVIDER: num, MODEL: num }),
    items: z.array(
      z.object({ item: z.string(), fields: z.array(z.string()).min(1), weight: num, flag_when_missing: z.boolean().optional() }),
    ),
    quality_labels: z.array(z.object({ label: z.enum(['A', 'B', 'C', 'D']), min: num })),
    expected_price_error: z.object({
      bands: z.array(z.object({ min: num, average_pct: num, standard_deviation_pct: num, at_least: z.boolean() })),
    }),
    segments: z.object({ factor: z.object({ FLANDERS: num, BRUSSELS: num, WALLONIA: num, NETHERLANDS: num }) }),
    flag_penalties: z.object({ penalty: z.record(z.string(), num), max_total: num }),
    expected_score_error: z.object({
      bands: z.array(z.object({ min: num, median_pct: num, within_one_label: num, extrapolated: z.boolean() })),
    }),
    /** The items of which at least one must be given or measured for the score to pass `max_score` (model-default areas cap the grade). */
    model_geometry_cap: z.object({ items: z.array(z.string()).min(1), max_score: num, note: z.string() }),
  })
  .parse(confidenceJson);

export const consistency = z
  .object({
    earliest_year_built: num,
    surface_max_ratio: z.record(z.string(), num),
    devices_by_heating_type: z.record(z.string(), z.union([z.array(z.string()), z.string()])),
  })
  .parse(consistencyJson);

export const calibration = z
  .object({
    model_version: z.string(),
    given_score: z.object({ plausible_factor_min: num, plausible_factor_max: num }),
  })
  .parse(calibrationJson);

export const StockStratum = z
  .object({
    anchor_years: z.array(num).min(1),
    level: z.array(num).min(1),
    size_coefficient: num,
    reference_area_m2: num,
    /** Additive level of the home's province (postal-code ranges of stock.json). */
    province_offsets: z.record(z.string(), num),
  })
  .refine((s) => s.anchor_years.length === s.level.length, 'one level per anchor year');
export type StockStratum = z.infer<typeof StockStratum>;
export type StockParameters = Record<string, StockStratum>;
export const stock = z
  .object({
    renovated_state: z.object({
      roof_u: num,
      wall_u: num,
      floor_u: num,
      window_u: num,
      window_g: num,
      heat_pump_share_max: num,
      pv_share_max: num,
      heat_recovery_share_max: num,
    }),
    certificate_default_state: z.object({ window_u: num, window_g: num, boiler_efficiency: num }),
    provinces: z.object({ ranges: z.array(z.tuple([num, num, z.string()])) }),
    unfitted_level: num,
    strata: z.record(z.string(), StockStratum),
  })
  .parse(stockJson);

// ---------------------------------------------------------------------------------------------
// Typology cells: one per (country, period, format), ready for the model.

export interface TypologyCell {
  country: Country;
  period: string;
  from: number;
  to: number;
  /** The year the period's archetype stands for; between two of them the model blends the periods. */
  representativeYear: number;
  format: EstateFormat;
  archetypes: string[];
  aRef: number;
  /** Envelope area per m2 of reference area. */
  ratio: Record<Element, number>;
  /** Area-weighted U_Actual (W/m2K), floors without their b-factor. */
  u: Record<Element, number>;
  g: number;
  orientationShare: Record<Orientation, number>;
  nInf: number;
  duTb: number;
  roofType: 'INCLINED' | 'FLAT';
  typical: { roof: InsulationLevel; wall: InsulationLevel; floor: InsulationLevel; window: GlazingType };
  /**
   * Each archetype's own window (TABULA U_Actual and g, its glazing class, its window area): a cell averaging two
   * archetypes of different glazing (NL 1992-2005 semi-detached: SFH.04.Semi double 2.78, TH.04.End HR 2.13) keeps
   * the window of the archetype whose glazing is the stated one, not the average of both.
   */
  windows: { glazing: GlazingType; u: number; g: number; area: number }[];
  /** U of the period's uninsulated element, where the level's added resistance goes on top. */
  bare: Record<OpaqueElement, number>;
  /** Storeys implied by reference area / (useful_to_gross x floor area). */
  storeys: number;
}

const floorB = envelope.unheated_space.floor_b_factor;

/** The archetype with the elements data/envelope.json tabula_corrections replaces (U-values that leave physics). */
function corrected(a: Archetype): Archetype {
  const fix = envelope.tabula_corrections.u_w_per_m2k[a.code];
  if (!fix) return a;
  const h = { ...a.h };
  for (const e of ['roof', 'wall', 'floor'] as const) {
    const u = fix[e];
    if (u !== undefined) h[e] = u * (e === 'floor' ? floorB : 1) * a.area[e];
  }
  return { ...a, h };
}

/** TABULA rows whose U-values the model replaced: they no longer reproduce TABULA's heat need by design. */
export const CORRECTED_ARCHETYPES: ReadonlySet<string> = new Set(Object.keys(envelope.tabula_corrections.u_w_per_m2k));

const archetypeByCode = new Map(archetypes.map((a) => [a.code, corrected(a)]));

function archetype(code: string): Archetype {
  const a = archetypeByCode.get(code);
  if (!a) throw new Error(`typology.json names unknown archetype ${code}`);
  return a;
}

export function levelOfU(element: OpaqueElement, u: number): InsulationLevel {
  const b = envelope.u_bands[element];
  if (u > b.NONE[0]) return 'NONE';
  if (u > b.LIGHT[0]) return 'LIGHT';
  if (u > b.MODERATE[0]) return 'MODERATE';
  return 'STRONG';
}

export function glazingOfU(u: number): GlazingType {
  const b = envelope.windows.u_bands;
  if (u >= b.SINGLE_GLAZING[0]) return 'SINGLE_GLAZING';
  if (u >= b.DOUBLE_GLAZING[0]) return 'DOUBLE_GLAZING';
  if (u >= b.HR[0]) return 'HR';
  return 'TRIPLE_GLAZING';
}

function buildCell(country: Country, period: z.infer<typeof Period>, format: EstateFormat): Omit<TypologyCell, 'bare'> {
  const spec = period.cells[format];
  const rows = spec.archetypes.map(archetype);
  const n = rows.length;
  const aRef = rows.reduce((s, r) => s + r.a_ref, 0) / n;
  const ratio = {} as Record<Element, number>;
  for (const e of ELEMENTS) ratio[e] = rows.reduce((s, r) => s + r.area[e] / r.a_ref, 0) / n;
  const uRows = spec.u_from ? [archetype(spec.u_from)] : rows;
  const u = {} as Record<Element, number>;
  for (const e of ELEMENTS) {
    const b = e === 'floor' ? floorB : 1;
    u[e] = uRows.reduce((s, r) => s + r.h[e], 0) / uRows.reduce((s, r) => s + b * r.area[e], 0);
  }
  const winArea = uRows.reduce((s, r) => s + r.area.window, 0);
  const g = uRows.reduce((s, r) => s + r.g * r.area.window, 0) / winArea;
  const orientationShare = {} as Record<Orientation, number>;
  const totalWin = rows.reduce((s, r) => s + ORIENTATIONS.reduce((t, o) => t + r.window_m2[o], 0), 0);
  for (const o of ORIENTATIONS) orientationShare[o] = rows.reduce((s, r) => s + r.window_m2[o], 0) / totalWin;
  const flat = rows.filter((r) => r.roof_type === 'FLAT').length;
  const storeys = rows.reduce((s, r) => s + r.a_ref / (envelope.geometry.useful_to_gross * r.area.floor), 0) / n;
  return {
    country,
    period: period.id,
    from: period.from,
    to: period.to,
    representativeYear: period.representative_year,
    format,
    archetypes: spec.archetypes,
    aRef,
    ratio,
    u,
    g,
    orientationShare,
    nInf: rows.reduce((s, r) => s + r.n_inf, 0) / n,
    duTb: rows.reduce((s, r) => s + r.du_tb, 0) / n,
    roofType: flat * 2 > n ? 'FLAT' : 'INCLINED',
    typical: {
      roof: levelOfU('roof', u.roof),
      wall: levelOfU('wall', u.wall),
      floor: levelOfU('floor', u.floor),
      window: glazingOfU(u.window),
    },
    windows: uRows.map((r) => ({
      glazing: glazingOfU(r.h.window / r.area.window),
      u: r.h.window / r.area.window,
      g: r.g,
      area: r.area.window,
    })),
    storeys,
  };
}

function buildCountry(country: Country): TypologyCell[] {
  const periods = typology.countries[country].periods;
  const partial = periods.flatMap((p) => EstateFormat.options.map((f) => buildCell(country, p, f)));
  // The bare element of an insulated period: the latest earlier period (same format) whose element was uninsulated.
  return partial.map((cell) => {
    const bare = {} as Record<OpaqueElement, number>;
    for (const e of ['roof', 'wall', 'floor'] as const) {
      if (cell.typical[e] === 'NONE') {
        bare[e] = cell.u[e];
        continue;
      }
      const earlier = partial.filter((c) => c.format === cell.format && c.to < cell.from && c.typical[e] === 'NONE');
      const last = earlier[earlier.length - 1];
      if (!last) throw new Error(`no uninsulated ${e} before ${cell.period} ${cell.format}`);
      bare[e] = last.u[e];
    }
    return { ...cell, bare };
  });
}

const cells: Record<Country, TypologyCell[]> = { BE: buildCountry('BE'), NL: buildCountry('NL') };

export function typologyCell(country: Country, yearBuilt: number, format: EstateFormat): TypologyCell {
  const list = cells[country];
  for (const c of list) if (c.format === format && yearBuilt >= c.from && yearBuilt <= c.to) return c;
  // Before the first or after the last period: take the nearest.
  const ofFormat = list.filter((c) => c.format === format);
  return yearBuilt < ofFormat[0]!.from ? ofFormat[0]! : ofFormat[ofFormat.length - 1]!;
}

/** Two neighbouring periods and the weight of the first: a home between their representative years is a blend of both. */
export interface CellBlend {
  a: TypologyCell;
  b: TypologyCell;
  /** Weight of a (1 at a's representative year, 0 at b's). */
  w: number;
  /** The nearer of the two: its discrete traits (period name, typical levels, roof type). */
  near: TypologyCell;
}

const blendCache = new Map<string, CellBlend>();

export function cellBlend(country: Country, year: number, format: EstateFormat): CellBlend {
  const key = `${country}${format}${year}`;
  const hit = blendCache.get(key);
  if (hit) return hit;
  const list = cells[country].filter((c) => c.format === format);
  let out: CellBlend;
  if (year <= list[0]!.representativeYear) out = { a: list[0]!, b: list[0]!, w: 1, near: list[0]! };
  else if (year >= list[list.length - 1]!.representativeYear) {
    const last = list[list.length - 1]!;
    out = { a: last, b: last, w: 1, near: last };
  } else {
    const i = list.findIndex((c) => c.representativeYear > year);
    const a = list[i - 1]!;
    const b = list[i]!;
    const w = (b.representativeYear - year) / (b.representativeYear - a.representativeYear);
    out = { a, b, w, near: typologyCell(country, year, format) };
  }
  if (blendCache.size < 10_000) blendCache.set(key, out);
  return out;
}

const lerp = (x: number, y: number, w: number) => w * x + (1 - w) * y;
function lerpRecord<K extends string>(x: Record<K, number>, y: Record<K, number>, w: number): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of Object.keys(x) as K[]) out[k] = lerp(x[k], y[k], w);
  return out;
}

/** Blends are cached (cellBlend), so each blended cell is made once and shared, like the data's own cells. */
const blendedCells = new WeakMap<CellBlend, TypologyCell>();

/** The blended archetype: numeric traits weighted, discrete traits of the nearer period. */
export function blendedCell(b: CellBlend): TypologyCell {
  if (b.a === b.b) return b.a;
  let cell = blendedCells.get(b);
  if (cell === undefined) blendedCells.set(b, (cell = blend(b)));
  return cell;
}

function blend(b: CellBlend): TypologyCell {
  const { a, b: c, w } = b;
  return {
    ...b.near,
    aRef: lerp(a.aRef, c.aRef, w),
    ratio: lerpRecord(a.ratio, c.ratio, w),
    u: lerpRecord(a.u, c.u, w),
    g: lerp(a.g, c.g, w),
    orientationShare: lerpRecord(a.orientationShare, c.orientationShare, w),
    nInf: lerp(a.nInf, c.nInf, w),
    duTb: lerp(a.duTb, c.duTb, w),
    bare: lerpRecord(a.bare, c.bare, w),
    storeys: lerp(a.storeys, c.storeys, w),
  };
}

export function allCells(): TypologyCell[] {
  return [...cells.BE, ...cells.NL];
}

export const MODEL_VERSION = calibration.model_version;
