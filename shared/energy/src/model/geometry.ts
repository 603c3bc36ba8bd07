import { envelope, type TypologyCell } from './data.ts';
import type { Resolved } from './resolve.ts';
import type { Geometry } from './types.ts';

const G = envelope.geometry;
const POSITION = G.apartment_unknown_position;
const FACADES = { OPEN: 4, SEMI_OPEN: 3, CLOSED: 2 } as const;

/** Facade length exposed to outside air: front and back always, plus one or two gables. */
function exposedPerimeter(format: 'OPEN' | 'SEMI_OPEN' | 'CLOSED', width: number, depth: number): number {
  if (format === 'OPEN') return 2 * (width + depth);
  if (format === 'SEMI_OPEN') return 2 * width + depth;
  return 2 * width;
}

function roofPerFootprint(cell: TypologyCell, roofType: 'INCLINED' | 'FLAT'): number {
  if (roofType === cell.roofType) return cell.ratio.roof / cell.ratio.floor;
  return roofType === 'INCLINED' ? G.inclined_roof_factor : 1;
}

/** Roof area per m2 of footprint; a MIXED roof covers its flat share flat and the rest pitched. */
function roofFactor(cell: TypologyCell, a: Resolved['assumed']): number {
  return a.flat_roof_share * roofPerFootprint(cell, 'FLAT') + (1 - a.flat_roof_share) * roofPerFootprint(cell, 'INCLINED');
}

/**
 * Envelope areas. With width and depth: a box of that footprint, its exposed facades and height.
 * Apartments: a box of one (duplex two) storeys whose roof and floor count whole when described (a penthouse's roof
 * always); an apartment of unknown position carries the building's average roof and floor per m2 (TABULA BE MFH).
 * Otherwise the typology's proportions: floor, roof and windows scale with the area, walls and doors with
 * sqrt(area x floors) relative to the archetype. Given surfaces override all of these.
 */
export function computeGeometry(r: Resolved): Geometry {
  const a = r.assumed;
  const cell = r.cell;
  const A = a.habitable_space_m2;
  const k = G.useful_to_gross;
  let floors: number;
  let footprint: number;
  let roof: number;
  let wall: number;
  let window: number;
  let door: number;
  let height: number;
  let method: Geometry['method'];

  if (r.apartment || (a.building_width !== null && a.building_depth !== null)) {
    method = r.apartment ? 'APARTMENT' : 'DIMENSIONS';
    const typeStoreys = G.apartment_storeys[a.estate_type] ?? 1;
    if (a.building_width !== null && a.building_depth !== null) {
      footprint = a.building_width * a.building_depth;
      floors = a.number_of_floors ?? (r.apartment ? typeStoreys : Math.max(1, Math.round(A / (k * footprint))));
    } else {
      floors = a.number_of_floors ?? typeStoreys;
      footprint = A / (k * floors);
    }
    const width = a.building_width ?? Math.sqrt(footprint / G.apartment_depth_to_width);
    const depth = a.building_depth ?? footprint / width;
    height = a.cornice_height ?? floors * G.storey_height_m;
    const facade = exposedPerimeter(a.estate_format, width, depth) * height;
    window = r.surfaces.window ?? Math.min(cell.ratio.window * A, G.max_window_share_of_facade * facade);
    door = r.apartment ? G.apartment_door_m2 : cell.ratio.door * cell.aRef * Math.sqrt(A / cell.aRef);
    wall = r.surfaces.wall ?? Math.max(G.min_opaque_wall_share * facade, facade - window - door);
    roof = r.roofExposed ? (r.surfaces.roof ?? footprint * roofFactor(cell, a)) : r.positionUnknown ? POSITION.roof_m2_per_m2 * A : 0;
  } else {
    method = 'TYPOLOGY';
    const size = A / cell.aRef;
    const storeyRatio = a.number_of_floors !== null ? cell.storeys / a.number_of_floors : 1;
    floors = a.number_of_floors ?? Math.max(1, Math.round(cell.storeys));
    footprint = cell.ratio.floor * A * storeyRatio;
    const facadeScale = cell.aRef * Math.sqrt(size / storeyRatio);
    window = r.surfaces.window ?? cell.ratio.window * A;
    door = cell.ratio.door * facadeScale;
    wall = r.surfaces.wall ?? cell.ratio.wall * facadeScale;
    const grossFacade = wall + window + door;
    if (r.surfaces.window === null && window > G.max_window_share_of_facade * grossFacade) {
      window = G.max_window_share_of_facade * grossFacade;
    }
    roof = r.surfaces.roof ?? footprint * roofFactor(cell, a);
    height = a.cornice_height ?? floors * G.storey_height_m;
  }
  const floor = r.floorExposed ? (r.surfaces.floor ?? footprint) : r.positionUnknown ? POSITION.floor_m2_per_m2 * A : 0;
  return {
    habitable_space_m2: A,
    floors,
    footprint_m2: footprint,
    volume_m3: footprint * height,
    method,
    envelope: {
      roof_m2: roof,
      wall_m2: wall,
      window_m2: window,
      door_m2: door,
      floor_m2: floor,
      total_m2: roof + wall + window + door + floor,
    },
    // Exposed as a whole: an apartment of unknown position carries only an expected share of roof and floor.
    exposed: { roof: roof > 0 && !r.positionUnknown, floor: floor > 0 && !r.positionUnknown, facades: FACADES[a.estate_format] },
  };
}
