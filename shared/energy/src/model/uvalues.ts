import type { InsulationLevel } from '@renopath/contracts';
import { envelope, type TypologyCell } from './data.ts';
import type { AssumedProperty, Element, OpaqueElement } from './types.ts';

export interface EnvelopeU {
  /** U (W/m2K) per element; the floor's U is before its b-factor. */
  u: Record<Element, number>;
  g: number;
  floorB: number;
}

const R = envelope.insulation_levels.r_added_m2k_per_w;

function clamp(x: number, [lo, hi]: readonly [number, number]): number {
  return Math.min(hi, Math.max(lo, x));
}

/** U of an opaque element at an insulation level: the period's TABULA U when the level is the period's own. */
function opaqueU(cell: TypologyCell, element: OpaqueElement, level: InsulationLevel, extraR = 0): number {
  if (level === cell.typical[element] && extraR === 0) return cell.u[element];
  const bare = cell.bare[element];
  if (extraR > R[level]) return 1 / (1 / bare + extraR);
  if (level === 'NONE') return bare;
  return clamp(1 / (1 / bare + R[level]), envelope.u_bands[element][level]);
}

export function envelopeU(cell: TypologyCell, a: AssumedProperty): EnvelopeU {
  const roof = opaqueU(cell, 'roof', a.roof_insulation_type);
  const wall = opaqueU(cell, 'wall', a.outer_wall_insulation_type, a.has_cavity_wall_insulation ? envelope.cavity_fill.r_added_m2k_per_w : 0);
  let floor = opaqueU(cell, 'floor', a.floor_insulation_type);
  const aboveUnheated = a.basement_type === 'UNHEATED' || a.basement_type === 'CRAWL_SPACE';
  // A floor over a crawl space or unheated cellar gets the unheated space's extra R at every level, so levels stay ordered.
  if (aboveUnheated) floor = 1 / (1 / floor + envelope.unheated_space.r_added_m2k_per_w);
  const ownGlazing = a.window_glazing_type === cell.typical.window;
  const table = envelope.glazing[a.country][a.window_glazing_type];
  return {
    u: { roof, wall, floor, window: ownGlazing ? cell.u.window : table.u, door: cell.u.door },
    g: ownGlazing ? cell.g : table.g,
    floorB: envelope.unheated_space.floor_b_factor,
  };
}
