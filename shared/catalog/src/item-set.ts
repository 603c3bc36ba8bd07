import type { Country, HeatingType, PropertyDescription, Region } from '@renopath/contracts';
import { defaultLeaf, findNode, isLeaf } from './catalogue.ts';
import { applyEffect } from './effects.ts';
import { priceItem, type PricedItem } from './pricing.ts';
import { supportingWorks, type DerivedItem } from './supporting-works.ts';
import type { CatalogueNode, IncomeCategory } from './types.ts';

/**
 * How a set of items is valued together (docs/domain.md, The catalogue): the effects of all items first (the heating
 * after the works decides the Belgian VAT of emitters), every item priced with the whole set as its
 * companions (combination rates, bonuses that need a companion), then the supporting works the whole
 * set needs. The renovations context and the trajectory planner both value through here, so a plan's
 * figures are the figures of the renovation made from it.
 */

export interface SetItem {
  /** The caller's key (an item id, a step number). */
  key: string;
  renovation_component_type: string;
  /** In the leaf's unit, already resolved by the caller (the estate, a part, the model's geometry). */
  quantity: number;
}

export interface SetEffects {
  /** The property after every item's effect, in item order. */
  after: Partial<PropertyDescription>;
  heating_type_after: HeatingType | undefined;
  /** The leaves of the set: each item's companions. */
  companions: string[];
}

export interface SetPricing {
  country: Country;
  region: Region;
  /** Price and rule year. */
  year: number;
  year_built: number;
  /** Unset: the data's default (MIDDLE), stated in each item's assumptions. */
  income_category?: IncomeCategory;
}

export type SetItemResult = { priced: PricedItem; error?: undefined } | { priced?: undefined; error: string };

export interface ValuedSet extends SetEffects {
  /** By key; an error says why the item has no figures. */
  items: Record<string, SetItemResult>;
  derived: DerivedItem[];
  /** Why the supporting works could not be priced; null when they were. */
  derived_error: string | null;
}

/** The catalogue leaf an item is priced as (an inner node is priced as its default leaf); null when the type left the catalogue. */
export function leafOfType(type: string): CatalogueNode | null {
  const node = findNode(type);
  if (!node) return null;
  return isLeaf(node) ? node : defaultLeaf(node);
}

/** The effects of the items on the property, in order (types no longer in the catalogue change nothing). */
export function effectsOfSet(property: Partial<PropertyDescription>, items: readonly Omit<SetItem, 'key'>[]): SetEffects {
  let after = property;
  const companions: string[] = [];
  for (const item of items) {
    const leaf = leafOfType(item.renovation_component_type);
    if (!leaf) continue;
    after = applyEffect(leaf, after, item.quantity);
    companions.push(leaf.renovation_component_type);
  }
  return { after, heating_type_after: (after.heating_type ?? undefined) as HeatingType | undefined, companions };
}

/** Prices every item of the set and the supporting works the set needs, given the set's effects. */
export function priceSet(items: readonly SetItem[], pricing: SetPricing, effects: SetEffects): Omit<ValuedSet, keyof SetEffects> {
  const { country, region, year, year_built, income_category } = pricing;
  const { heating_type_after, companions } = effects;
  const estate = {
    year_built,
    ...(income_category ? { income_category } : {}),
    ...(heating_type_after ? { heating_type_after } : {}),
  };
  const results: Record<string, SetItemResult> = {};
  const supported: { renovation_component_type: string; quantity: number; estimated_cost: number }[] = [];
  for (const item of items) {
    const node = findNode(item.renovation_component_type);
    if (!node) {
      results[item.key] = { error: `${item.renovation_component_type} is no longer in the catalogue` };
      continue;
    }
    try {
      const priced = priceItem({ node, quantity: item.quantity, country, region, year, estate, companions });
      results[item.key] = { priced };
      supported.push({ renovation_component_type: priced.priced_as, quantity: item.quantity, estimated_cost: priced.estimated_cost });
    } catch (err) {
      results[item.key] = { error: `not priced: ${(err as Error).message}` };
    }
  }
  let derived: DerivedItem[] = [];
  let derived_error: string | null = null;
  try {
    derived = supportingWorks(supported, { ...estate, country, region, year });
  } catch (err) {
    derived_error = `supporting works not priced: ${(err as Error).message}`;
  }
  return { items: results, derived, derived_error };
}

/** Effects, prices and supporting works of a set of items on a property (pure). */
export function valueItemSet(property: Partial<PropertyDescription>, items: readonly SetItem[], pricing: SetPricing): ValuedSet {
  const effects = effectsOfSet(property, items);
  return { ...effects, ...priceSet(items, pricing, effects) };
}

const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

export interface MoneyFigures {
  estimated_cost: number;
  estimated_vat_cost: number;
  subsidy_amount: number;
}

/** Totals of rounded figures: exact sums in cents, and the cost including VAT. */
export function sumFigures(figures: readonly MoneyFigures[]): MoneyFigures & { total_estimated_cost_incl_vat: number } {
  const estimated_cost = round2(figures.reduce((s, f) => s + f.estimated_cost, 0));
  const estimated_vat_cost = round2(figures.reduce((s, f) => s + f.estimated_vat_cost, 0));
  return {
    estimated_cost,
    estimated_vat_cost,
    subsidy_amount: round2(figures.reduce((s, f) => s + f.subsidy_amount, 0)),
    total_estimated_cost_incl_vat: round2(estimated_cost + estimated_vat_cost),
  };
}
