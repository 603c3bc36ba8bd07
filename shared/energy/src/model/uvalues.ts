import type { GlazingType, InsulationLevel } from '@renopath/contracts';
import { envelope, stock, type CellBlend, type TypologyCell } from './data.ts';
import type { AssumedProperty, Element, OpaqueElement } from './types.ts';

export interface EnvelopeU {
  /** U (W/m2K) per element; the floor's U is before its b-factor. */
  u: Record<Element, number>;
  g: number;
  floorB: number;
}

/** Which parts the client described; the others take the stock's state (data/stock.json). */
export interface Known {
  inclinedRoof: boolean;
  flatRoof: boolean;
  wall: boolean;
  solidFloor: boolean;
  aboveFloor: boolean;
  window: boolean;
}

const R = envelope.insulation_levels.r_added_m2k_per_w;
const W = envelope.windows;
const RENOVATED = stock.renovated_state;
const UNPROVEN = stock.certificate_default_state;

function clamp(x: number, [lo, hi]: readonly [number, number]): number {
  return Math.min(hi, Math.max(lo, x));
}

const ramp = (x: number, [from, to]: readonly [number, number]) => Math.min(1, Math.max(0, (x - from) / (to - from)));

/** U of an opaque element at an insulation level: the period's TABULA U when the level is the period's own. */
function opaqueU(cell: TypologyCell, element: OpaqueElement, level: InsulationLevel, extraR = 0): number {
  if (level === cell.typical[element] && extraR === 0) return cell.u[element];
  const bare = cell.bare[element];
  if (extraR > R[level]) return 1 / (1 / bare + extraR);
  if (level === 'NONE') return bare;
  return clamp(1 / (1 / bare + R[level]), envelope.u_bands[element][level]);
}

/** The same, blended between the two periods around the construction year (no jump at a period edge). */
function levelU(b: CellBlend, element: OpaqueElement, level: InsulationLevel, extraR = 0): number {
  const ua = opaqueU(b.a, element, level, extraR);
  return b.w === 1 ? ua : b.w * ua + (1 - b.w) * opaqueU(b.b, element, level, extraR);
}

/**
 * An undescribed element: the period's own U moved by the stock level towards the renovated stock (level > 0,
 * only if better) or towards the certificate's unproven default (level < 0, only if worse).
 */
function stockU(original: number, renovated: number, unproven: number, level: number): number {
  if (level < 0) return unproven > original ? original - level * (unproven - original) : original;
  return renovated < original ? original + Math.min(1, level) * (renovated - original) : original;
}

/** Whole-window U and g from glass, frames and their age (data/envelope.json windows). */
export function windowOf(glazing: GlazingType, framesRenewed: boolean, windowsYear: number): { u: number; g: number } {
  const modern = framesRenewed ? 1 : ramp(windowsYear, W.modern_frames_years);
  const hr = framesRenewed ? 1 : ramp(windowsYear, W.hr_double_years);
  const glass =
    glazing === 'DOUBLE_GLAZING' ? W.glass_u.DOUBLE_GLAZING + hr * (W.glass_u.HR - W.glass_u.DOUBLE_GLAZING) : W.glass_u[glazing];
  const g = glazing === 'DOUBLE_GLAZING' ? W.glass_g.DOUBLE_GLAZING + hr * (W.glass_g.HR - W.glass_g.DOUBLE_GLAZING) : W.glass_g[glazing];
  const newFrame = glazing === 'TRIPLE_GLAZING' && framesRenewed ? W.frame_u.triple : W.frame_u.modern;
  const frame = W.frame_u.old + modern * (newFrame - W.frame_u.old);
  const edge = glazing === 'SINGLE_GLAZING' ? 0 : W.edge_u.old + modern * (W.edge_u.modern - W.edge_u.old);
  return { u: (1 - W.frame_fraction) * glass + W.frame_fraction * frame + edge, g };
}

/** Area-weighted window of the archetypes given (their TABULA U_Actual and g). */
function archetypeWindow(ws: TypologyCell['windows']): { u: number; g: number } {
  const area = ws.reduce((s, w) => s + w.area, 0);
  return { u: ws.reduce((s, w) => s + w.u * w.area, 0) / area, g: ws.reduce((s, w) => s + w.g * w.area, 0) / area };
}

