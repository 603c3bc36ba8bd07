import { createHash } from 'node:crypto';
import {
  appliesTo,
  CATALOGUE_VERSION,
  effectsOfSet,
  findNode,
  isAllowedInScope,
  leafOfType,
  leavesOf,
  MissingQuantityInputError,
  priceItem,
  priceSet,
  quantityFor,
  rootOf,
  sumFigures,
  type CatalogueNode,
  type ClientScope,
  type IncomeCategory,
  type PricedItem,
  type QuantityContext,
} from '@renopath/catalog';
import { detectRegion, MODEL_VERSION, scaleOfRegion, scoreVariant } from '@renopath/energy';
import type {
  Country,
  DerivedItemFigures,
  ItemFigures,
  ItemPlacement,
  ItemScope,
  PropertyDescription,
  Region,
  RenovationEstateSnapshot,
  RenovationValuation,
} from '@renopath/contracts';
import { findOnFloor, findRoof } from '../estate-mirror/estate-mirror.ts';
import { knownPropertyOfEstate, propertyOf, roofFields, REQUIRED_PROPERTY_FIELDS } from '../estate-mirror/property.ts';

/**
 * The figures of a renovation (docs/domain.md, The catalogue), pure: every item's quantity, cost, VAT and grant from
 * the catalogue for the estate's country, region, age and the price year; the supporting works the
 * items need; the label the estate reaches with them (energy model); the totals.
 */

export interface ValuedItem {
  item_id: string;
  renovation_component_type: string;
  count: number;
  placement: ItemPlacement;
  /**
   * The quantity of one unit set when the item was made (items from a trajectory: the plan's quantity,
   * measured on the energy model's geometry). It is kept through estate changes, so the item prices
   * what was planned even where the estate gives no surface; `count` multiplies it. Absent or null:
   * the quantity follows the estate (the part's surface, or `count` units).
   */
  quantity?: number | null;
}

export interface ValuationOptions {
  /** The household's income category when the renovation states one (from its trajectory); unset: the data's default. */
  income_category?: IncomeCategory;
}

const CATALOGUE_SCOPE: Record<ItemScope, ClientScope> = { GENERAL: 'general', ROOF: 'roof', ROOM: 'room', STAIRCASE: 'staircase' };

/** The basics every price needs: where the estate is and how old it is. */
interface PricingBasics {
  country: Country;
  region: Region;
  year_built: number;
}

function basicsOf(estate: RenovationEstateSnapshot): { basics: PricingBasics | null; missing: string[] } {
  const { country, zip_code } = estate.fields.address;
  const year_built = estate.fields.year_built;
  const region = zip_code && country ? detectRegion(zip_code, country) : null;
  const missing = [
    ...(country ? [] : ['address.country']),
    ...(zip_code && (region || !country) ? [] : ['address.zip_code']),
    ...(year_built ? [] : ['year_built']),
  ];
  return { basics: country && region && year_built ? { country, region, year_built } : null, missing };
}

/** What the catalogue's predicates and quantity rules read for an item in its place (a roof's own type and surface, a room's surface). */
export function placementContext(
  estate: RenovationEstateSnapshot,
  placement: ItemPlacement,
  base: Partial<PropertyDescription>,
): QuantityContext {
  if (placement.scope === 'ROOF' && placement.roof_id) {
    const roof = findRoof(estate, placement.roof_id);
    if (!roof) return base;
    // This roof's type, surface and insulation, not the whole estate's: the item's quantity is this roof's.
    const ctx: QuantityContext = { ...base };
    for (const field of [
      'inclined_roof_pane_surface',
      'flat_roof_pane_surface',
      'inclined_roof_insulation_type',
      'flat_roof_insulation_type',
    ] as const)
      delete ctx[field];
    Object.assign(ctx, roofFields([roof]));
    if (roof.surface_m2 !== null) ctx.roof_surface = roof.surface_m2;
    return ctx;
  }
  if (placement.scope === 'ROOM' && placement.room_id) {
    const found = findOnFloor(estate, 'rooms', placement.room_id);
    const surface = (found?.part as { surface_m2?: number | null } | undefined)?.surface_m2;
    return surface ? { ...base, room_surface: surface } : base;
  }
  return base;
}

