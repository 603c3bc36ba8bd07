import { z } from 'zod';
import { Country, HeatingType, PROPERTY_FIELD_NAMES, Region, type PropertyField } from '@renopath/contracts';
import unitPricesJson from '../data/unit-prices.json' with { type: 'json' };
import regionalFactorsJson from '../data/regional-price-factors.json' with { type: 'json' };
import costIndexJson from '../data/construction-cost-index.json' with { type: 'json' };
import vatJson from '../data/vat-rules.json' with { type: 'json' };
import incomeJson from '../data/income-categories.json' with { type: 'json' };
import supportingJson from '../data/supporting-works.json' with { type: 'json' };
import quantityJson from '../data/quantity-rules.json' with { type: 'json' };
import flandersJson from '../data/grants/flanders.json' with { type: 'json' };
import brusselsJson from '../data/grants/brussels.json' with { type: 'json' };
import walloniaJson from '../data/grants/wallonia.json' with { type: 'json' };
import netherlandsJson from '../data/grants/netherlands.json' with { type: 'json' };
import prerequisitesJson from '../data/prerequisites.json' with { type: 'json' };
import measureFiguresJson from '../data/measure-figures.json' with { type: 'json' };
import productsJson from '../data/products.json' with { type: 'json' };
import { INCOME_CATEGORIES, type Predicate } from './types.ts';

/**
 * The catalogue's figures, parsed once at import: a malformed data file fails loudly at start-up
 * rather than pricing silently wrong. Every row carries its source, year and note (house style: domain figures are data with sources).
 */
const sourced = {
  id: z.string().regex(/^[A-Z0-9_]+$/),
  year: z.number().int().min(2000).max(2100),
  source: z.string().min(5),
  note: z.string().min(3),
};
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const IncomeCategory = z.enum(INCOME_CATEGORIES);

export const UnitPriceRow = z.strictObject({
  ...sourced,
  node: z.string(),
  country: Country,
  region: Region.nullable(),
  unit_cost: z.number().positive(),
  labour_share: z.number().min(0).max(1).optional(),
  /** The part of a system's price that is a fossil-fuel appliance (a hybrid's boiler): a case's `fossil_rate` taxes it. */
  fossil_share: z.number().min(0).max(1).optional(),
});
export type UnitPriceRow = z.infer<typeof UnitPriceRow>;

const RegionalFactorRow = z.strictObject({ ...sourced, region: Region, factor: z.number().positive() });

const CostIndexRow = z.strictObject({ ...sourced, value: z.number().positive() });
const CostIndexCountry = z.strictObject({
  country: Country,
  index_name: z.string(),
  annual_growth_after_last_row: z.number(),
  growth_source: z.string(),
  growth_note: z.string(),
  rows: z.array(CostIndexRow).min(1),
});

const VatRate = z.strictObject({ ...sourced, country: Country, rate: z.number().min(0).max(1) });
const VatCase = z.strictObject({
  ...sourced,
  when: z.strictObject({
    from: isoDate.optional(),
    to: isoDate.optional(),
    min_dwelling_age_years: z.number().optional(),
    heating_type_after_in: z.array(HeatingType).optional(),
  }),
  rate: z.string().optional(),
  split: z.strictObject({ labour: z.string(), materials: z.string() }).optional(),
  /** The row's `fossil_share` is taxed at this rate, the rest at `rate` (BE hybrid: its boiler at 21% since July 2025). */
  fossil_rate: z.string().optional(),
});
export type VatCase = z.infer<typeof VatCase>;
const VatRule = z.strictObject({ id: z.string(), cases: z.array(VatCase).min(1) });

const Amount = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('per_unit'), value: z.number().min(0) }),
  z.strictObject({ kind: z.literal('share_of_cost'), value: z.number().min(0).max(1) }),
  z.strictObject({ kind: z.literal('fixed'), value: z.number().min(0) }),
  z.strictObject({
    kind: z.literal('per_capacity'),
    base: z.number().min(0),
    per_unit: z.number().min(0),
    assumed_capacity: z.number().positive(),
    capacity_unit: z.string(),
  }),
]);
export type GrantAmount = z.infer<typeof Amount>;

export const GrantRule = z.strictObject({
  ...sourced,
  scheme: z.string(),
  region: Region,
  nodes: z.array(z.string()).min(1),
  valid_from: isoDate,
  valid_to: isoDate.nullable(),
  income_categories: z.array(IncomeCategory).nullable(),
  amount: Amount,
  /** The rate when combined with one of `combination_with` (e.g. ISDE's doubled rate for two measures). */
  combined_amount: Amount.optional(),
  combination_with: z.array(z.string()).optional(),
  /** A bonus that only counts together with one of these types. */
  requires_companion: z.array(z.string()).optional(),
  invoice_ceiling: z.number().positive().optional(),
  max_amount: z.number().positive().optional(),
  max_share_of_cost: z.number().min(0).max(1).optional(),
  min_quantity: z.number().positive().optional(),
  max_quantity: z.number().positive().optional(),
  min_dwelling_age_years: z.number().min(0).optional(),
  max_year_built: z.number().int().optional(),
  conditions: z.array(z.string()),
});
export type GrantRule = z.infer<typeof GrantRule>;
const GrantFile = z.strictObject({ description: z.string(), rules: z.array(GrantRule) });

const IncomeRow = z.strictObject({ ...sourced, region: Region, map: z.record(IncomeCategory, z.string()) });