/** The windows have new frames: said so, or implied by triple glass, which needs their deep rebate (data/envelope.json windows). */
export function hasNewFrames(a: Pick<AssumedProperty, 'has_renewed_window_frames' | 'window_glazing_type'>): boolean {
  return (
    a.has_renewed_window_frames === true ||
    (a.window_glazing_type === 'TRIPLE_GLAZING' && W.triple_needs_new_frames && a.has_renewed_window_frames !== false)
  );
}

function cellWindow(cell: TypologyCell, a: AssumedProperty, windowsYear: number): { u: number; g: number } {
  const framesRenewed = hasNewFrames(a);
  // The home's own windows keep the archetype's figures; anything else is built from glass and frames.
  if (!framesRenewed) {
    // A cell of two archetypes (Dutch semi-detached) keeps the window of the archetype whose glazing is the stated one.
    const exact = cell.windows.filter((w) => w.glazing === a.window_glazing_type);
    if (exact.length > 0 && exact.length < cell.windows.length) return archetypeWindow(exact);
    const own =
      a.window_glazing_type === cell.typical.window || (a.window_glazing_type === 'DOUBLE_GLAZING' && cell.typical.window === 'HR');
    if (own) return { u: cell.u.window, g: cell.g };
  }
  return windowOf(a.window_glazing_type, framesRenewed, windowsYear);
}

export function envelopeU(b: CellBlend, blended: TypologyCell, a: AssumedProperty, known: Known, level: number): EnvelopeU {
  // A MIXED roof is its two parts weighted by area: the heat balance sees one roof element.
  // Each part: none (0) when the roof has no such part, its stated insulation's level, or the stock's.
  const roofPartU = (insulation: InsulationLevel | null, stated: boolean) =>
    insulation === null ? 0 : stated ? levelU(b, 'roof', insulation) : stockU(blended.u.roof, RENOVATED.roof_u, blended.bare.roof, level);
  const flat = roofPartU(a.flat_roof_insulation_type, known.flatRoof);
  let inclined = roofPartU(a.inclined_roof_insulation_type, known.inclinedRoof);
  // An attic that is not lived in is an unheated space between roof and home (TABULA extra R).
  if (a.attic_usage === 'STORAGE' || a.attic_usage === 'NOT_USED')
    inclined = 1 / (1 / inclined + envelope.unheated_space.r_added_m2k_per_w);
  const roof = a.flat_roof_share * flat + (1 - a.flat_roof_share) * inclined;

  const fill = a.has_cavity_wall_insulation ? envelope.cavity_fill.r_added_m2k_per_w : 0;
  const wall = known.wall
    ? levelU(b, 'wall', a.outer_wall_insulation_type, fill)
    : stockU(blended.u.wall, RENOVATED.wall_u, blended.bare.wall, level);

  // A floor over a crawl space or unheated basement gets the unheated space's extra R at every level, so levels stay ordered.
  const aboveBare = known.aboveFloor
    ? levelU(b, 'floor', a.floor_above_basement_insulation_type)
    : stockU(blended.u.floor, RENOVATED.floor_u, blended.bare.floor, level);
  const above = 1 / (1 / aboveBare + envelope.unheated_space.r_added_m2k_per_w);
  const solid = known.solidFloor
    ? levelU(b, 'floor', a.solid_ground_floor_insulation_type)
    : stockU(blended.u.floor, RENOVATED.floor_u, blended.bare.floor, level);
  const floor = a.basement_share * above + (1 - a.basement_share) * solid;

  let window: { u: number; g: number };
  if (known.window) {
    const year = a.year_renovated !== null && a.year_renovated > a.year_built ? a.year_renovated : a.year_built;
    const wa = cellWindow(b.a, a, year);
    const wb = b.w === 1 ? wa : cellWindow(b.b, a, year);
    window = { u: b.w * wa.u + (1 - b.w) * wb.u, g: b.w * wa.g + (1 - b.w) * wb.g };
  } else {
    const target = level < 0 ? UNPROVEN : { window_u: RENOVATED.window_u, window_g: RENOVATED.window_g };
    const moves = level < 0 ? target.window_u > blended.u.window : target.window_u < blended.u.window;
    const t = moves ? Math.min(1, Math.abs(level)) : 0;
    window = { u: blended.u.window + t * (target.window_u - blended.u.window), g: blended.g + t * (target.window_g - blended.g) };
  }
  return {
    u: { roof, wall, floor, window: window.u, door: blended.u.door },
    g: window.g,
    floorB: envelope.unheated_space.floor_b_factor,
  };
}
