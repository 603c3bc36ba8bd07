import { PropertyDescription, type EstateEnergyContext, type InsulationLevel, type RenovationEstateSnapshot } from '@renopath/contracts';

/**
 * The estate (this context's copy) as the energy model and the catalogue read it. The same bridge as
 * the estates context's `property-description.ts`, kept here so the contexts deploy apart:
 * `address`, `commercial_context` and `energy_context` hold the request's flat fields,
 * `dimensions.*_cm` are metres there, roofs give `roof_type` and the pane surfaces and insulation,
 * and the old-style ground-floor summary fills the detailed floor fields it does not have.
 */

export const REQUIRED_PROPERTY_FIELDS = ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'] as const;

const OWN = ['year_built', 'estate_format', 'habitable_space_m2', 'estate_type', 'year_renovated', 'number_of_floors'] as const;
const ADDRESS = ['zip_code', 'country', 'street', 'house_number', 'house_number_extra', 'place'] as const;
const ENERGY = [
  'heating_type', 'heating_device', 'sanitary_heating_device', 'outer_wall_insulation_type', 'ventilation_type', 'window_glazing_type',
  'window_glazing_surface', 'has_cavity_wall', 'cavity_wall_width', 'has_cavity_wall_insulation', 'outer_wall_surface', 'basement_type',
  'basement_ceiling_surface', 'basement_ceiling_height', 'floor_above_basement_insulation_type', 'solid_ground_floor_insulation_type',
  'ground_floor_surface', 'installation_age', 'has_solar_panels', 'solar_panels_kwp', 'has_solar_boiler', 'attic_usage',
  'has_renewed_window_frames', 'air_tightness_v50', 'heat_emitter_type',
] as const;
const ROOF_PREFIX = { INCLINED: 'inclined_roof', FLAT: 'flat_roof' } as const;

type Roof = RenovationEstateSnapshot['roofs'][number];

export interface EstateProperty {
  /** Every known field (predicates and quantities read what is there; unknowns pass). */
  partial: Partial<PropertyDescription>;
  /** The model's input, or null while one of the five required fields is unknown. */
  full: PropertyDescription | null;
}

function copyKnown(from: Record<string, unknown>, names: readonly string[], to: Record<string, unknown>) {
  for (const name of names) if (from[name] !== null && from[name] !== undefined) to[name] = from[name];
}

const toMetres = (cm: number | null) => (cm === null ? undefined : Math.round(cm * 10) / 1000);

export function propertyOf(estate: RenovationEstateSnapshot): EstateProperty {
  const f = estate.fields;
  const p: Record<string, unknown> = {};
  copyKnown(f, OWN, p);
  copyKnown(f.address, ADDRESS, p);
  copyKnown(f.energy_context, ENERGY, p);
  if (f.commercial_context.price !== null) p['price'] = f.commercial_context.price;
  if (f.energy_context.epc_score !== null) p['energy_efficiency_score'] = f.energy_context.epc_score;
  if (f.energy_context.eco_facilities.length > 0) p['eco_facilities'] = f.energy_context.eco_facilities;
  p['building_width'] = toMetres(f.dimensions.width_cm);
  p['building_depth'] = toMetres(f.dimensions.depth_cm);
  p['cornice_height'] = toMetres(f.dimensions.height_cm);
  Object.assign(p, roofFields(estate.roofs));
  fillGroundFloor(p, f.energy_context);
  for (const [key, value] of Object.entries(p)) if (value === undefined) delete p[key];
  return { partial: p as Partial<PropertyDescription>, full: fullProperty(p) };
}

/** `roof_type` after the roofs there are; surfaces add up; the insulation is that of the largest roof that states one. */
export function roofFields(roofs: readonly Pick<Roof, 'estate_roof_type' | 'surface_m2' | 'insulation_type'>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const types = (['INCLINED', 'FLAT'] as const).filter((type) => roofs.some((r) => r.estate_roof_type === type));
  if (types.length) out['roof_type'] = types.length === 2 ? 'MIXED' : types[0];
  for (const type of types) {
    const ofType = roofs.filter((r) => r.estate_roof_type === type);
    const withSurface = ofType.filter((r) => r.surface_m2 !== null);
    const surface = withSurface.reduce((sum, r) => sum + r.surface_m2!, 0);
    if (withSurface.length && surface >= 1) out[`${ROOF_PREFIX[type]}_pane_surface`] = surface;
    const insulated = ofType.filter((r) => r.insulation_type !== null).sort((a, b) => (b.surface_m2 ?? 0) - (a.surface_m2 ?? 0));
    if (insulated[0]) out[`${ROOF_PREFIX[type]}_insulation_type`] = insulated[0].insulation_type as InsulationLevel;
  }
  return out;
}

/** What the estate accepts is a superset of the model's minimums: keep only what the model takes. */
function fullProperty(p: Record<string, unknown>): PropertyDescription | null {
  if (REQUIRED_PROPERTY_FIELDS.some((name) => p[name] === undefined)) return null;
  const copy = { ...p };
  const parsed = PropertyDescription.safeParse(copy);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete copy[String(issue.path[0])];
  const retried = PropertyDescription.safeParse(copy);
  return retried.success ? retried.data : null;
}

function fillGroundFloor(p: Record<string, unknown>, e: EstateEnergyContext) {
  const level = e.ground_floor_insulation_type;
  switch (e.ground_floor_type) {
    case 'SOLID_GROUND_FLOOR':
      p['basement_type'] ??= 'NONE';
      if (level !== null) p['solid_ground_floor_insulation_type'] ??= level;
      return;
    case 'FLOOR_ABOVE_BASEMENT':
      p['basement_type'] ??= 'FULL';
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
