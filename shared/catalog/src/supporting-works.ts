import { getNode, rootOf } from './catalogue.ts';
import { costIndexFactor } from './cost-index.ts';
import { DATA } from './data.ts';
import { priceCore, priceItem, regionalFactor, type PriceItemInput, type PricedItem, type PricingEstate } from './pricing.ts';

export interface SupportedItem {
  renovation_component_type: string;
  quantity: number;
  /** Cost excl. VAT when already priced; otherwise priced here. */
  estimated_cost?: number;
}

export interface SupportingEstate extends PricingEstate {
  country: PriceItemInput['country'];
  region: PriceItemInput['region'];
  year: number;
  date?: string;
}

export interface SupportingOptions {
  /** Derived types the renovation already has (e.g. one asbestos inventory covers every step). */
  already_present?: readonly string[];
}

export interface DerivedItem extends PricedItem {
  /** The client items this supporting work serves. */
  supports: string[];
  /**
   * How much of the work each supported type causes (m2 of scaffold, demolition money, m3 of waste,
   * cost of the works), so a plan can put each part on the step that needs it; a one-off work (an
   * inventory, an audit) weighs only on the first item that needs it.
   */
  weights: Record<string, number>;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * The derived works priced by type and quantity (an inventory, an audit, a scaffold, containers): the
 * planner asks for the supporting works of every variant it weighs, so the same one-off is priced many
 * times a plan with the same inputs. The price is a pure function of the key; the cache is cleared when
 * it grows, and callers copy the item before adding to it.
 */
const DERIVED_PRICES = new Map<string, PricedItem>();
const DERIVED_PRICES_MAX = 4096;

function priceDerived(node: string, quantity: number, base: Omit<PriceItemInput, 'node' | 'quantity'>): PricedItem {
  const e = base.estate;
  const key = `${node}|${quantity}|${base.country}|${base.region}|${base.year}|${base.date ?? ''}|${e.year_built}|${e.first_occupied_years_ago ?? ''}|${e.income_category ?? ''}|${e.heating_type_after ?? ''}`;
  let priced = DERIVED_PRICES.get(key);
  if (!priced) {
    if (DERIVED_PRICES.size >= DERIVED_PRICES_MAX) DERIVED_PRICES.clear();
    priced = priceItem({ ...base, node, quantity });
    DERIVED_PRICES.set(key, priced);
  }
  return priced;
}

/** Each type's catalogue root, looked up once (the one-off works and the coordinator's sites read it for every item). */
const ROOT_OF = new Map<string, string>();
const rootTypeOf = (type: string): string => {
  let root = ROOT_OF.get(type);
  if (root === undefined) {
    root = rootOf(getNode(type)).renovation_component_type;
    ROOT_OF.set(type, root);
  }
  return root;
};

/**
 * The works the system adds (docs/domain.md, The catalogue, derived): scaffolding for facade and pitched-roof works,
 * an architect for structural works, demolition and waste for replaced elements, an asbestos
 * inventory in older buildings, Wallonia's audit logement before works its primes need, and (BE) a
 * safety coordinator on each site where two or more contractors work (KB 25 January 2001).
 */
export function supportingWorks(items: readonly SupportedItem[], estate: SupportingEstate, options: SupportingOptions = {}): DerivedItem[] {
  const skip = options.already_present?.length ? new Set(options.already_present) : NOTHING_PRESENT;
  const { country, region, year } = estate;
  const base: Omit<PriceItemInput, 'node' | 'quantity'> = { country, region, year, estate, ...(estate.date ? { date: estate.date } : {}) };
  const costOf = (item: SupportedItem): number =>
    item.estimated_cost ?? priceItem({ ...base, node: item.renovation_component_type, quantity: item.quantity }).estimated_cost;
  const derived: DerivedItem[] = [];
  const add = (priced: PricedItem, supports: string[], weights: readonly number[] | null): void => {
    const by: Record<string, number> = {};
    // Without weights the work is a one-off, set up before the first item that needs it.
    supports.forEach((type, i) => {
      by[type] = (by[type] ?? 0) + (weights ? weights[i]! : i === 0 ? 1 : 0);
    });
    derived.push({ ...priced, supports: supports.length === 1 ? [supports[0]!] : [...new Set(supports)], weights: by });
  };
  const lump = (type: string, amount: number, row: string, supports: string[], weights: readonly number[], assumption: string): void => {
    add(
      priceCore({
        ...base,
        node: getNode(type),
        requestedType: type,
        quantity: 1,
        unitCostAtYear: amount,
        labourShare: undefined,
        priceRow: row,
        extraAssumptions: [assumption],
      }),
      supports,
      weights,
    );
  };
  const sw = DATA.supporting;

  if (!skip.has('SCAFFOLDING')) {
    const { m2, supports, weights } = scaffoldingOf(items);
    if (m2 > 0) add(priceDerived('SCAFFOLDING', round2(m2), base), supports, weights);
  }

  if (!skip.has('DEMOLITION') || !skip.has('WASTE_DISPOSAL')) {
    const { demolition, m3, supports, byDemolition, byWaste } = removalOf(items, country);
    if (demolition > 0 && !skip.has('DEMOLITION')) {
      lump(
        'DEMOLITION',
        demolition * regionalFactor(region) * costIndexFactor(country, year).factor,
        'REMOVAL_*',
        supports,
        byDemolition,
        'Demolition priced per replaced element (supporting-works.json removal rows).',
      );
    }
    if (m3 > 0 && !skip.has('WASTE_DISPOSAL')) {
      const containers = Math.ceil(m3 / sw.waste_container.m3);
      add(priceDerived('WASTE_DISPOSAL', containers, base), supports, byWaste);
    }
  }

  const structural = items.filter((i) => getNode(i.renovation_component_type).structural);
  if (structural.length > 0 && !skip.has('ARCHITECT')) {
    const row = sw.architect.find((r) => r.country === country)!;
    const works = structural.reduce((sum, i) => sum + costOf(i), 0);
    lump(
      'ARCHITECT',
      works * row.rate,
      row.id,
      structural.map((i) => i.renovation_component_type),
      structural.map((i) => costOf(i)),
      `Architect fee ${(row.rate * 100).toFixed(0)}% of the structural works (${round2(works)} EUR excl. VAT).`,
    );
  }

  for (const { type, supports } of oneOffWorks(items, estate)) {
    if (!skip.has(type)) add(priceDerived(type, 1, base), supports, null);
  }

  const safety = sw.safety_coordination.find((r) => r.country === country && r.required !== false);
  if (safety && !skip.has('SAFETY_COORDINATION')) {
    const fee = coordinationFee(items, derived, costOf, safety);
    if (fee) lump('SAFETY_COORDINATION', fee.amount, safety.id, fee.supports, fee.weights, fee.assumption);
  }
  return derived;
}

const NOTHING_PRESENT: ReadonlySet<string> = new Set();
const SCAFFOLD_BY_NODE = new Map(DATA.supporting.scaffolding.flatMap((r) => r.nodes.map((node) => [node, r] as const)));
const REMOVAL_BY_NODE = new Map(DATA.supporting.removal.map((r) => [r.node, r] as const));
const ASBESTOS_ROOTS = new Set(DATA.supporting.asbestos_inventory_triggers.roots);

/** The scaffolding the facade and pitched-roof works need (m2), and the items it serves. */
function scaffoldingOf(items: readonly SupportedItem[]): { m2: number; supports: string[]; weights: number[] } {
  let m2 = 0;
  const supports: string[] = [];
  const weights: number[] = [];
  for (const item of items) {
    const row = SCAFFOLD_BY_NODE.get(item.renovation_component_type);
    if (!row) continue;
    m2 += item.quantity * row.m2_per_unit;
    supports.push(item.renovation_component_type);
    weights.push(item.quantity * row.m2_per_unit);
  }
  return { m2, supports, weights };
}

/** What removing the replaced elements costs before the regional factor, the waste it makes (m3), and the items. */
function removalOf(
  items: readonly SupportedItem[],
  country: SupportingEstate['country'],
): { demolition: number; m3: number; supports: string[]; byDemolition: number[]; byWaste: number[] } {
  let demolition = 0;
  let m3 = 0;
  const supports: string[] = [];
  const byDemolition: number[] = [];
  const byWaste: number[] = [];
  for (const item of items) {
    const row = REMOVAL_BY_NODE.get(item.renovation_component_type);
    if (!row) continue;
    demolition += row.demolition_per_unit[country] * item.quantity;
    m3 += row.waste_m3_per_unit * item.quantity;
    supports.push(item.renovation_component_type);
    byDemolition.push(row.demolition_per_unit[country] * item.quantity);
    // Containers are whole: each item weighs what it would fill alone, so no share exceeds its own need.
    byWaste.push(Math.ceil((row.waste_m3_per_unit * item.quantity) / DATA.supporting.waste_container.m3));
  }
  return { demolition, m3, supports, byDemolition, byWaste };
}

/**
 * The one-off works some items call for, each with the items that need it: an asbestos inventory before
 * works on the roots that may hold asbestos in older buildings, and Wallonia's audit logement before the
 * works its primes need (walls, windows, floors, heating, ventilation).
 */
function oneOffWorks(items: readonly SupportedItem[], estate: SupportingEstate): Array<{ type: string; supports: string[] }> {
  const sw = DATA.supporting;
  const rootType = (item: SupportedItem) => rootTypeOf(item.renovation_component_type);
  const works: Array<{ type: string; supports: string[] }> = [];
  const cutoff = sw.asbestos_inventory.find((r) => r.country === estate.country)!;
  const triggers = estate.year_built < cutoff.built_before ? items.filter((i) => ASBESTOS_ROOTS.has(rootType(i))) : [];
  if (estate.year_built < cutoff.built_before && triggers.length > 0) {
    works.push({ type: 'ASBESTOS_INVENTORY', supports: triggers.map((i) => i.renovation_component_type) });
  }
  const audit = sw.housing_audit.find((r) => r.region === estate.region);
  const audited = audit ? items.filter((i) => audit.trigger_roots.includes(rootType(i))) : [];
  if (audited.length > 0) works.push({ type: 'HOUSING_AUDIT', supports: audited.map((i) => i.renovation_component_type) });
  return works;
}

export interface CoordinationSite {
  id: string;
  /** The item types on this site, in item order. */
  types: string[];
  /** The distinct trades (contractors) the site's works take. */
  trades: string[];
}

/** The site a work is done on (coordination_sites): its leaf's or its root's site, else a site of its own. */
export function coordinationSiteOf(type: string): string {
  let site = SITE_OF.get(type);
  if (site === undefined) {
    const { sites } = DATA.supporting.coordination_sites;
    const root = rootTypeOf(type);
    site = (sites.find((s) => s.members.includes(type)) ?? sites.find((s) => s.members.includes(root)))?.id ?? type;
    SITE_OF.set(type, site);
  }
  return site;
}
const SITE_OF = new Map<string, string>();

/** The trades a work takes (by leaf, else by root; an unlisted work is one trade of its own). */
export function tradesOf(type: string): string[] {
  const { trades } = DATA.supporting.coordination_sites;
  return trades[type] ?? trades[rootTypeOf(type)] ?? [rootTypeOf(type)];
}

/** The items' sites with the trades each takes, in the order the sites first appear. */
export function coordinationSites(types: readonly string[]): CoordinationSite[] {
  const byId = new Map<string, CoordinationSite>();
  for (const type of types) {
    const id = coordinationSiteOf(type);
    const site = byId.get(id) ?? { id, types: [], trades: [] };
    byId.set(id, site);
    site.types.push(type);
    for (const trade of tradesOf(type)) if (!site.trades.includes(trade)) site.trades.push(trade);
  }
  return [...byId.values()];
}

/**
 * The safety coordinator's fee (KB/AR 25 January 2001: a coordinator wherever two or more contractors
 * work on a site, at the same time or one after another): one fee per such site, each weighed on the
 * site's items by their cost, so a lone installer's step carries none. The site's works include the
 * supporting works its items cause.
 */
function coordinationFee(
  items: readonly SupportedItem[],
  derived: readonly DerivedItem[],
  costOf: (item: SupportedItem) => number,
  row: { rate: number; minimum: number; id: string },
): { amount: number; supports: string[]; weights: number[]; assumption: string } | null {
  const caused = (type: string): number =>
    derived.reduce((sum, d) => {
      const total = Object.values(d.weights).reduce((a, b) => a + b, 0);
      return total > 0 ? sum + (d.estimated_cost * (d.weights[type] ?? 0)) / total : sum;
    }, 0);
  // One item of one trade (most variants the planner weighs) is never a shared site.
  if (items.length === 1 && tradesOf(items[0]!.renovation_component_type).length < 2) return null;
  const shared = coordinationSites(items.map((i) => i.renovation_component_type)).filter((s) => s.trades.length >= 2);
  if (shared.length === 0) return null;
  let amount = 0;
  const supports: string[] = [];
  const weights: number[] = [];
  for (const site of shared) {
    const onSite = items.filter((i) => site.types.includes(i.renovation_component_type));
    const costs = onSite.map((i) => costOf(i));
    const own = costs.reduce((a, b) => a + b, 0);
    const works = own + site.types.reduce((sum, t) => sum + caused(t), 0);
    const fee = Math.max(row.minimum, works * row.rate);
    amount += fee;
    onSite.forEach((item, i) => {
      supports.push(item.renovation_component_type);
      weights.push(own > 0 ? (fee * costs[i]!) / own : fee / onSite.length);
    });
  }
  const where = shared.map((s) => `${s.id} (${s.trades.join(', ')})`).join('; ');
  const assumption = `Safety coordination (KB 25 January 2001) where two or more contractors work on one site: ${where}; ${(row.rate * 100).toFixed(0)}% of the site's works, at least ${row.minimum} EUR per site (${row.id}).`;
  return { amount, supports, weights, assumption };
}
