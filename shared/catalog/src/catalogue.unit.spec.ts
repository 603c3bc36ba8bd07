import { describe, expect, it } from 'vitest';
import { PropertyDescription, PropertyFields, Region } from '@renopath/contracts';
import {
  CLIENT_SCOPES,
  MEASURES_FOR_PLANNER,
  allNodes,
  applyEffect,
  availableItems,
  availableRoots,
  findNode,
  getNode,
  isAllowedInScope,
  isLeaf,
  leavesOf,
  productFor,
  rootOf,
  rootsOf,
  selectionTree,
  type Predicate,
  type SelectionTreeNode,
} from './index.ts';
import { DATA } from './data.ts';
import { unitPriceRow } from './pricing.ts';
import { SPECIFICATIONS, heatPumpLeaf } from './specifications.ts';
import { grantRulesKnown } from './grants.ts';

const RATE_PRICED = ['ARCHITECT', 'DEMOLITION', 'SAFETY_COORDINATION'];
const TAG = /\[(F|3P|I|F-ish)\]/;

describe('catalogue integrity', () => {
  const nodes = allNodes();

  it('has unique UPPER_SNAKE ids', () => {
    const ids = nodes.map((n) => n.renovation_component_type);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });

  it('reaches every node from a root, with consistent parent and child links', () => {
    const seen = new Set<string>();
    const walk = (type: string, parent: string | null): void => {
      const node = getNode(type);
      expect(node.parent).toBe(parent);
      seen.add(type);
      for (const child of node.children) walk(child, type);
    };
    for (const root of nodes.filter((n) => n.parent === null)) walk(root.renovation_component_type, null);
    expect(seen.size).toBe(nodes.length);
  });

  it('keeps a node in the scope of its root', () => {
    for (const node of nodes) expect(node.scope).toBe(rootOf(node).scope);
  });

  it('prices every client leaf and every per-unit derived leaf for BE and NL', () => {
    for (const leaf of nodes.filter(isLeaf)) {
      if (RATE_PRICED.includes(leaf.renovation_component_type)) continue;
      // A regional work (Wallonia's audit logement) is priced in its region only.
      const regional = DATA.supporting.housing_audit.find(() => leaf.renovation_component_type === 'HOUSING_AUDIT');
      if (regional) {
        expect(unitPriceRow(leaf.renovation_component_type, 'BE', regional.region)?.region).toBe(regional.region);
        continue;
      }
      for (const [country, region] of [
        ['BE', 'FLANDERS'],
        ['NL', 'NETHERLANDS'],
      ] as const) {
        expect(unitPriceRow(leaf.renovation_component_type, country, region), `${leaf.renovation_component_type} ${country}`).toBeDefined();
      }
    }
    // Rate-priced derived works take their figures from supporting-works.json.
    for (const country of ['BE', 'NL'] as const) expect(DATA.supporting.architect.some((r) => r.country === country)).toBe(true);
    expect(DATA.supporting.removal.length).toBeGreaterThan(0);
  });

  it('has no price row for an unknown node or a non-leaf', () => {
    for (const row of DATA.unitPrices.rows) {
      const node = findNode(row.node);
      expect(node, row.id).toBeDefined();
      expect(isLeaf(node!), row.id).toBe(true);
    }
  });

  it('gives every price, rate, index and grant row a source, a year and a tagged note', () => {
    const rows: { id: string; source: string; year: number; note: string }[] = [
      ...DATA.unitPrices.rows,
      ...DATA.regionalFactors.rows,
      ...DATA.costIndex.countries.flatMap((c) => c.rows),
      ...DATA.vat.rates,
      ...DATA.vat.rules.flatMap((r) => r.cases),
      ...DATA.grants,
      ...DATA.income.rows,
      ...DATA.supporting.scaffolding,
      ...DATA.supporting.architect,
      ...DATA.supporting.safety_coordination,
      DATA.supporting.coordination_sites,
      ...DATA.supporting.removal,
      DATA.supporting.waste_container,
      ...DATA.supporting.asbestos_inventory,
      DATA.supporting.asbestos_inventory_triggers,
      ...DATA.quantity.rows,
      ...DATA.prerequisites.rows,
      ...DATA.measureFigures.rows,
      ...DATA.products.rows,
    ];
    const ids = new Set<string>();
    for (const row of rows) {
      expect(row.source.length, row.id).toBeGreaterThan(4);
      expect(row.year, row.id).toBeGreaterThanOrEqual(2000);
      expect(row.note, row.id).toMatch(TAG);
      expect(ids.has(row.id), `duplicate row id ${row.id}`).toBe(false);
      ids.add(row.id);
    }
  });

  it('makes every grant rule reference existing leaves, a known region and known companions', () => {
    for (const rule of DATA.grants) {
      expect(Region.options).toContain(rule.region);
      for (const type of [...rule.nodes, ...(rule.requires_companion ?? []), ...(rule.combination_with ?? [])]) {
        const node = findNode(type);
        expect(node, `${rule.id} -> ${type}`).toBeDefined();
        expect(isLeaf(node!), `${rule.id} -> ${type}`).toBe(true);
        // Derived works get no grant of their own, except Wallonia's audit logement, which has its prime.
        if (type !== 'HOUSING_AUDIT') expect(node!.scope, `${rule.id} -> ${type}`).not.toBe('derived');
      }
      if (rule.valid_to !== null) expect(rule.valid_from <= rule.valid_to, rule.id).toBe(true);
    }
  });

  it('never has two rules of one scheme for the same node, region and income on the same day', () => {
    const days = ['2023-06-01', '2024-06-01', '2025-01-01', '2025-06-30', '2025-07-01', '2025-12-31', '2026-01-01', '2027-06-01'];
    for (const day of days) {
      const seen = new Map<string, string>();
      for (const rule of DATA.grants.filter((r) => r.valid_from <= day && (r.valid_to === null || day <= r.valid_to))) {
        for (const node of rule.nodes) {
          for (const income of rule.income_categories ?? ['LOW', 'MIDDLE', 'HIGH']) {
            const key = `${rule.scheme}|${rule.region}|${node}|${income}`;
            expect(seen.get(key), `${key} on ${day}: ${rule.id}`).toBeUndefined();
            seen.set(key, rule.id);
          }
        }
      }
    }
  });

  it('resolves every VAT rule a node names, with an unconditional last case', () => {
    for (const node of nodes) {
      for (const id of Object.values(node.vat)) {
        const rule = DATA.vat.rules.find((r) => r.id === id);
        expect(rule, `${node.renovation_component_type} -> ${id}`).toBeDefined();
        expect(Object.keys(rule!.cases.at(-1)!.when)).toHaveLength(0);
      }
    }
    for (const c of DATA.vat.rules.flatMap((r) => r.cases)) expect(c.rate !== undefined || c.split !== undefined, c.id).toBe(true);
  });

  it('gives a labour share to every NL row taxed under the insulation rule', () => {
    for (const leaf of nodes.filter((n) => isLeaf(n) && n.vat.NL === 'NL_INSULATION')) {
      expect(unitPriceRow(leaf.renovation_component_type, 'NL', 'NETHERLANDS')?.labour_share, leaf.renovation_component_type).toBeDefined();
    }
  });

  it('keeps derived nodes out of every client scope', () => {
    const derived = nodes.filter((n) => n.scope === 'derived');
    expect(derived.map((n) => n.renovation_component_type)).toEqual(
      expect.arrayContaining(['SCAFFOLDING', 'ARCHITECT', 'DEMOLITION', 'WASTE_DISPOSAL', 'ASBESTOS_INVENTORY']),
    );
    for (const node of derived) {
      for (const scope of [...CLIENT_SCOPES, 'derived']) expect(isAllowedInScope(node.renovation_component_type, scope)).toBe(false);
    }
    for (const scope of CLIENT_SCOPES) {
      for (const item of availableItems(scope)) expect(findNode(item.renovation_component_type)!.scope).toBe(scope);
    }
  });

  it('compares property fields only with values the request schema accepts', () => {
    // A renamed enum value (e.g. the old NATURAL_GAS) would otherwise make a rule silently never match.
    const leavesOfPredicate = (p: Predicate): Extract<Predicate, { field: unknown }>[] =>
      'all' in p
        ? p.all.flatMap(leavesOfPredicate)
        : 'any' in p
          ? p.any.flatMap(leavesOfPredicate)
          : 'of' in p
            ? p.of.flatMap(leavesOfPredicate)
            : [p];
    let checked = 0;
    for (const node of nodes) {
      for (const r of node.requirements) {
        for (const p of [r.applies_if, r.after_unless].filter((x): x is Predicate => x !== undefined).flatMap(leavesOfPredicate)) {
          for (const v of Array.isArray(p.value) ? p.value : [p.value]) {
            expect(PropertyFields[p.field].safeParse(v).success, `${node.renovation_component_type}: ${p.field} ${String(v)}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('describes every window and glazing leaf as one 2025 product whose frames match its effect (products.json)', () => {
    const windowLeaves = leavesOf(getNode('WINDOWS')).filter((l) => l.unit === 'm2');
    expect(windowLeaves.length).toBe(8);
    for (const leaf of windowLeaves) {
      const type = leaf.renovation_component_type;
      expect(
        DATA.products.rows.filter((r) => r.nodes.includes(type)),
        type,
      ).toHaveLength(1);
      const product = productFor(type)!;
      expect(applyEffect(leaf, {} as Partial<PropertyDescription>, 1).has_renewed_window_frames === true, type).toBe(
        product.renewed_frames,
      );
    }
    // PRODUCT_WINDOW_HR: new HR windows meet the Flemish renovation requirement Uw <= 1.5 with Ug <= 1.1.
    expect(productFor('WINDOW_REPLACEMENT_PVC_HR')).toMatchObject({ id: 'PRODUCT_WINDOW_HR', window_uw_max: 1.5, glazing_ug_max: 1.1 });
    expect(productFor('GLAZING_REPLACEMENT_HR')).toMatchObject({ id: 'PRODUCT_GLAZING_HR', window_uw_max: null, renewed_frames: false });
    expect(productFor('KITCHEN')).toBeUndefined();
  });

  it('names only existing types in order prerequisites', () => {
    for (const node of nodes) for (const r of node.requirements) for (const t of r.after_any ?? []) expect(findNode(t), t).toBeDefined();
  });

  it('offers the planner leaves with effects that yield a valid property', () => {
    const base: PropertyDescription = {
      year_built: 1970,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 150,
      zip_code: '9000',
      country: 'BE',
    };
    expect(MEASURES_FOR_PLANNER.length).toBeGreaterThan(15);
    for (const m of MEASURES_FOR_PLANNER) {
      expect(isLeaf(getNode(m.renovation_component_type))).toBe(true);
      expect(() => PropertyDescription.parse(applyEffect(m.renovation_component_type, base, 4))).not.toThrow();
    }
  });
});

describe('scope rules', () => {
  it('allows a node only in its own client scope', () => {
    expect(isAllowedInScope('CAVITY_WALL_INSULATION', 'general')).toBe(true);
    expect(isAllowedInScope('CAVITY_WALL_INSULATION', 'roof')).toBe(false);
    expect(isAllowedInScope('HANGING_GUTTER_METAL', 'roof')).toBe(true);
    expect(isAllowedInScope('FLOORING_PARQUET', 'room')).toBe(true);
    expect(isAllowedInScope('RAILING', 'staircase')).toBe(true);
    expect(isAllowedInScope('HEAT_PUMP', 'general')).toBe(true);
    expect(isAllowedInScope('NOT_A_NODE', 'general')).toBe(false);
  });

  it('has roots in every scope', () => {
    for (const scope of [...CLIENT_SCOPES, 'derived'] as const) expect(rootsOf(scope).length).toBeGreaterThan(0);
  });

  it('offers no pitched-roof works for a flat roof, and no flat-roof works for a pitched one', () => {
    const types = (trees: SelectionTreeNode[]): string[] =>
      trees.flatMap(function flat(t: SelectionTreeNode): string[] {
        return [t.renovation_component_type, ...t.children.flatMap(flat)];
      });
    const flat = types(availableItems('roof', { roof_type: 'FLAT' }));
    expect(flat).toContain('FLAT_ROOF_INSULATION');
    expect(flat).toContain('FLAT_ROOF_SKYLIGHT');
    expect(flat.filter((t) => t.startsWith('INCLINED_') || t === 'ATTIC_FLOOR_INSULATION' || t === 'ROOF_WINDOW')).toEqual([]);
    const pitched = types(availableItems('roof', { roof_type: 'INCLINED' }));
    expect(pitched).toContain('INCLINED_ROOF_INSULATION_INSIDE');
    expect(pitched.filter((t) => t.startsWith('FLAT_'))).toEqual([]);
    // Unknown roof type: everything stays available.
    expect(types(availableItems('roof'))).toEqual(expect.arrayContaining(['FLAT_ROOF_INSULATION', 'INCLINED_ROOF_INSULATION_INSIDE']));
  });

  it('drops a root when the home can take none of its leaves', () => {
    const roots = (estate: Partial<PropertyDescription>) => availableRoots('general', estate).map((r) => r.renovation_component_type);
    expect(roots({})).toContain('FLOOR_INSULATION');
    // A home that already has a solar water heater gets no second one; the heat-pump boiler keeps HOT_WATER.
    const hotWater = availableItems('general', { has_solar_boiler: true }).find((t) => t.renovation_component_type === 'HOT_WATER')!;
    expect(hotWater.children.map((c) => c.renovation_component_type)).toEqual(['HEAT_PUMP_BOILER']);
  });

  it('offers the floor works the ground floor can take (basement_type, basement_ceiling_height)', () => {
    const floorLeaves = (estate: Partial<PropertyDescription>): string[] =>
      availableItems('general', estate)
        .find((t) => t.renovation_component_type === 'FLOOR_INSULATION')!
        .children.map((c) => c.renovation_component_type);
    expect(floorLeaves({ basement_type: 'NONE' })).toEqual(['SOLID_FLOOR_INSULATION']);
    expect(floorLeaves({ basement_type: 'FULL', basement_ceiling_height: 'HIGHER_THAN_120_CM' })).toEqual(['BASEMENT_CEILING_INSULATION']);
    // A basement too low to stand in is insulated from below like a crawl space.
    expect(floorLeaves({ basement_type: 'FULL', basement_ceiling_height: 'LOWER_THAN_120_CM' })).toEqual([
      'CRAWL_SPACE_FLOOR_INSULATION',
      'CRAWL_SPACE_BOTTOM_INSULATION',
    ]);
    expect(floorLeaves({ basement_type: 'PARTIAL' })).toEqual(['BASEMENT_CEILING_INSULATION', 'SOLID_FLOOR_INSULATION']);
    expect(floorLeaves({ basement_type: 'CRAWL_SPACE' })).toEqual(['CRAWL_SPACE_FLOOR_INSULATION', 'CRAWL_SPACE_BOTTOM_INSULATION']);
  });

  it('offers pitched and flat roof works on a MIXED roof, and no attic-floor insulation under a lived-in attic', () => {
    const roofTypes = (estate: Partial<PropertyDescription>): string[] =>
      availableItems('roof', estate).flatMap(function flat(t: SelectionTreeNode): string[] {
        return [t.renovation_component_type, ...t.children.flatMap(flat)];
      });
    expect(roofTypes({ roof_type: 'MIXED' })).toEqual(
      expect.arrayContaining(['INCLINED_ROOF_INSULATION_INSIDE', 'FLAT_ROOF_INSULATION', 'ROOF_WINDOW', 'FLAT_ROOF_SKYLIGHT']),
    );
    expect(roofTypes({ roof_type: 'INCLINED', attic_usage: 'LIVING_SPACE' })).not.toContain('ATTIC_FLOOR_INSULATION');
    expect(roofTypes({ roof_type: 'INCLINED', attic_usage: 'STORAGE' })).toContain('ATTIC_FLOOR_INSULATION');
  });
});

describe('selection tree', () => {
  it('marks the path from the root to the selected node', () => {
    const tree = selectionTree('WINDOWS', 'WINDOW_REPLACEMENT_WOOD_TRIPLE');
    expect(tree).toMatchObject({ renovation_component_type: 'WINDOWS', name: 'Windows and doors', unit: 'm2', is_selected: true });
    const replacement = tree.children.find((c) => c.renovation_component_type === 'WINDOW_REPLACEMENT')!;
    const glazing = tree.children.find((c) => c.renovation_component_type === 'GLAZING_REPLACEMENT')!;
    const wood = replacement.children.find((c) => c.renovation_component_type === 'WINDOW_REPLACEMENT_WOOD')!;
    expect(replacement.is_selected).toBe(true);
    expect(glazing.is_selected).toBe(false);
    expect(wood.is_selected).toBe(true);
    expect(wood.children.map((c) => [c.renovation_component_type, c.is_selected])).toEqual([
      ['WINDOW_REPLACEMENT_WOOD_HR', false],
      ['WINDOW_REPLACEMENT_WOOD_TRIPLE', true],
    ]);
    const selected = (t: SelectionTreeNode): number => (t.is_selected ? 1 : 0) + t.children.reduce((s, c) => s + selected(c), 0);
    expect(selected(tree)).toBe(4);
  });

  it('starts from the root of any node and selects nothing without a selection', () => {
    const tree = selectionTree('HANGING_GUTTER_PLASTIC');
    expect(tree.renovation_component_type).toBe('ROOF_DRAINAGE');
    const anySelected = (t: SelectionTreeNode): boolean => t.is_selected || t.children.some(anySelected);
    expect(anySelected(tree)).toBe(false);
    expect(leavesOf(getNode('ROOF_DRAINAGE')).map((l) => l.renovation_component_type)).toEqual([
      'BOX_GUTTER',
      'HANGING_GUTTER_PLASTIC',
      'HANGING_GUTTER_METAL',
    ]);
  });

  it('rejects a selection outside the root', () => {
    expect(() => selectionTree('WINDOWS', 'HEAT_PUMP_HYBRID')).toThrow();
    expect(() => selectionTree('NOPE')).toThrow();
  });

  it('prices an air-to-water heat pump by its band: a larger band never costs less, and every band has the grants of its kind', () => {
    for (const country of ['BE', 'NL'] as const) {
      const prices = SPECIFICATIONS.heat_pump_kw_bands.map(
        (kw) => unitPriceRow(`HEAT_PUMP_AIR_WATER_${kw}KW`, country, country === 'BE' ? 'FLANDERS' : 'NETHERLANDS')!.unit_cost,
      );
      expect(prices.every((p, i) => i === 0 || p >= prices[i - 1]!)).toBe(true);
      expect(prices[0]).toBeLessThan(prices[prices.length - 1]!);
    }
    for (const region of ['FLANDERS', 'BRUSSELS', 'WALLONIA', 'NETHERLANDS'])
      for (const kw of SPECIFICATIONS.heat_pump_kw_bands)
        expect(grantRulesKnown(region, `HEAT_PUMP_AIR_WATER_${kw}KW`)).toBe(grantRulesKnown(region, 'HEAT_PUMP_AIR_WATER'));
    // A 5 kW design load is the 6 kW band's leaf; a load above every band, the largest band's.
    expect(heatPumpLeaf('HEAT_PUMP_AIR_WATER', 5)).toBe('HEAT_PUMP_AIR_WATER_6KW');
    expect(heatPumpLeaf('HEAT_PUMP_AIR_WATER', 40)).toBe('HEAT_PUMP_AIR_WATER_25KW');
    expect(heatPumpLeaf('HEAT_PUMP_AIR_AIR', 5)).toBe('HEAT_PUMP_AIR_AIR');
  });

  it('covers the catalogue examples of docs/domain.md, The catalogue', () => {
    // The domain's four kinds of heat pump, and the air-to-water one again per kW band it is priced in.
    expect(getNode('HEAT_PUMP').children.filter((t) => !/_\d+KW$/.test(t))).toEqual([
      'HEAT_PUMP_AIR_WATER',
      'HEAT_PUMP_GEOTHERMAL',
      'HEAT_PUMP_HYBRID',
      'HEAT_PUMP_AIR_AIR',
    ]);
    expect(getNode('HEAT_PUMP').children.filter((t) => /_\d+KW$/.test(t))).toEqual(
      SPECIFICATIONS.heat_pump_kw_bands.map((kw) => `HEAT_PUMP_AIR_WATER_${kw}KW`),
    );
    expect(getNode('HANGING_GUTTER').children).toEqual(['HANGING_GUTTER_PLASTIC', 'HANGING_GUTTER_METAL']);
    expect(rootsOf('staircase').map((n) => n.renovation_component_type)).toEqual([
      'STAIRCASE_RENOVATION',
      'STAIRCASE_REPLACEMENT',
      'RAILING',
    ]);
  });
});
