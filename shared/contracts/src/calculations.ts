import { z } from 'zod';
import {
  Country, EcoFacility, EstateFormat, EstateType, GlazingType, GroundFloorType, HeatingDevice, HeatingType, InsulationLevel,
  RoofType, SanitaryHeatingDevice, VentilationType,
} from './enums.ts';
import { Timestamp, Uuid } from './identity.ts';

/**
 * Calculations context (INTERFACE.md "Calculation job", "Synchronous indication request";
 * API.md 4.1, 4.2). The job endpoints and their workers arrive with the calculation-jobs issue; the
 * shapes are fixed here so every context builds on the same names.
 */

export const CalculationJobType = z.enum(['EPC_DOCUMENT_PROCESSING', 'ENERGY_EFFICIENCY_INDICATION', 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION']);
export const CalculationJobStatus = z.enum(['NOT_STARTED', 'RUNNING', 'FINISHED', 'FAILED', 'STOPPED']);
export type CalculationJobType = z.infer<typeof CalculationJobType>;
export type CalculationJobStatus = z.infer<typeof CalculationJobStatus>;

/** A calculation job: every field always present (null when not known yet). */
export const CalculationJob = z.object({
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  external_id: z.string().nullable(),
  deactivated_at: Timestamp.nullable(),
  calculation_job_type: CalculationJobType,
  calculation_job_status: CalculationJobStatus,
  /** `{}` until the job finishes; the trajectory result of API.md 4.1 after. */
  metadata: z.record(z.string(), z.unknown()),
  estate_id: Uuid.nullable(),
  /** The request's `title`. */
  name: z.string().nullable(),
  description: z.string().nullable(),
  expires_at: Timestamp.nullable(),
  published_at: Timestamp.nullable(),
});
export type CalculationJob = z.infer<typeof CalculationJob>;

// ---- the synchronous energy-efficiency indication (old style) ----

/** `POST /calculations?calculation_type=ENERGY_EFFICIENCY`: other values are 400. */
export const IndicationCalculationType = z.enum(['ENERGY_EFFICIENCY']);
export const IndicationQuery = z.strictObject({ calculation_type: IndicationCalculationType });

const atLeastOne = () => z.number().min(1).max(1_000_000);

/**
 * The old-style indication body, every field under INTERFACE.md's name. `year_built` and
 * `habitable_space_m2` are required (nothing can be indicated without them); the rest is filled from
 * the typology of the home's age when missing. `zip_code`, `country` and `estate_format` are
 * extensions (default: Flanders, semi-detached).
 */
export const IndicationRequest = z.strictObject({
  year_built: z.number().int().min(1),
  eco_facilities: z.array(EcoFacility).max(EcoFacility.options.length).optional(),
  estate_roof_type: RoofType.optional(),
  habitable_space_m2: atLeastOne(),
  outer_wall_insulation_type: InsulationLevel.optional(),
  roof_insulation_type: InsulationLevel.optional(),
  window_type: GlazingType.optional(),
  ventilation_type: VentilationType.optional(),
  heating_device: HeatingDevice.optional(),
  ground_floor_type: GroundFloorType.optional(),
  ground_floor_insulation_type: InsulationLevel.optional(),
  estate_type: EstateType.optional(),
  sanitary_heating_device: SanitaryHeatingDevice.optional(),
  heating_type: HeatingType.optional(),
  // extensions
  zip_code: z.string().min(1).max(16).optional(),
  country: Country.optional(),
  estate_format: EstateFormat.optional(),
});
export type IndicationRequest = z.infer<typeof IndicationRequest>;

export const IndicationStatus = z.enum(['FINISHED', 'FAILED']);

/** The indication record: `metadata` holds the result and its disclaimer (API.md 4.2). */
export const IndicationRecord = z.object({
  id: Uuid,
  calculation_status: IndicationStatus,
  calculation_type: IndicationCalculationType,
  metadata: z.object({
    epc_score: z.number().nullable(),
    epc_label: z.string().nullable(),
    energy_efficiency_type: z.string().nullable(),
    region: z.string().nullable(),
    confidence_score: z.number().nullable(),
    disclaimer: z.string(),
  }).partial().extend({ disclaimer: z.string() }),
});
export type IndicationRecord = z.infer<typeof IndicationRecord>;
