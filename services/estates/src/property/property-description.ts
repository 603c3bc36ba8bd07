import {
  PropertyDescription,
  type CreateEstateBody,
  type EstateFieldValues,
  type InsulationLevel,
  type RoofFieldValues,
} from '@renopath/contracts';

/**
 * The bridge between an estate and the energy model's input (the trajectory request's property).
 * Names are shared; the differences are spelled out here, once:
 * - `estate_roof_type` is the request's `roof_type`;
 * - `dimensions.*_cm` (centimetres) are `building_width`, `building_depth`, `cornice_height` (metres);
 * - the roof surfaces and insulation live on the estate's roofs, one per roof type;
 * - the old-style `ground_floor_type` / `ground_floor_insulation_type` fill in the detailed floor fields
 *   when those are unknown.
 */

/** The five fields without which the model cannot say anything (API.md 5.1). */
export const REQUIRED_PROPERTY_FIELDS = ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'] as const;

type RoofLike = Pick<RoofFieldValues, 'estate_roof_type' | 'surface_m2' | 'insulation_type'>;

export interface EstateData {
  fields: EstateFieldValues;
  roofs: readonly RoofLike[];
}

const copied = [
  'year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country', 'estate_type', 'year_renovated', 'number_of_floors',
  'energy_efficiency_score', 'outer_wall_surface', 'outer_wall_insulation_type', 'has_cavity_wall', 'cavity_wall_width',
  'has_cavity_wall_insulation', 'window_surface', 'window_glazing_type', 'basement_type', 'basement_ceiling_surface',
  'floor_above_basement_insulation_type', 'solid_ground_floor_surface', 'solid_ground_floor_insulation_type', 'ventilation_type',
  'heating_type', 'heating_device', 'installation_age', 'sanitary_heating_device', 'solar_panels_kwp', 'has_solar_boiler',
] as const satisfies readonly (keyof EstateFieldValues & keyof PropertyDescription)[];

const toMetres = (cm: number | null) => (cm === null ? undefined : Math.round(cm * 10) / 1000);
const toCentimetres = (m: number | undefined) => (m === undefined ? null : Math.round(m * 100_000) / 1000);

/** The estate's own data as the model's input; null when one of the five required fields is unknown. */
export function propertyFromEstate({ fields: f, roofs }: EstateData): PropertyDescription | null {
  if (REQUIRED_PROPERTY_FIELDS.some((name) => f[name] === null)) return null;
  const p: Record<string, unknown> = {};
  for (const name of copied) if (f[name] !== null) p[name] = f[name];
  if (f.eco_facilities.length > 0) p['eco_facilities'] = f.eco_facilities;

  p['building_width'] = toMetres(f.dimensions.width_cm);
  p['building_depth'] = toMetres(f.dimensions.depth_cm);
  p['cornice_height'] = toMetres(f.dimensions.cornice_height_cm);

  if (f.estate_roof_type !== null) p['roof_type'] = f.estate_roof_type;
  for (const type of ['INCLINED', 'FLAT'] as const) {
    // The request rejects a roof type together with the other type's fields (API.md 5.3).
    if (f.estate_roof_type !== null && f.estate_roof_type !== type) continue;
    const { surface, insulation } = roofSummary(roofs.filter((r) => r.estate_roof_type === type));
    const prefix = type === 'INCLINED' ? 'inclined_roof' : 'flat_roof';
    if (surface !== undefined) p[`${prefix}_surface`] = surface;
    if (insulation !== undefined) p[`${prefix}_insulation_type`] = insulation;
  }

  fillGroundFloor(p, f);
  for (const [key, value] of Object.entries(p)) if (value === undefined) delete p[key];
  // What the estate accepts is a superset of the model's minimums (a 0.5 m wide dimension, say): keep only what the model takes.
  const parsed = PropertyDescription.safeParse(p);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete p[String(issue.path[0])];
  const retried = PropertyDescription.safeParse(p);
  return retried.success ? retried.data : null;
}

