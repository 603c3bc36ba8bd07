import type { InsulationLevel, RoofType } from './enums.ts';
import type {
  CreateDescribedEstateBody,
  CreateEstateBody,
  EstateAddress,
  EstateEnergyContext,
  EstateFieldValues,
  RoofFieldValues,
} from './estates.ts';
import { PropertyDescription, propertyOf, type PropertyField, type TrajectoryRequest } from './trajectory-request.ts';

/**
 * The bridge between an estate and the energy model's input (the trajectory request's property).
 * Names are shared; the differences are spelled out here, once:
 * - the request's flat fields live in the estate's `address`, `commercial_context` (price) and
 *   `energy_context`; `energy_context.epc_score` is the request's `energy_efficiency_score`;
 * - `dimensions.*_cm` (centimetres) are `building_width`, `building_depth`, `cornice_height` (metres);
 * - the roof surfaces and insulation live on the estate's roofs: `roof_type` is INCLINED, FLAT or
 *   MIXED after the roofs there are;
 * - the old-style `ground_floor_type` / `ground_floor_insulation_type` fill in the detailed floor fields
 *   when those are unknown.
 * Every context that prices or evaluates an estate (estates, renovations, calculations) reads it
 * through this one module, from its own copy of the estate.
 */

/** The five fields without which the model cannot say anything (docs/http-contract.md "Trajectory jobs"). */
export const REQUIRED_PROPERTY_FIELDS = ['year_built', 'estate_format', 'habitable_space_m2', 'zip_code', 'country'] as const;

type RoofLike = Pick<RoofFieldValues, 'estate_roof_type' | 'surface_m2' | 'insulation_type'>;

export interface EstateData {
  fields: EstateFieldValues;
  roofs: readonly RoofLike[];
}

const OWN = [
  'year_built',
  'estate_format',
  'habitable_space_m2',
  'estate_type',
  'year_renovated',
  'number_of_floors',
] as const satisfies readonly (keyof EstateFieldValues & PropertyField)[];
const ADDRESS = [
  'zip_code',
  'country',
  'street',
  'house_number',
  'house_number_extra',
  'place',
] as const satisfies readonly (keyof EstateAddress & PropertyField)[];
const ENERGY = [
  'heating_type',
  'heating_device',
  'sanitary_heating_device',
  'outer_wall_insulation_type',
  'ventilation_type',
  'window_glazing_type',
  'window_glazing_surface',
  'has_cavity_wall',
  'cavity_wall_width',
  'has_cavity_wall_insulation',
  'outer_wall_surface',
  'basement_type',
  'basement_ceiling_surface',
  'basement_ceiling_height',
  'floor_above_basement_insulation_type',
  'solid_ground_floor_insulation_type',
  'ground_floor_surface',
  'installation_age',
  'has_solar_panels',
  'solar_panels_kwp',
  'has_solar_boiler',
  'attic_usage',
  'has_renewed_window_frames',
  'air_tightness_v50',
  'heat_emitter_type',
] as const satisfies readonly (keyof EstateEnergyContext & PropertyField)[];

const ROOF_PREFIX = { INCLINED: 'inclined_roof', FLAT: 'flat_roof' } as const;

const toMetres = (cm: number | null) => (cm === null ? undefined : Math.round(cm * 10) / 1000);
const toCentimetres = (m: number | undefined) => (m === undefined ? null : Math.round(m * 100_000) / 1000);

function copyKnown(from: Record<string, unknown>, names: readonly string[], to: Record<string, unknown>) {
  for (const name of names) if (from[name] !== null && from[name] !== undefined) to[name] = from[name];
}

/**
 * Every property field the estate knows (unknowns left out), before the model's required fields are
 * checked: what catalogue predicates and quantities read.
 */
export function knownPropertyOfEstate({ fields: f, roofs }: EstateData): Partial<PropertyDescription> {
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

  Object.assign(p, roofFields(roofs));

  fillGroundFloor(p, f.energy_context);
  for (const [key, value] of Object.entries(p)) if (value === undefined) delete p[key];
  return p as Partial<PropertyDescription>;
}

/** The estate's own data as the model's input; null when one of the five required fields is unknown. */
export function propertyFromEstate(estate: EstateData): PropertyDescription | null {
  const p: Record<string, unknown> = { ...knownPropertyOfEstate(estate) };
  if (REQUIRED_PROPERTY_FIELDS.some((name) => p[name] === undefined)) return null;
  // What the estate accepts is a superset of the model's minimums (a 0.5 m high cornice, say): keep only what the model takes.
  const parsed = PropertyDescription.safeParse(p);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete p[String(issue.path[0])];
  const retried = PropertyDescription.safeParse(p);
  return retried.success ? retried.data : null;
}

