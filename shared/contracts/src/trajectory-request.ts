import { z } from 'zod';
import {
  BasementType, Country, EcoFacility, EstateFormat, EstateType, GlazingType, HeatingDevice, HeatingType,
  InsulationLevel, RoofType, SanitaryHeatingDevice, VentilationType,
} from './enums.ts';

/**
 * The suggested-renovation-trajectory request (API.md 5.1). The property fields are also the energy
 * model's input: the catalogue expresses a measure's energy effect as a patch of these fields.
 * Units: surfaces and habitable space in m2; width, depth and cornice height in m; cavity width in cm.
 */
/** No real home reaches a million m2 or metres: a bound that keeps nonsense like 1e308 out of the model. */
const atLeastOne = () => z.number().min(1).max(1_000_000);
const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

export const PropertyFields = {
  // required
  year_built: z.number().int(),
  estate_format: EstateFormat,
  habitable_space_m2: atLeastOne(),
  zip_code: z.string().min(1).max(16),
  country: Country,
  // building
  estate_type: EstateType.optional(),
  year_renovated: z.number().int().optional(),
  number_of_floors: z.number().int().min(1).optional(),
  building_width: atLeastOne().optional(),
  building_depth: atLeastOne().optional(),
  cornice_height: atLeastOne().optional(),
  /** A known current EPC score on the region's scale: the model is calibrated to it. */
  energy_efficiency_score: z.number().optional(),
  // roof
  roof_type: RoofType.optional(),
  inclined_roof_surface: atLeastOne().optional(),
  inclined_roof_insulation_type: InsulationLevel.optional(),
  flat_roof_surface: atLeastOne().optional(),
  flat_roof_insulation_type: InsulationLevel.optional(),
  // walls
  /** Opaque outer-wall area (m2), windows and doors excluded: what insulation would cover. */
  outer_wall_surface: atLeastOne().optional(),
  outer_wall_insulation_type: InsulationLevel.optional(),
  has_cavity_wall: z.boolean().optional(),
  cavity_wall_width: atLeastOne().optional(),
  has_cavity_wall_insulation: z.boolean().optional(),
  // windows
  /** Total glazed area including frames (m2). */
  window_surface: atLeastOne().optional(),
  window_glazing_type: GlazingType.optional(),
  // floor
  basement_type: BasementType.optional(),
  basement_ceiling_surface: atLeastOne().optional(),
  floor_above_basement_insulation_type: InsulationLevel.optional(),
  solid_ground_floor_surface: atLeastOne().optional(),
  solid_ground_floor_insulation_type: InsulationLevel.optional(),
  // systems
  ventilation_type: VentilationType.optional(),
  heating_type: HeatingType.optional(),
  heating_device: HeatingDevice.optional(),
  /** Age of the heating installation in years. */
  installation_age: z.number().int().min(0).optional(),
  sanitary_heating_device: SanitaryHeatingDevice.optional(),
  solar_panels_kwp: z.number().min(0).optional(),
  has_solar_boiler: z.boolean().optional(),
  eco_facilities: z.array(EcoFacility).optional(),
} as const;

/** The property description alone: what the energy model reads. */
export const PropertyDescription = z.strictObject(PropertyFields);
export type PropertyDescription = z.infer<typeof PropertyDescription>;

/** The job request: the property plus job fields. Unknown properties are rejected (406). */
export const TrajectoryRequest = z.strictObject({
  ...PropertyFields,
  external_id: z.string().min(1).max(255).optional(),
  title: z.string().max(255).optional(),
  description: z.string().max(5000).optional(),
  webhook_url: httpUrl().optional(),
  epc_url: httpUrl().optional(),
});
export type TrajectoryRequest = z.infer<typeof TrajectoryRequest>;

/** The property fields, by name: the keys a catalogue effect may patch. */
export type PropertyField = keyof typeof PropertyFields;
export const PROPERTY_FIELD_NAMES = Object.keys(PropertyFields) as PropertyField[];