/** Surfaces add up; the insulation is that of the largest roof of the type whose insulation is known. */
function roofSummary(roofs: readonly RoofLike[]): { surface?: number; insulation?: InsulationLevel } {
  const withSurface = roofs.filter((r) => r.surface_m2 !== null);
  const surface = withSurface.length ? withSurface.reduce((sum, r) => sum + r.surface_m2!, 0) : undefined;
  const insulated = roofs.filter((r) => r.insulation_type !== null).sort((a, b) => (b.surface_m2 ?? 0) - (a.surface_m2 ?? 0));
  const out: { surface?: number; insulation?: InsulationLevel } = {};
  if (surface !== undefined && surface >= 1) out.surface = surface;
  if (insulated[0]) out.insulation = insulated[0].insulation_type!;
  return out;
}

/** The old-style ground-floor summary stands in for the detailed fields the estate does not have. */
function fillGroundFloor(p: Record<string, unknown>, f: EstateFieldValues) {
  const level = f.ground_floor_insulation_type;
  switch (f.ground_floor_type) {
    case 'SOLID_GROUND_FLOOR':
      p['basement_type'] ??= 'NONE';
      if (level !== null) p['solid_ground_floor_insulation_type'] ??= level;
      return;
    case 'FLOOR_ABOVE_BASEMENT':
      p['basement_type'] ??= 'UNHEATED';
      if (level !== null && p['basement_type'] !== 'NONE') p['floor_above_basement_insulation_type'] ??= level;
      return;
    case 'FLOOR_ABOVE_CRAWL_SPACE':
      p['basement_type'] ??= 'CRAWL_SPACE';
      if (level !== null && p['basement_type'] !== 'NONE') p['floor_above_basement_insulation_type'] ??= level;
      return;
    case null:
      if (level === null) return;
      if (p['basement_type'] === undefined || p['basement_type'] === 'NONE') p['solid_ground_floor_insulation_type'] ??= level;
      else p['floor_above_basement_insulation_type'] ??= level;
  }
}

/**
 * The estate (and its roofs) a property describes: how a trajectory job creates or updates the estate
 * of its request without losing a field. `eco_facilities: []` and an absent list read the same.
 */
export function estateFromProperty(p: PropertyDescription): { fields: CreateEstateBody; roofs: Array<Pick<RoofFieldValues, 'estate_roof_type' | 'surface_m2' | 'insulation_type'>> } {
  const fields: Record<string, unknown> = {};
  for (const name of copied) if (p[name] !== undefined) fields[name] = p[name];
  if (p.eco_facilities?.length) fields['eco_facilities'] = p.eco_facilities;
  if (p.roof_type !== undefined) fields['estate_roof_type'] = p.roof_type;
  const dimensions = {
    width_cm: toCentimetres(p.building_width),
    depth_cm: toCentimetres(p.building_depth),
    cornice_height_cm: toCentimetres(p.cornice_height),
  };
  if (Object.values(dimensions).some((v) => v !== null)) fields['dimensions'] = dimensions;
  const roofs: Array<Pick<RoofFieldValues, 'estate_roof_type' | 'surface_m2' | 'insulation_type'>> = [];
  if (p.inclined_roof_surface !== undefined || p.inclined_roof_insulation_type !== undefined) {
    roofs.push({ estate_roof_type: 'INCLINED', surface_m2: p.inclined_roof_surface ?? null, insulation_type: p.inclined_roof_insulation_type ?? null });
  }
  if (p.flat_roof_surface !== undefined || p.flat_roof_insulation_type !== undefined) {
    roofs.push({ estate_roof_type: 'FLAT', surface_m2: p.flat_roof_surface ?? null, insulation_type: p.flat_roof_insulation_type ?? null });
  }
  return { fields: fields as CreateEstateBody, roofs };
}