/**
 * Why a client may not put this component type in this place on this estate; null when they may.
 * `known`: the estate's known fields (`knownPropertyOfEstate`), which a caller that checks several
 * items against one estate makes once. The predicates read only those, not the model's validated input.
 */
export function refusalOf(
  estate: RenovationEstateSnapshot,
  placement: ItemPlacement,
  type: string,
  year: number,
  known = knownPropertyOfEstate(estate),
): string | null {
  const scope = placement.scope.toLowerCase();
  const node = findNode(type);
  if (!node) return `renovation_component_type ${type} is not a renovation component type of the catalogue`;
  if (!isAllowedInScope(type, CATALOGUE_SCOPE[placement.scope])) {
    return `renovation_component_type ${type} is not allowed in the ${scope} scope (see the available items)`;
  }
  const ctx = placementContext(estate, placement, known);
  if (!leavesOf(node).some((leaf) => appliesTo(leaf, ctx))) {
    return `renovation_component_type ${type} is not available for this ${scope === 'general' ? 'estate' : scope} (see the available items)`;
  }
  const { basics, missing } = basicsOf(estate);
  if (!basics) return `the estate needs ${missing.join(', ')} before renovation items can be priced`;
  try {
    priceItem({ node, quantity: 1, country: basics.country, region: basics.region, year, estate: { year_built: basics.year_built } });
  } catch (err) {
    return `renovation_component_type ${type} cannot be priced in ${basics.country}: ${(err as Error).message}`;
  }
  return null;
}

/** An item's quantity: its own explicit one times `count`, else from the estate or the part it is linked to. */
function quantityOfItem(
  item: ValuedItem,
  leaf: CatalogueNode | null,
  estate: RenovationEstateSnapshot,
  base: Partial<PropertyDescription>,
): { quantity: number; issues: string[] } {
  if (item.quantity !== undefined && item.quantity !== null)
    return { quantity: Math.round(item.quantity * item.count * 100) / 100, issues: [] };
  if (!leaf) return { quantity: item.count, issues: [] };
  return quantityOf(leaf, placementContext(estate, item.placement, base), item.count);
}

function quantityOf(leaf: CatalogueNode, ctx: QuantityContext, count: number): { quantity: number; issues: string[] } {
  try {
    return { quantity: quantityFor(leaf, { ...ctx, count }), issues: [] };
  } catch (err) {
    if (!(err instanceof MissingQuantityInputError)) throw err;
    // Nothing to measure it by: `count` is the number of units (docs/http-contract.md).
    return {
      quantity: count,
      issues: [`quantity: the estate gives none of ${err.needs.join(', ')}; count taken as the number of ${leaf.unit}`],
    };
  }
}

export const unpriced = (unit: string, quantity: number, issues: string[]): ItemFigures => ({
  quantity,
  unit,
  priced_as: null,
  estimated_cost: 0,
  estimated_vat_cost: 0,
  vat_rate: 0,
  subsidy_amount: 0,
  grant_category: null,
  scheme: null,
  conditions: [],
  sources: { price_row: null, vat_case: null, grant_rules: [] },
  issues,
});

const figuresOf = (priced: PricedItem, issues: string[]): ItemFigures => ({
  quantity: priced.quantity,
  unit: priced.unit,
  priced_as: priced.priced_as,
  estimated_cost: priced.estimated_cost,
  estimated_vat_cost: priced.estimated_vat_cost,
  vat_rate: priced.vat_rate,
  subsidy_amount: priced.subsidy_amount,
  grant_category: priced.grant_category,
  scheme: priced.scheme,
  conditions: priced.conditions,
  sources: { price_row: priced.sources.price_row, vat_case: priced.sources.vat_case, grant_rules: priced.sources.grant_rules },
  issues,
});

