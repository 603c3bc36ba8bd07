import { availableItems, findNode, groupByGrantCategory, selectionTree, type ClientScope, type SelectionTreeNode } from '@renopath/catalog';
import type {
  ItemFigures,
  ItemPlacement,
  RenovationEstateSnapshot,
  RenovationItem,
  RenovationSearchEntry,
  SelectionNode,
} from '@renopath/contracts';
import type { RenovationDoc } from './renovation-views.projection.ts';
import type { ItemState } from '../renovation/renovation.decider.ts';
import { findOnFloor } from '../estate-mirror/estate-mirror.ts';
import { placementContext, rootTypeOf, unpriced } from '../renovation/valuation.ts';
import { knownPropertyOfEstate } from '../estate-mirror/property.ts';

/** The replies of docs/http-contract.md (Renovation, Renovation item, overview, grants, search entry) from the read model. */

/** docs/http-contract.md's selection tree: an array of maps keyed by component type, `is_selected` along the chosen path. */
function toInterfaceTree(node: SelectionTreeNode): Record<string, SelectionNode> {
  return {
    [node.renovation_component_type]: {
      is_selected: node.is_selected,
      enum_selection_tree: Object.assign({}, ...node.children.map(toInterfaceTree)) as Record<string, SelectionNode>,
    },
  };
}

// The catalogue is fixed while the process runs: a chosen type's tree is the same every time.
const treeCache = new Map<string, Array<Record<string, SelectionNode>>>();
function selectionTreeOf(type: string): Array<Record<string, SelectionNode>> {
  let tree = treeCache.get(type);
  if (!tree) {
    tree = findNode(type) ? [toInterfaceTree(selectionTree(type, type))] : [];
    treeCache.set(type, tree);
  }
  return tree;
}

// An item the valuation has not reached yet: nothing priced, nothing flagged.
const NO_FIGURES = unpriced('piece', 0, []);

const placementIds = (p: ItemPlacement) => ({ roof_id: p.roof_id, floor_id: p.floor_id, room_id: p.room_id, staircase_id: p.staircase_id });

function itemReply(
  id: string,
  type: string,
  count: number,
  scope: RenovationItem['scope'],
  ids: ReturnType<typeof placementIds>,
  f: ItemFigures,
  supports: string[],
): RenovationItem {
  return {
    id,
    root_renovation_component_type: rootTypeOf(type),
    renovation_component_type: type,
    selection_tree: selectionTreeOf(type),
    estimated_cost: f.estimated_cost,
    estimated_vat_cost: f.estimated_vat_cost,
    subsidy_amount: f.subsidy_amount,
    count,
    scope,
    ...ids,
    quantity: f.quantity,
    unit: f.unit,
    priced_as: f.priced_as,
    vat_rate: f.vat_rate,
    grant_category: f.grant_category,
    scheme: f.scheme,
    conditions: f.conditions,
    sources: f.sources,
    supports,
    issues: f.issues,
  };
}

export function renderItem(doc: RenovationDoc, item: ItemState): RenovationItem {
  const figures = doc.valuation?.items[item.item_id] ?? NO_FIGURES;
  return itemReply(
    item.item_id,
    item.renovation_component_type,
    item.count,
    item.placement.scope,
    placementIds(item.placement),
    figures,
    [],
  );
}

export function renderDerived(doc: RenovationDoc): RenovationItem[] {
  const none = { roof_id: null, floor_id: null, room_id: null, staircase_id: null };
  return (doc.valuation?.derived ?? []).map((d) => itemReply(d.id, d.renovation_component_type, 1, 'DERIVED', none, d, d.supports));
}

const totalsOf = (doc: RenovationDoc) =>
  doc.valuation?.totals ?? { estimated_cost: 0, estimated_vat_cost: 0, subsidy_amount: 0, total_estimated_cost_incl_vat: 0 };

/** The label the renovation reaches and on which scale, null before the first valuation. */
const indicationOf = (doc: RenovationDoc) => ({
  energy_efficiency_indication: doc.valuation?.energy_efficiency_indication ?? null,
  energy_efficiency_type: doc.valuation?.energy_efficiency_type ?? null,
});

