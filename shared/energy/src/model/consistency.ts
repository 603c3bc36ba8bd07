/** The trajectory request's 422 business rules (docs/http-contract.md): one plain-language message per problem, naming the field. */
import type { PropertyDescription } from '@renopath/contracts';
import { consistency } from './data.ts';
import { isPostalCodeOf } from './region.ts';

export interface ConsistencyOptions {
  /** The current time: year_built may not lie after its year. */
  now: Date;
}

type Request = PropertyDescription & Record<string, unknown>;

const INCLINED_FIELDS = ['inclined_roof_pane_surface', 'inclined_roof_insulation_type'] as const;
const FLAT_FIELDS = ['flat_roof_pane_surface', 'flat_roof_insulation_type'] as const;
const BASEMENT_FIELDS = ['basement_ceiling_surface', 'basement_ceiling_height', 'floor_above_basement_insulation_type'] as const;

export function checkConsistency(request: Request, options: ConsistencyOptions): string[] {
  const out: string[] = [];
  const r = request;

  if (r.roof_type === 'FLAT') {
    for (const f of INCLINED_FIELDS) if (r[f] !== undefined) out.push(`${f} cannot be given for roof_type FLAT`);
  }
  if (r.roof_type === 'INCLINED') {
    for (const f of FLAT_FIELDS) if (r[f] !== undefined) out.push(`${f} cannot be given for roof_type INCLINED`);
  }

  if (r.heating_device !== undefined && r.heating_type !== undefined) {
    const allowed = consistency.devices_by_heating_type[r.heating_type];
    if (Array.isArray(allowed) && !allowed.includes(r.heating_device)) {
      out.push(
        r.heating_type === 'NONE'
          ? `heating_device ${r.heating_device} cannot be given with heating_type NONE`
          : `heating_device ${r.heating_device} is not compatible with heating_type ${r.heating_type}`,
      );
    }
  }

  if (r.has_cavity_wall === false) {
    if (r.cavity_wall_width !== undefined) out.push('cavity_wall_width cannot be given when has_cavity_wall is false');
    if (r.has_cavity_wall_insulation === true) out.push('has_cavity_wall_insulation cannot be true when has_cavity_wall is false');
  }

  if (r.basement_type === 'NONE') {
    for (const f of BASEMENT_FIELDS) if (r[f] !== undefined) out.push(`${f} cannot be given for basement_type NONE`);
  }

  if (!isPostalCodeOf(r.zip_code, r.country, { numericNl: true })) {
    out.push(
      r.country === 'NL'
        ? 'zip_code must be a Dutch postal code (4 digits, optionally followed by 2 letters: 1234, 1234AB or 1234 AB)'
        : 'zip_code must be a Belgian postal code (4 digits, 1000-9999)',
    );
  }

  const thisYear = options.now.getUTCFullYear();
  if (r.year_built > thisYear) out.push(`year_built ${r.year_built} is in the future`);
  if (r.year_built < consistency.earliest_year_built) out.push(`year_built ${r.year_built} is before ${consistency.earliest_year_built}`);

  for (const [field, ratio] of Object.entries(consistency.surface_max_ratio)) {
    const v = r[field];
    if (typeof v === 'number' && v > ratio * r.habitable_space_m2) {
      out.push(`${field} ${v} m2 is more than ${ratio} times the habitable space (${r.habitable_space_m2} m2): not plausible`);
    }
  }
  return out;
}