/** A derived item's id: the same for the same work of the same renovation, so clients can follow it across recomputations. */
export function derivedItemId(renovation_id: string, type: string): string {
  const bytes = createHash('sha256').update(`renopath-derived\0${renovation_id}\0${type}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function valuate(
  renovation_id: string,
  items: readonly ValuedItem[],
  estate: RenovationEstateSnapshot,
  year: number,
  options: ValuationOptions = {},
): RenovationValuation {
  const property = propertyOf(estate);
  const { basics, missing } = basicsOf(estate);
  const issues: string[] = [];
  if (!basics) issues.push(`prices need ${missing.join(', ')} of the estate`);

  const measured = items.map((item) => {
    const leaf = leafOfType(item.renovation_component_type);
    const { quantity, issues: qIssues } = quantityOfItem(item, leaf, estate, property.partial);
    return { item, leaf, quantity, qIssues };
  });
  const setItems = measured.map((m) => ({
    key: m.item.item_id,
    renovation_component_type: m.item.renovation_component_type,
    quantity: m.quantity,
  }));
  // Effects first: the heating after the works decides the VAT of emitters (BE, fossil heating); the shared module orders it.
  const effects = effectsOfSet(property.partial, setItems);
  const { after } = effects;
  const priced = basics
    ? priceSet(setItems, { ...basics, year, ...(options.income_category ? { income_category: options.income_category } : {}) }, effects)
    : null;

  const figures: Record<string, ItemFigures> = {};
  for (const m of measured) {
    const unit = m.leaf?.unit ?? 'piece';
    if (!m.leaf) {
      figures[m.item.item_id] = unpriced(unit, m.quantity, [`${m.item.renovation_component_type} is no longer in the catalogue`]);
      continue;
    }
    if (!priced) {
      figures[m.item.item_id] = unpriced(unit, m.quantity, [...m.qIssues, `not priced: the estate needs ${missing.join(', ')}`]);
      continue;
    }
    const result = priced.items[m.item.item_id]!;
    figures[m.item.item_id] = result.priced
      ? figuresOf(result.priced, m.qIssues)
      : unpriced(unit, m.quantity, [...m.qIssues, result.error]);
  }

  const derived: DerivedItemFigures[] = [];
  if (priced) {
    if (priced.derived_error) issues.push(priced.derived_error);
    for (const w of priced.derived) {
      derived.push({
        ...figuresOf(w, []),
        id: derivedItemId(renovation_id, w.renovation_component_type),
        renovation_component_type: w.renovation_component_type,
        supports: w.supports,
      });
    }
  }

  let energy_efficiency_indication: string | null = null;
  let epc_score_after: number | null = null;
  const region = basics?.region ?? null;
  let energy_efficiency_type: RenovationValuation['energy_efficiency_type'] = region ? scaleOfRegion(region) : null;
  if (property.full) {
    try {
      // The figures alone: the reached home's data quality is not part of a valuation.
      const reached = scoreVariant(property.full, after as Partial<PropertyDescription>);
      energy_efficiency_indication = reached.epc_label;
      energy_efficiency_type = reached.energy_efficiency_type;
      epc_score_after = Math.round(reached.epc_score * 10) / 10;
    } catch (err) {
      issues.push(`energy indication not computed: ${(err as Error).message}`);
    }
  } else {
    const unknown = REQUIRED_PROPERTY_FIELDS.filter((f) => property.partial[f] === undefined);
    issues.push(`energy indication needs the estate's ${unknown.length ? unknown.join(', ') : "description in the model's ranges"}`);
  }

  const totals = sumFigures([...Object.values(figures), ...derived]);
  return {
    year,
    catalogue_version: CATALOGUE_VERSION,
    model_version: MODEL_VERSION,
    country: basics?.country ?? null,
    region,
    items: figures,
    derived,
    energy_efficiency_indication,
    energy_efficiency_type,
    epc_score_after,
    totals,
    issues,
  };
}

/** The root (least specific type) of a component type. */
export function rootTypeOf(type: string): string {
  const node = findNode(type);
  return node ? rootOf(node).renovation_component_type : type;
}
