import { GrantCategory as GrantCategorySchema, IncomeCategory as IncomeCategorySchema } from '@renopath/contracts';
import type { Country, EcoFacility, IncomeCategory, PropertyDescription, PropertyField, Region } from '@renopath/contracts';

export type { IncomeCategory };

/** Who may add a node: the client in one of four scopes, or the system (`derived`). */
export type Scope = 'general' | 'room' | 'roof' | 'staircase' | 'derived';
export const CLIENT_SCOPES = ['general', 'room', 'roof', 'staircase'] as const satisfies readonly Scope[];
export const SCOPES = [...CLIENT_SCOPES, 'derived'] as const satisfies readonly Scope[];

export type Unit = 'm2' | 'm' | 'piece' | 'kWp' | 'lump_sum';

/** The renovation overview's grant groups: one definition, the contract's. */
export const GRANT_CATEGORIES = GrantCategorySchema.options;
export type GrantCategory = (typeof GRANT_CATEGORIES)[number];

/** Flanders' three owner-occupier groups; other regions map them to their own classes (data/income-categories.json). */
export const INCOME_CATEGORIES = IncomeCategorySchema.options;

/** What an item's quantity follows (see quantity.ts for how each is computed). */
export type QuantityRule =
  | 'inclined_roof_surface'
  | 'flat_roof_surface'
  | 'roof_surface'
  | 'attic_floor_surface'
  | 'facade_net_surface'
  | 'window_surface'
  | 'basement_ceiling_surface'
  | 'ground_floor_surface'
  | 'habitable_space'
  | 'room_floor_surface'
  | 'room_wall_surface'
  | 'gutter_length'
  | 'railing_length'
  | 'pv_kwp_from_roof'
  | 'count'
  | 'lump_sum';

/**
 * A condition on the property. Unknown fields resolve by `unknown` (default 'pass': missing data
 * must not hide an option from the client; the planner fills typology defaults before asking).
 */
export type Predicate =
  | {
      field: PropertyField;
      op: 'eq' | 'neq' | 'gte' | 'lte' | 'in' | 'not_in' | 'at_least_level' | 'below_level';
      value: unknown;
      unknown?: 'pass' | 'fail';
    }
  | { all: Predicate[] }
  | { any: Predicate[] }
  | { at_least: number; of: Predicate[] };

/** A measure's energy effect: a patch of the property the energy model reads. */
export interface Effect {
  /** Fields set by the measure; insulation, glazing and ventilation levels never go down. */
  patch?: Partial<PropertyDescription>;
  /** Fields set only when the property does not give them (e.g. a hybrid keeps its gas carrier). */
  defaults?: Partial<PropertyDescription>;
  /** Numbers the works bring down to at most this value (a lower v50 is tighter; a tighter home keeps its own). */
  at_most?: { air_tightness_v50?: number };
  /** Adds the item's quantity (kWp) to `solar_panels_kwp`. */
  add_kwp_from_quantity?: boolean;
  add_eco_facilities?: EcoFacility[];
}

export interface Requirement {
  /** Physical applicability: the home cannot take the measure otherwise (availableRoots prunes on it). */
  applies_if?: Predicate;
  /** Order: the measure comes after one of these types is planned, unless `after_unless` already holds. */
  after_any?: string[];
  after_unless?: Predicate;
  /** Plain-language reason, shown to the planner and the client. */
  reason: string;
}

export type VatRuleId =
  | 'BE_RENOVATION'
  | 'BE_FOSSIL_HEATING'
  | 'BE_HEATING_DISTRIBUTION'
  | 'BE_HEAT_PUMP'
  | 'BE_HYBRID_HEAT_PUMP'
  | 'BE_SOLAR'
  | 'BE_SERVICE'
  | 'NL_STANDARD'
  | 'NL_INSULATION'
  | 'NL_PV';

export interface CatalogueNode {
  renovation_component_type: string;
  scope: Scope;
  name: string;
  name_nl: string;
  name_fr: string;
  parent: string | null;
  unit: Unit;
  /** Children in display order; empty for a leaf. */
  children: string[];
  // The fields below matter for leaves (priced nodes).
  quantity_rule: QuantityRule;
  grant_category: GrantCategory;
  vat: { BE: VatRuleId; NL: VatRuleId };
  effect: Effect | null;
  requirements: Requirement[];
  /** Nodes sharing a group exclude each other in one plan (one heat generator, one window type ...). */
  exclusive_group: string | null;
  /** Structural works need an architect (BE permit) or engineer. */
  structural: boolean;
  /** True for leaves the trajectory planner may pick. */
  planner_measure: boolean;
}

export type { Country, Region, PropertyDescription, PropertyField };
