import { z } from 'zod';
import { Household } from './household.ts';
import { MeteredUse } from './metered-use.ts';
import { textRules } from './text.ts';
import {
  AtticUsage,
  BasementCeilingHeight,
  BasementType,
  CavityWallWidth,
  Country,
  EcoFacility,
  EstateFormat,
  EstateType,
  FacadeMaterial,
  FloorAboveBasementInsulation,
  FloorPosition,
  GlazingType,
  HeatEmitterType,
  HeatingDevice,
  HeatingType,
  HeritageStatus,
  InstallationAge,
  InsulationLevel,
  RoofType,
  SanitaryHeatingDevice,
  VentilationType,
} from './enums.ts';

/**
 * The suggested-renovation-trajectory request (the interface's "Suggested-trajectory request body",
 * docs/http-contract.md "Trajectory jobs"). Its names, types and enums are binding; fields marked "extension" go beyond it.
 * The property fields are also the energy model's input: the catalogue expresses a measure's energy
 * effect as a patch of these fields.
 * Units (docs/http-contract.md "General rules"): `*_surface` and `habitable_space_m2` in m2; `building_width`, `building_depth`
 * and `cornice_height` in metres.
 */
/** Numbers with a minimum are >= 1; no real home reaches a million m2 or metres, a bound that keeps 1e308 out. */
const atLeastOne = () => z.number().min(1).max(1_000_000);
// Control characters, unpaired surrogates and bidi overrides are never data: text.ts.
const text = (max: number) => z.string().max(max).superRefine(textRules(true));
const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

export const PropertyFields = {
  // required
  year_built: z.number().int().min(1),
  estate_format: EstateFormat,
  habitable_space_m2: atLeastOne(),
  zip_code: z.string().min(1).max(16),
  country: Country,
  // roof
  roof_type: RoofType.optional(),
  inclined_roof_pane_surface: atLeastOne().optional(),
  flat_roof_pane_surface: atLeastOne().optional(),
  inclined_roof_insulation_type: InsulationLevel.optional(),
  flat_roof_insulation_type: InsulationLevel.optional(),
  attic_usage: AtticUsage.optional(),
  // systems
  heating_type: HeatingType.optional(),
  heating_device: HeatingDevice.optional(),
  sanitary_heating_device: SanitaryHeatingDevice.optional(),
  installation_age: InstallationAge.optional(),
  has_solar_panels: z.boolean().optional(),
  has_solar_boiler: z.boolean().optional(),
  // floor
  /** Area of the ground floor (m2): the floor that loses heat to the ground, a crawl space or a basement. */
  ground_floor_surface: atLeastOne().optional(),
  basement_type: BasementType.optional(),
  basement_ceiling_surface: atLeastOne().optional(),
  basement_ceiling_height: BasementCeilingHeight.optional(),
  solid_ground_floor_insulation_type: InsulationLevel.optional(),
  floor_above_basement_insulation_type: FloorAboveBasementInsulation.optional(),
  // walls
  outer_wall_insulation_type: InsulationLevel.optional(),
  has_cavity_wall: z.boolean().optional(),
  cavity_wall_width: CavityWallWidth.optional(),
  has_cavity_wall_insulation: z.boolean().optional(),
  // windows
  window_glazing_type: GlazingType.optional(),
  /** Total glazed area including frames (m2). */
  window_glazing_surface: atLeastOne().optional(),
  // geometry (metres)
  building_width: atLeastOne().optional(),
  building_depth: atLeastOne().optional(),
  cornice_height: atLeastOne().optional(),
  /** A known current EPC score on the region's scale (no bound: scores go below zero). */
  energy_efficiency_score: z.number().min(-10_000).max(10_000).optional(),
  // address and price
  street: text(255).optional(),
  house_number: text(32).optional(),
  house_number_extra: text(32).optional(),
  place: text(255).optional(),
  price: atLeastOne().optional(),
  // extensions
  /** Extension: the kind of home; apartments expose fewer elements. */
  estate_type: EstateType.optional(),
  /** Extension: the year of the last deep renovation. */
  year_renovated: z.number().int().min(1).optional(),
  /** Extension: storeys above ground. */
  number_of_floors: z.number().int().min(1).max(200).optional(),
  /** Extension: opaque outer-wall area (m2), windows and doors excluded: what insulation would cover. */
  outer_wall_surface: atLeastOne().optional(),
  /** Extension: ventilation system (old-style `ventilation_type` values). */
  ventilation_type: VentilationType.optional(),
  /** Extension: peak power of the solar panels (kWp); `has_solar_panels` alone gets a typical system. */
  solar_panels_kwp: z.number().min(0).max(1000).optional(),
  /**
   * Extension: the window frames were renewed with the glazing (modern insulated frames). Without it,
   * HR or triple glass may sit in old frames (glass-only replacement), which insulate less.
   */
  has_renewed_window_frames: z.boolean().optional(),
  /** Extension: measured air permeability at 50 Pa, v50 in m3/(h.m2) (a blower-door test). */
  air_tightness_v50: z.number().min(0.1).max(50).optional(),
  /** Extension: the heat emitters (they set a heat pump's flow temperature). */
  heat_emitter_type: HeatEmitterType.optional(),
  /** Extension: the estate's eco facilities (the interface's estate `energy_context.eco_facilities`). */
  eco_facilities: z.array(EcoFacility).max(EcoFacility.options.length).optional(),
  /** Extension: heritage protection of the facade or building (interior insulation, wooden frames, a permit). */
  heritage_status: HeritageStatus.optional(),
  /** Extension: the outer walls' outside face (natural stone is insulated from inside or not at all). */
  facade_material: FacadeMaterial.optional(),
  /** Extension, flats: where the flat sits in its building (a middle floor has neither roof nor ground floor of its own). */
  floor_position: FloorPosition.optional(),
  /**
   * Extension, flats: the flat's share of the co-ownership (VME in Belgium, VvE in the Netherlands) as a
   * fraction (0.085 for 85/1000): the association's works on roof, facades and common parts are billed by it.
   */
  co_ownership_share: z.number().gt(0).max(1).optional(),
} as const;

