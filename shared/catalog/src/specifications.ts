import { z } from 'zod';
import type { Region, StepSpecification } from '@renopath/contracts';
import specificationsJson from '../data/specifications.json' with { type: 'json' };
import { findNode } from './catalogue.ts';

/** What each planned measure builds (data/specifications.json), validated at import like every catalogue file. */
const Measure = z.strictObject({
  r_value: z.number().positive().optional(),
  r_value_by_region: z.record(z.string(), z.number().positive()).optional(),
  lambda: z.number().positive().optional(),
  material_class: z.string().optional(),
  thickness_note: z.string().optional(),
  glazing_u_value: z.number().positive().optional(),
  frame_u_value: z.number().positive().optional(),
  frame: z.string().optional(),
  scop: z.number().positive().optional(),
  summary: z.string().optional(),
});
const Specifications = z.strictObject({
  description: z.string(),
  existing_layers_r_m2k_w: z.number().nonnegative(),
  heat_pump_kw_bands: z.array(z.number().positive()).min(1),
  year: z.number().int(),
  source: z.string().min(5),
  note: z.string(),
  measures: z.record(z.string(), Measure),
});
export const SPECIFICATIONS = Specifications.parse(specificationsJson);

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The kW band a heat pump is sold in that covers a design heat load (the largest band when none does). */
export function heatPumpBand(designLoadKw: number): number {
  const bands = SPECIFICATIONS.heat_pump_kw_bands;
  return bands.find((b) => b >= designLoadKw) ?? bands[bands.length - 1]!;
}

/** A measure priced by its power band (HEAT_PUMP_AIR_WATER_6KW) belongs to its family's measure (HEAT_PUMP_AIR_WATER). */
export function bandFamilyOf(type: string): string {
  return type.replace(/_\d+KW$/, '');
}

/**
 * The catalogue leaf of a heat pump priced by power for a design heat load: the family's leaf of the
 * band that covers the load (the largest band when none does); the family itself when it has no band leaves.
 */
export function heatPumpLeaf(type: string, designLoadKw: number): string {
  const leaf = `${bandFamilyOf(type)}_${heatPumpBand(designLoadKw)}KW`;
  return findNode(leaf) ? leaf : type;
}

/**
 * The specification of a measure in a region: the insulation's R and thickness (R x lambda, whole cm),
 * the U after the works, the glass and frame, a heat pump's SCOP and `powerKw` (its band, or the panels' kWp).
 */
export function specificationOf(type: string, region: Region, powerKw: number | null = null): StepSpecification {
  const m = SPECIFICATIONS.measures[type] ?? SPECIFICATIONS.measures[bandFamilyOf(type)];
  const source = SPECIFICATIONS.source;
  if (!m) {
    return {
      summary: 'no specification is held for this measure yet',
      target_u_value: null,
      target_r_value: null,
      insulation_thickness_cm: null,
      material_class: null,
      glazing_u_value: null,
      frame: null,
      scop: null,
      power_kw: powerKw,
      source,
    };
  }
  const r = m.r_value_by_region?.[region] ?? m.r_value ?? null;
  const thickness = r !== null && m.lambda !== undefined && !m.thickness_note ? Math.ceil(r * m.lambda * 100) : null;
  const u = r !== null ? round2(1 / (r + SPECIFICATIONS.existing_layers_r_m2k_w)) : (m.frame_u_value ?? null);
  const words: string[] = [];
  if (r !== null) {
    words.push(
      `R >= ${r} m2K/W (${thickness !== null ? `about ${thickness} cm` : m.thickness_note} of ${m.material_class}), U about ${u} W/m2K after the works`,
    );
  }
  if (m.frame) words.push(`${m.frame}${m.frame_u_value ? `, window Uw <= ${m.frame_u_value} W/m2K` : ''}`);
  if (m.summary) words.push(m.summary);
  if (powerKw !== null && m.scop !== undefined) words.push(`${powerKw} kW`);
  if (powerKw !== null && type === 'SOLAR_PANELS') words.push(`${powerKw} kWp`);
  return {
    summary: words.join('; '),
    target_u_value: u,
    target_r_value: r,
    insulation_thickness_cm: thickness,
    material_class: m.material_class ?? null,
    glazing_u_value: m.glazing_u_value ?? null,
    frame: m.frame ?? null,
    scop: m.scop ?? null,
    power_kw: powerKw,
    source,
  };
}
