import { z } from 'zod';
import { Country, EstateFormat, EstateProviderType, EstateStatus, EstateType, GroundFloorType, InsulationLevel } from '../enums.ts';
import { Uuid } from '../identity.ts';
import { PropertyFields } from '../trajectory-request.ts';
import { multiLine } from '../text.ts';
import {
  asInRequest,
  atLeastOne,
  ecoFacilities,
  nestedInput,
  nonEmpty,
  nullable,
  optionalFields,
  readOnlyShape,
  text,
  year,
} from './schema.ts';

// The estate's own fields and the bodies that create and change it.

/** The interface `address`. */
export const AddressRules = {
  street: nullable(text(255)),
  house_number: nullable(text(32)),
  house_number_extra: nullable(text(32)),
  zip_code: nullable(text(16)),
  place: nullable(text(255)),
  country: nullable(Country),
} as const;

/** The interface `commercial_context` as written; reads add `commercial_media_files` (the estate's media). */
export const CommercialContextRules = {
  price: asInRequest(PropertyFields.price),
} as const;

/** The interface `energy_context`, then (extension) the trajectory request's other energy fields. */
export const EnergyContextRules = {
  heating_type: asInRequest(PropertyFields.heating_type),
  heating_device: asInRequest(PropertyFields.heating_device),
  sanitary_heating_device: asInRequest(PropertyFields.sanitary_heating_device),
  eco_facilities: ecoFacilities,
  ground_floor_insulation_type: nullable(InsulationLevel),
  outer_wall_insulation_type: asInRequest(PropertyFields.outer_wall_insulation_type),
  // EPC scores go below zero (Flanders A+, Dutch energy-positive homes); the request's `energy_efficiency_score`.
  epc_score: nullable(z.number().min(-1000).max(5000)),
  // extensions
  ventilation_type: asInRequest(PropertyFields.ventilation_type),
  window_glazing_type: asInRequest(PropertyFields.window_glazing_type),
  window_glazing_surface: asInRequest(PropertyFields.window_glazing_surface),
  has_cavity_wall: asInRequest(PropertyFields.has_cavity_wall),
  cavity_wall_width: asInRequest(PropertyFields.cavity_wall_width),
  has_cavity_wall_insulation: asInRequest(PropertyFields.has_cavity_wall_insulation),
  outer_wall_surface: asInRequest(PropertyFields.outer_wall_surface),
  basement_type: asInRequest(PropertyFields.basement_type),
  basement_ceiling_surface: asInRequest(PropertyFields.basement_ceiling_surface),
  basement_ceiling_height: asInRequest(PropertyFields.basement_ceiling_height),
  floor_above_basement_insulation_type: asInRequest(PropertyFields.floor_above_basement_insulation_type),
  solid_ground_floor_insulation_type: asInRequest(PropertyFields.solid_ground_floor_insulation_type),
  ground_floor_surface: asInRequest(PropertyFields.ground_floor_surface),
  /** Old-style summary of what the ground floor rests on; the detailed basement fields win when both are given. */
  ground_floor_type: nullable(GroundFloorType),
  installation_age: asInRequest(PropertyFields.installation_age),
  has_solar_panels: asInRequest(PropertyFields.has_solar_panels),
  solar_panels_kwp: asInRequest(PropertyFields.solar_panels_kwp),
  has_solar_boiler: asInRequest(PropertyFields.has_solar_boiler),
  attic_usage: asInRequest(PropertyFields.attic_usage),
  has_renewed_window_frames: asInRequest(PropertyFields.has_renewed_window_frames),
  air_tightness_v50: asInRequest(PropertyFields.air_tightness_v50),
  heat_emitter_type: asInRequest(PropertyFields.heat_emitter_type),
} as const;

/** The interface `dimensions`, in centimetres; `height_cm` is the cornice height. */
export const DimensionsRules = {
  width_cm: nullable(atLeastOne()),
  depth_cm: nullable(atLeastOne()),
  height_cm: nullable(atLeastOne()),
} as const;

/** The estate's own top-level fields, every one nullable (unknown). */
export const EstateOwnFieldRules = {
  external_id: nullable(text(255)),
  managing_user_id: nullable(Uuid),
  year_built: nullable(year()),
  year_renovated: nullable(year()),
  estate_type: nullable(EstateType),
  estate_format: nullable(EstateFormat),
  estate_status: nullable(EstateStatus),
  habitable_space_m2: nullable(atLeastOne()),
  ground_surface_m2: nullable(atLeastOne()),
  // extensions
  name: nullable(text(255)),
  description: nullable(multiLine(5000)),
  number_of_floors: nullable(z.number().int().min(1).max(200)),
} as const;

export const EstateAddress = z.object(AddressRules);
export const EstateCommercialFields = z.object(CommercialContextRules);
export const EstateEnergyContext = z.object(EnergyContextRules);
export const EstateDimensions = z.object(DimensionsRules);
export type EstateAddress = z.infer<typeof EstateAddress>;
export type EstateEnergyContext = z.infer<typeof EstateEnergyContext>;
export type EstateDimensions = z.infer<typeof EstateDimensions>;

/** Every estate field with its value (events and read models carry all of them). */
export const EstateFieldValues = z.object({
  ...EstateOwnFieldRules,
  address: EstateAddress,
  commercial_context: EstateCommercialFields,
  energy_context: EstateEnergyContext,
  dimensions: EstateDimensions,
});
export type EstateFieldValues = z.infer<typeof EstateFieldValues>;

/** What an EstateUpdated event changed: top-level fields, and only the changed fields of a nested object. */
export const EstateChanges = z.object({
  ...optionalFields(EstateOwnFieldRules),
  address: EstateAddress.partial().optional(),
  commercial_context: EstateCommercialFields.partial().optional(),
  energy_context: EstateEnergyContext.partial().optional(),
  dimensions: EstateDimensions.partial().optional(),
});
export type EstateChanges = z.infer<typeof EstateChanges>;

/** Fields the service sets or that belong to sub-resources: never in a create or PATCH body. */
export const ESTATE_READ_ONLY_FIELDS = [
  'id',
  'organization_id',
  'created_at',
  'updated_at',
  'quality_label',
  'referral_link',
  'roofs',
  'floors',
  'files',
  'media',
  'members',
] as const;

const estateBodyShape = {
  ...optionalFields(EstateOwnFieldRules),
  address: nestedInput(AddressRules),
  commercial_context: nestedInput(CommercialContextRules, ['commercial_media_files']),
  // `eco_facilities: null` clears the list, like null clears any other field.
  energy_context: nestedInput({ ...EnergyContextRules, eco_facilities: ecoFacilities.nullable() }),
  dimensions: nestedInput(DimensionsRules),
};

/** POST /estates: no field is required (data quality decides what planning can do), every given one is checked. */
export const CreateEstateBody = z.strictObject({
  ...estateBodyShape,
  estate_provider_type: EstateProviderType.optional(),
  ...readOnlyShape(ESTATE_READ_ONLY_FIELDS),
});
export type CreateEstateBody = z.infer<typeof CreateEstateBody>;

/** PATCH /estates/{id}: the estate's own fields (also managing_user_id); nested objects merge; the provider is fixed at creation. */
export const UpdateEstateBody = z
  .strictObject({
    ...estateBodyShape,
    ...readOnlyShape([...ESTATE_READ_ONLY_FIELDS, 'estate_provider_type']),
  })
  .refine((b) => Object.keys(b).length > 0, nonEmpty)
  .meta({ minProperties: 1 });
export type UpdateEstateBody = z.infer<typeof UpdateEstateBody>;