/** The property description alone: what the energy model reads. */
export const PropertyDescription = z.strictObject(PropertyFields);
export type PropertyDescription = z.infer<typeof PropertyDescription>;

/** Fields of the job itself, not of the property. */
export const TrajectoryJobFields = {
  title: text(255).optional(),
  description: z.string().max(5000).superRefine(textRules(true)).optional(),
  epc_url: httpUrl().optional(),
  external_id: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      "Your own id of the home (a CRM's): the job creates the estate with this external_id, or updates the organization's estate that has it, and answers with its estate_id; GET /v1/estates?external_id= and GET /v1/calculation-jobs?external_id= find them again.",
    ),
  webhook_url: httpUrl().optional(),
  /** Extension: the household (occupancy, income, purchase date): which obligations, grants and loans apply. */
  household: Household.optional(),
  /** Extension: the household's metered use (a yearly figure or monthly readings): the bill and savings of the calibrated home. */
  metered_use: MeteredUse.optional(),
} as const;

/** The job request: the property plus job fields. Unknown properties are rejected (406). */
export const TrajectoryRequest = z.strictObject({ ...PropertyFields, ...TrajectoryJobFields });
export type TrajectoryRequest = z.infer<typeof TrajectoryRequest>;

/** The property fields, by name: the keys a catalogue effect may patch. */
export type PropertyField = keyof typeof PropertyFields;
export const PROPERTY_FIELD_NAMES = Object.keys(PropertyFields) as PropertyField[];

/** The property part of a job request (drops the job's own fields). */
export function propertyOf(request: TrajectoryRequest): PropertyDescription {
  const {
    title: _t,
    description: _d,
    epc_url: _e,
    external_id: _x,
    webhook_url: _w,
    household: _h,
    metered_use: _m,
    ...property
  } = request;
  return property;
}
