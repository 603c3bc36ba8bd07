import type { PropertyDescription } from '@renopath/contracts';
import { getNode } from './catalogue.ts';
import { quantityFigure } from './data.ts';
import type { CatalogueNode } from './types.ts';

/**
 * What quantityFor reads: the property's surfaces plus the part an item is linked to (a room's
 * surface) and the API's `count`. `outer_wall_surface` is the opaque wall area, windows and doors
 * excluded, as the energy model reads it (contracts: trajectory-request.ts).
 */
export type QuantityContext = Partial<PropertyDescription> & {
  roof_surface?: number;
  attic_floor_surface?: number;
  floor_surface?: number;
  room_surface?: number;
  gutter_length?: number;
  railing_length?: number;
  /** The API's `count` (>= 1): the number of units, or a multiplier of an area-based quantity. */
  count?: number;
};

export class MissingQuantityInputError extends Error {
  constructor(
    readonly renovation_component_type: string,
    readonly needs: string[],
  ) {
    super(`${renovation_component_type}: quantity needs one of ${needs.join(', ')}`);
  }
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Ground-floor footprint when no floor surface is given: habitable space over the number of floors. */
function footprint(ctx: QuantityContext): number | undefined {
  if (ctx.habitable_space_m2 === undefined) return undefined;
  return ctx.habitable_space_m2 / (ctx.number_of_floors ?? 1);
}

function first(...values: (number | undefined)[]): number | undefined {
  return values.find((v) => v !== undefined && Number.isFinite(v));
}

function roofSurface(ctx: QuantityContext): number | undefined {
  const parts = (ctx.inclined_roof_pane_surface ?? 0) + (ctx.flat_roof_pane_surface ?? 0);
  return first(ctx.roof_surface, parts > 0 ? parts : undefined);
}

/** The quantity of an item in the node's unit, from the estate or the part it is linked to. */
export function quantityFor(nodeOrType: CatalogueNode | string, ctx: QuantityContext): number {
  const node = typeof nodeOrType === 'string' ? getNode(nodeOrType) : nodeOrType;
  const count = ctx.count ?? 1;
  const need = (value: number | undefined, ...fields: string[]): number => {
    if (value === undefined) throw new MissingQuantityInputError(node.renovation_component_type, fields);
    return round2(Math.max(0, value) * count);
  };
  switch (node.quantity_rule) {
    case 'count':
      return count;
    case 'lump_sum':
      return 1;
    case 'inclined_roof_surface':
      return need(first(ctx.inclined_roof_pane_surface, ctx.roof_surface), 'inclined_roof_pane_surface', 'roof_surface');
    case 'flat_roof_surface':
      return need(first(ctx.flat_roof_pane_surface, ctx.roof_surface), 'flat_roof_pane_surface', 'roof_surface');
    case 'roof_surface':
      return need(roofSurface(ctx), 'roof_surface', 'inclined_roof_pane_surface', 'flat_roof_pane_surface');
    case 'attic_floor_surface':
      return need(first(ctx.attic_floor_surface, footprint(ctx)), 'attic_floor_surface', 'habitable_space_m2');
    case 'facade_net_surface':
      return need(ctx.outer_wall_surface, 'outer_wall_surface');
    case 'window_surface':
      return need(ctx.window_glazing_surface, 'window_glazing_surface');
    case 'basement_ceiling_surface':
      return need(
        first(ctx.basement_ceiling_surface, ctx.floor_surface, ctx.ground_floor_surface, footprint(ctx)),
        'basement_ceiling_surface',
        'floor_surface',
        'ground_floor_surface',
        'habitable_space_m2',
      );
    case 'ground_floor_surface':
      return need(
        first(ctx.ground_floor_surface, ctx.floor_surface, footprint(ctx)),
        'ground_floor_surface',
        'floor_surface',
        'habitable_space_m2',
      );
    case 'habitable_space':
      return need(ctx.habitable_space_m2, 'habitable_space_m2');
    case 'room_floor_surface':
      return need(ctx.room_surface, 'room_surface');
    case 'room_wall_surface': {
      if (ctx.room_surface === undefined) return need(undefined, 'room_surface');
      // A square room of the given surface; openings deducted.
      const perimeter = 4 * Math.sqrt(ctx.room_surface);
      const wall = perimeter * quantityFigure('ROOM_STOREY_HEIGHT_M') * (1 - quantityFigure('ROOM_WALL_OPENINGS_SHARE'));
      return need(wall, 'room_surface');
    }
    case 'gutter_length': {
      const fromWidth = ctx.building_width !== undefined ? quantityFigure('GUTTER_SIDES') * ctx.building_width : undefined;
      const fp = footprint(ctx);
      const fromFootprint = fp !== undefined ? quantityFigure('GUTTER_SIDES') * Math.sqrt(fp) : undefined;
      return need(first(ctx.gutter_length, fromWidth, fromFootprint), 'gutter_length', 'building_width', 'habitable_space_m2');
    }
    case 'railing_length':
      return need(first(ctx.railing_length, quantityFigure('RAILING_LENGTH_M')), 'railing_length');
    case 'pv_kwp_from_roof': {
      const flat = ctx.roof_type === 'FLAT' || (ctx.flat_roof_pane_surface !== undefined && ctx.inclined_roof_pane_surface === undefined);
      const surface = flat ? first(ctx.flat_roof_pane_surface, ctx.roof_surface) : first(ctx.inclined_roof_pane_surface, ctx.roof_surface);
      if (surface === undefined) return need(undefined, 'inclined_roof_pane_surface', 'flat_roof_pane_surface', 'roof_surface');
      const usable = surface * quantityFigure(flat ? 'PV_USABLE_SHARE_FLAT' : 'PV_USABLE_SHARE_INCLINED');
      const kwp = Math.min(quantityFigure('PV_MAX_KWP'), usable / quantityFigure('PV_M2_PER_KWP'));
      // Panels come in ~0.4 kWp steps; one decimal is enough for pricing.
      return Math.round(kwp * 10) / 10;
    }
  }
}