const ScaffoldRow = z.strictObject({ ...sourced, nodes: z.array(z.string()).min(1), m2_per_unit: z.number().positive() });
const RateRow = z.strictObject({ ...sourced, country: Country, rate: z.number().min(0).max(1) });
const SafetyRow = z.strictObject({
  ...sourced,
  country: Country,
  /** False where the private owner has no coordinator to appoint (the Netherlands): the row only says why. */
  required: z.boolean().optional(),
  rate: z.number().min(0).max(1),
  minimum: z.number().min(0),
});
/** The trades each measure takes and the works done together on one site (the safety coordinator's rule). */
const CoordinationSites = z.strictObject({
  ...sourced,
  trades: z.record(z.string(), z.array(z.string()).min(1)),
  sites: z.array(z.strictObject({ id: z.string(), members: z.array(z.string()).min(1) })),
});
const RemovalRow = z.strictObject({
  ...sourced,
  node: z.string(),
  demolition_per_unit: z.strictObject({ BE: z.number().min(0), NL: z.number().min(0) }),
  waste_m3_per_unit: z.number().min(0),
});
const SupportingWorks = z.strictObject({
  description: z.string(),
  scaffolding: z.array(ScaffoldRow),
  architect: z.array(RateRow),
  safety_coordination: z.array(SafetyRow),
  coordination_sites: CoordinationSites,
  removal: z.array(RemovalRow),
  waste_container: z.strictObject({ ...sourced, m3: z.number().positive() }),
  asbestos_inventory: z.array(z.strictObject({ ...sourced, country: Country, built_before: z.number().int() })),
  asbestos_inventory_triggers: z.strictObject({ ...sourced, roots: z.array(z.string()) }),
  /** Regions whose grants for these roots need a prior housing audit (Wallonia's audit logement). */
  housing_audit: z.array(z.strictObject({ ...sourced, region: Region, trigger_roots: z.array(z.string()).min(1) })),
});

const QuantityRow = z.strictObject({ ...sourced, value: z.number().positive() });

/** A predicate as data (types.ts Predicate); field names must be PropertyDescription's. */
const PredicateSchema: z.ZodType<Predicate> = z.lazy(() =>
  z.union([
    z.strictObject({
      field: z.enum(PROPERTY_FIELD_NAMES as [PropertyField, ...PropertyField[]]),
      op: z.enum(['eq', 'neq', 'gte', 'lte', 'in', 'not_in', 'at_least_level', 'below_level']),
      value: z.unknown(),
      unknown: z.enum(['pass', 'fail']).optional(),
    }),
    z.strictObject({ all: z.array(PredicateSchema).min(1) }),
    z.strictObject({ any: z.array(PredicateSchema).min(1) }),
    z.strictObject({ at_least: z.number().int().min(1), of: z.array(PredicateSchema).min(1) }),
  ]),
);
const PrerequisiteRow = z.strictObject({
  ...sourced,
  measures: z.array(z.string()).min(1),
  after_any: z.array(z.string()).min(1),
  after_unless: PredicateSchema.optional(),
  reason: z.string().min(5),
});
export type PrerequisiteRow = z.infer<typeof PrerequisiteRow>;
const ProductRow = z.strictObject({
  ...sourced,
  nodes: z.array(z.string()).min(1),
  description: z.string().min(5),
  glazing_ug_max: z.number().positive(),
  window_uw_max: z.number().positive().nullable(),
  renewed_frames: z.boolean(),
});
export type ProductRow = z.infer<typeof ProductRow>;

export const DATA = {
  unitPrices: z
    .strictObject({ description: z.string(), price_level_year: z.number().int(), rows: z.array(UnitPriceRow) })
    .parse(unitPricesJson),
  regionalFactors: z.strictObject({ description: z.string(), rows: z.array(RegionalFactorRow) }).parse(regionalFactorsJson),
  costIndex: z.strictObject({ description: z.string(), countries: z.array(CostIndexCountry) }).parse(costIndexJson),
  vat: z.strictObject({ description: z.string(), rates: z.array(VatRate), rules: z.array(VatRule) }).parse(vatJson),
  income: z.strictObject({ description: z.string(), default: IncomeCategory, rows: z.array(IncomeRow) }).parse(incomeJson),
  supporting: SupportingWorks.parse(supportingJson),
  quantity: z.strictObject({ description: z.string(), rows: z.array(QuantityRow) }).parse(quantityJson),
  prerequisites: z.strictObject({ description: z.string(), rows: z.array(PrerequisiteRow) }).parse(prerequisitesJson),
  measureFigures: z.strictObject({ description: z.string(), rows: z.array(QuantityRow) }).parse(measureFiguresJson),
  products: z.strictObject({ description: z.string(), rows: z.array(ProductRow) }).parse(productsJson),
  grants: [flandersJson, brusselsJson, walloniaJson, netherlandsJson].flatMap((f) => GrantFile.parse(f).rules),
};

/**
 * Rows grouped under each key `keysOf` gives them, in their order: the lookups a price makes many
 * times (its unit-price row, its grant rules) go through one of these, built once at load.
 */
export function indexRows<T>(rows: readonly T[], keysOf: (row: T) => Iterable<string>): ReadonlyMap<string, readonly T[]> {
  const index = new Map<string, T[]>();
  for (const row of rows) {
    for (const key of new Set(keysOf(row))) {
      const group = index.get(key);
      if (group) group.push(row);
      else index.set(key, [row]);
    }
  }
  return index;
}

/** A named figure of an energy effect (measure-figures.json); a missing id is a programming error. */
export function measureFigure(id: string): number {
  const row = DATA.measureFigures.rows.find((r) => r.id === id);
  if (!row) throw new Error(`measure-figures.json has no row ${id}`);
  return row.value;
}

/** A named figure from quantity-rules.json; a missing id is a programming error. */
export function quantityFigure(id: string): number {
  const row = DATA.quantity.rows.find((r) => r.id === id);
  if (!row) throw new Error(`quantity-rules.json has no row ${id}`);
  return row.value;
}