/** The request's roof fields after the roofs there are: `roof_type` (MIXED with both kinds), pane surfaces and insulation. */
export function roofFields(roofs: readonly RoofLike[]): Partial<PropertyDescription> {
  const out: Record<string, unknown> = {};
  const types = (['INCLINED', 'FLAT'] as const).filter((type) => roofs.some((r) => r.estate_roof_type === type));
  const roofType: RoofType | undefined = types.length === 2 ? 'MIXED' : types[0];
  if (roofType) out['roof_type'] = roofType;
  for (const type of types) {
    const { surface, insulation } = roofSummary(roofs.filter((r) => r.estate_roof_type === type));
    if (surface !== undefined) out[`${ROOF_PREFIX[type]}_pane_surface`] = surface;
    if (insulation !== undefined) out[`${ROOF_PREFIX[type]}_insulation_type`] = insulation;
  }
  return out as Partial<PropertyDescription>;
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
function fillGroundFloor(p: Record<string, unknown>, e: EstateEnergyContext) {
  const level = e.ground_floor_insulation_type;
  switch (e.ground_floor_type) {
    case 'SOLID_GROUND_FLOOR':
      p['basement_type'] ??= 'NONE';
      if (level !== null) p['solid_ground_floor_insulation_type'] ??= level;
      return;
    case 'FLOOR_ABOVE_BASEMENT':
      // The whole ground floor rests on the basement, as far as the old-style summary says.
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

/**
 * The estate (and its roofs) a property describes: how a trajectory job creates or updates the estate
 * of its request without losing a field. `eco_facilities: []` and an absent list read the same.
 */
export function estateFromProperty(p: PropertyDescription): { fields: Omit<CreateEstateBody, 'estate_provider_type'>; roofs: RoofLike[] } {
  const own: Record<string, unknown> = {};
  const address: Record<string, unknown> = {};
  const energy: Record<string, unknown> = {};
  copyKnown(p, OWN, own);
  copyKnown(p, ADDRESS, address);
  copyKnown(p, ENERGY, energy);
  if (p.energy_efficiency_score !== undefined) energy['epc_score'] = p.energy_efficiency_score;
  if (p.eco_facilities?.length) energy['eco_facilities'] = p.eco_facilities;
  const fields: Record<string, unknown> = { ...own, address, energy_context: energy };
  if (p.price !== undefined) fields['commercial_context'] = { price: p.price };
  const dimensions = {
    width_cm: toCentimetres(p.building_width),
    depth_cm: toCentimetres(p.building_depth),
    height_cm: toCentimetres(p.cornice_height),
  };
  if (Object.values(dimensions).some((v) => v !== null)) fields['dimensions'] = dimensions;

  const roofs: RoofLike[] = [];
  for (const type of ['INCLINED', 'FLAT'] as const) {
    const surface = p[`${ROOF_PREFIX[type]}_pane_surface`];
    const insulation = p[`${ROOF_PREFIX[type]}_insulation_type`];
    // A roof of each type the request names, so `roof_type` reads back the same.
    if (p.roof_type === type || p.roof_type === 'MIXED' || surface !== undefined || insulation !== undefined) {
      roofs.push({ estate_roof_type: type, surface_m2: surface ?? null, insulation_type: insulation ?? null });
    }
  }
  return { fields: fields as Omit<CreateEstateBody, 'estate_provider_type'>, roofs };
}

/** A roof as a description names it: its kind, and its surface and insulation where known. */
export function knownRoofFields(roof: RoofLike): NonNullable<CreateDescribedEstateBody['roofs']>[number] {
  const known = Object.fromEntries(
    Object.entries({ surface_m2: roof.surface_m2, insulation_type: roof.insulation_type }).filter(([, v]) => v !== null),
  );
  return { estate_roof_type: roof.estate_roof_type, ...known } as NonNullable<CreateDescribedEstateBody['roofs']>[number];
}

/**
 * The estate a trajectory request describes (estates' `describe-estate-for-job`): its fields, its
 * external_id, and a roof of each kind it names, with the surface and insulation it gives.
 */
export function describedEstateOf(request: TrajectoryRequest): CreateDescribedEstateBody {
  const { fields, roofs } = estateFromProperty(propertyOf(request));
  const { roofs: _none, ...own } = fields as Omit<CreateEstateBody, 'estate_provider_type'> & { roofs?: never };
  return {
    ...own,
    ...(request.external_id ? { external_id: request.external_id } : {}),
    ...(roofs.length > 0 ? { roofs: roofs.map(knownRoofFields) } : {}),
  };
}
