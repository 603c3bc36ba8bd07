import type { Country, HeatingType, Region } from '@renopath/contracts';
import { defaultLeaf, getNode, isLeaf } from './catalogue.ts';
import { costIndexFactor } from './cost-index.ts';
import { DATA, indexRows, type UnitPriceRow } from './data.ts';
import { grantFor } from './grants.ts';
import type { CatalogueNode, GrantCategory, IncomeCategory, Unit } from './types.ts';
import { vatFor } from './vat.ts';

export interface PricingEstate {
  year_built: number;
  /** Years since first occupation, at the invoice date; defaults to the years since `year_built`. */
  first_occupied_years_ago?: number;
  /** Defaults to MIDDLE (stated in `assumptions`). */
  income_category?: IncomeCategory;
  /** The heating carrier after the works (BE: emitters on a fossil system are taxed at 21% since 1 July 2025). */
  heating_type_after?: HeatingType;
}

export interface PriceItemInput {
  node: CatalogueNode | string;
  quantity: number;
  country: Country;
  region: Region;
  /** Price and rule year. */
  year: number;
  /** Invoice date (YYYY-MM-DD) for rules that change within a year; defaults to 1 July of `year`. */
  date?: string;
  estate: PricingEstate;
  /** Other component types in the same renovation: combination rates (ISDE) and bonuses that need a companion. */
  companions?: readonly string[];
}

export interface PricedItem {
  renovation_component_type: string;
  /** The leaf whose price was used (differs when an inner node was chosen). */
  priced_as: string;
  quantity: number;
  unit: Unit;
  unit_cost: number;
  estimated_cost: number;
  estimated_vat_cost: number;
  /** Effective VAT rate (a blend when labour and materials are taxed differently). */
  vat_rate: number;
  subsidy_amount: number;
  /** Cost including VAT minus the subsidy: what the owner pays in the end. */
  net_cost: number;
  grant_category: GrantCategory;
  scheme: string | null;
  conditions: string[];
  assumptions: string[];
  /** The data rows the figures come from (house style: domain figures are data with sources). */
  sources: { price_row: string | null; vat_case: string; grant_rules: string[] };
}

export class PricingError extends Error {}

const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

const REGIONS_OF: Record<Country, readonly Region[]> = { BE: ['FLANDERS', 'BRUSSELS', 'WALLONIA'], NL: ['NETHERLANDS'] };

export function dwellingAge(estate: PricingEstate, year: number): number {
  return estate.first_occupied_years_ago ?? year - estate.year_built;
}

/**
 * The price rows by leaf and country: the planner prices every variant of every element at each
 * step, and a scan of every row per price was a large share of a plan's time.
 */
const PRICE_ROWS = indexRows(DATA.unitPrices.rows, (row) => [`${row.node}|${row.country}`]);

/** The unit-price row for a leaf: a region's own row first, then the country's. */
export function unitPriceRow(type: string, country: Country, region: Region): UnitPriceRow | undefined {
  const rows = PRICE_ROWS.get(`${type}|${country}`) ?? [];
  return rows.find((r) => r.region === region) ?? rows.find((r) => r.region === null);
}

/** The region's factor on a country-wide price row (regional-price-factors.json; 1 when the region has none). */
export function regionalFactor(region: Region): number {
  return DATA.regionalFactors.rows.find((r) => r.region === region)?.factor ?? 1;
}

interface CoreInput extends PriceItemInput {
  node: CatalogueNode;
  unitCostAtYear: number;
  labourShare: number | undefined;
  fossilShare?: number | undefined;
  priceRow: string | null;
  extraAssumptions: string[];
  requestedType: string;
}

/** The income category grants assume when none is given (income-categories.json). */
export const DEFAULT_INCOME_CATEGORY = DATA.income.default;

/** The date whose VAT and grant rules price a year's works when no invoice date is given: mid-year, as invoices are. */
export const rulesDateOf = (year: number): string => `${year}-07-01`;

/** VAT, grants and totals around a unit cost already moved to the target year and region. */
export function priceCore(input: CoreInput): PricedItem {
  const { node, quantity, country, region, year, estate } = input;
  const date = input.date ?? rulesDateOf(year);
  const assumptions = [...input.extraAssumptions];
  if (input.date === undefined) assumptions.push(`Rules in force on ${date} applied (mid-year invoice date assumed).`);
  const age = dwellingAge(estate, year);
  const cost = round2(input.unitCostAtYear * quantity);
  const vat = vatFor(node.vat[country], {
    date,
    dwelling_age_years: age,
    ...(estate.heating_type_after ? { heating_type_after: estate.heating_type_after } : {}),
    ...(input.labourShare !== undefined ? { labour_share: input.labourShare } : {}),
    ...(input.fossilShare !== undefined ? { fossil_share: input.fossilShare } : {}),
  });
  const vatCost = round2(vat.parts.reduce((sum, p) => sum + cost * p.share * p.rate, 0));
  const income = estate.income_category ?? DATA.income.default;
  const grant = grantFor(node, {
    region,
    date,
    income_category: income,
    income_is_default: estate.income_category === undefined,
    dwelling_age_years: age,
    year_built: estate.year_built,
    quantity,
    cost,
    companions: input.companions ?? [],
  });
  return {
    renovation_component_type: input.requestedType,
    priced_as: node.renovation_component_type,
    quantity,
    unit: node.unit,
    unit_cost: round2(input.unitCostAtYear),
    estimated_cost: cost,
    estimated_vat_cost: vatCost,
    vat_rate: vat.effective_rate,
    subsidy_amount: grant.amount,
    net_cost: round2(cost + vatCost - grant.amount),
    grant_category: node.grant_category,
    scheme: grant.scheme,
    conditions: grant.conditions,
    assumptions: [...assumptions, ...grant.assumptions],
    sources: { price_row: input.priceRow, vat_case: vat.case_id, grant_rules: grant.rule_ids },
  };
}

/**
 * Cost, VAT, grants and net cost of one item (docs/domain.md, The catalogue). Money in euros, rounded to cents;
 * cost excludes VAT; the grant never exceeds the cost. An inner node is priced as its default leaf.
 */
export function priceItem(input: PriceItemInput): PricedItem {
  const requested = typeof input.node === 'string' ? getNode(input.node) : input.node;
  if (!REGIONS_OF[input.country].includes(input.region)) {
    throw new PricingError(`region ${input.region} is not in country ${input.country}`);
  }
  if (!(input.quantity >= 0) || !Number.isFinite(input.quantity)) throw new PricingError('quantity must be a finite number >= 0');
  const node = isLeaf(requested) ? requested : defaultLeaf(requested);
  const extra: string[] = [];
  if (node !== requested) extra.push(`${requested.renovation_component_type} priced as ${node.renovation_component_type}.`);
  const row = unitPriceRow(node.renovation_component_type, input.country, input.region);
  if (!row) throw new PricingError(`no unit price for ${node.renovation_component_type} in ${input.country}`);
  const index = costIndexFactor(input.country, input.year);
  if (index.assumption) extra.push(index.assumption);
  const factor = row.region === null ? regionalFactor(input.region) : 1;
  return priceCore({
    ...input,
    node,
    requestedType: requested.renovation_component_type,
    unitCostAtYear: row.unit_cost * factor * index.factor,
    labourShare: row.labour_share,
    fossilShare: row.fossil_share,
    priceRow: row.id,
    extraAssumptions: extra,
  });
}