/** The old-style record; the single read adds `files` (renovations hold no files of their own yet). */
export function renderRecord(doc: RenovationDoc) {
  const t = totalsOf(doc);
  return {
    id: doc.id,
    estate_id: doc.estate_id,
    estimated_cost: t.estimated_cost,
    estimated_vat_cost: t.estimated_vat_cost,
    subsidy_amount: t.subsidy_amount,
    ...indicationOf(doc),
    renovation_name: doc.renovation_name,
    total_estimated_cost_incl_vat: t.total_estimated_cost_incl_vat,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** docs/http-contract.md: the summary and the arrays; the old style puts the arrays at the top level, v1 under `details`. */
export function renderOverview(doc: RenovationDoc, estate: RenovationEstateSnapshot | null) {
  const t = totalsOf(doc);
  const general: RenovationItem[] = [];
  const roofs = new Map<string, { roof_id: string; items: RenovationItem[] }>();
  const rooms = new Map<string, { room_id: string; floor_id: string; estate_room_type: string | null; items: RenovationItem[] }>();
  const staircases = new Map<string, { staircase_id: string; items: RenovationItem[] }>();
  for (const item of doc.items) {
    const reply = renderItem(doc, item);
    const p = item.placement;
    if (p.scope === 'ROOF' && p.roof_id) {
      if (!roofs.has(p.roof_id)) roofs.set(p.roof_id, { roof_id: p.roof_id, items: [] });
      roofs.get(p.roof_id)!.items.push(reply);
    } else if (p.scope === 'ROOM' && p.room_id) {
      if (!rooms.has(p.room_id)) {
        const found = estate ? findOnFloor(estate, 'rooms', p.room_id) : null;
        const type = (found?.part as { estate_room_type?: string } | undefined)?.estate_room_type ?? null;
        rooms.set(p.room_id, {
          room_id: p.room_id,
          floor_id: p.floor_id ?? found?.floor.id ?? p.room_id,
          estate_room_type: type,
          items: [],
        });
      }
      rooms.get(p.room_id)!.items.push(reply);
    } else if (p.scope === 'STAIRCASE' && p.staircase_id) {
      if (!staircases.has(p.staircase_id)) staircases.set(p.staircase_id, { staircase_id: p.staircase_id, items: [] });
      staircases.get(p.staircase_id)!.items.push(reply);
    } else {
      general.push(reply);
    }
  }
  return {
    summary: {
      estate_id: doc.estate_id,
      total_subsidy_amount: t.subsidy_amount,
      total_estimated_cost: t.estimated_cost,
      total_estimated_vat_cost: t.estimated_vat_cost,
      total_estimated_cost_incl_vat: t.total_estimated_cost_incl_vat,
      // extensions: the label reached and whether the figures are complete
      ...indicationOf(doc),
      price_year: doc.valuation?.year ?? null,
      issues: doc.valuation?.issues ?? [],
    },
    details: {
      general,
      rooms: [...rooms.values()],
      roofs: [...roofs.values()],
      staircases: [...staircases.values()],
      derived: renderDerived(doc),
    },
  };
}

/** docs/http-contract.md: per category, the items (client and derived) that get a grant, with scheme and conditions. */
export function renderGrants(doc: RenovationDoc) {
  const all = [...doc.items.map((i) => renderItem(doc, i)), ...renderDerived(doc)];
  return groupByGrantCategory(
    all.map((i) => ({ ...i, renovation_item_id: i.id, scheme: i.scheme ?? '' })),
    // extension: the grant rows applied
    (i) => ({ grant_rules: i.sources.grant_rules }),
  );
}

export function renderSearchEntry(
  doc: RenovationDoc,
  estate: RenovationEstateSnapshot | null,
  managingExternalId: string | null,
): RenovationSearchEntry {
  const t = totalsOf(doc);
  const address = estate?.fields.address;
  return {
    renovation_id: doc.id,
    renovation_created_at: doc.created_at,
    renovation_updated_at: doc.updated_at,
    subsidy_amount: t.subsidy_amount,
    estimated_cost: t.estimated_cost,
    estimated_vat_cost: t.estimated_vat_cost,
    total_estimated_cost_incl_vat: t.total_estimated_cost_incl_vat,
    estate_id: doc.estate_id,
    estate_geo_address: {
      house_number: address?.house_number ?? null,
      place: address?.place ?? null,
      street: address?.street ?? null,
      zip_code: address?.zip_code ?? null,
    },
    managing_user: { id: estate?.fields.managing_user_id ?? null, external_id: managingExternalId },
    renovation_name: doc.renovation_name,
    renovation_deleted_at: doc.deleted_at,
  };
}

const CATALOGUE_SCOPE: Record<ItemPlacement['scope'], ClientScope> = {
  GENERAL: 'general',
  ROOF: 'roof',
  ROOM: 'room',
  STAIRCASE: 'staircase',
};

/** The roots a client may add in this place on this estate, each with its full selection tree (nothing selected). */
export function renderAvailableItems(estate: RenovationEstateSnapshot, placement: ItemPlacement) {
  const ctx = placementContext(estate, placement, knownPropertyOfEstate(estate));
  return availableItems(CATALOGUE_SCOPE[placement.scope], ctx).map((tree) => ({
    root_renovation_component_type: tree.renovation_component_type,
    selection_tree: [toInterfaceTree(tree)],
  }));
}
