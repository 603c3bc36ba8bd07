import { describe, expect, it } from 'vitest';
import { DATA } from './data.ts';
import { priceItem, supportingWorks, type SupportingEstate } from './index.ts';

const flanders = (year_built: number): SupportingEstate => ({ year_built, country: 'BE', region: 'FLANDERS', year: 2025 });
const types = (items: { renovation_component_type: string }[]) => items.map((i) => i.renovation_component_type);

describe('supporting works', () => {
  it('adds scaffolding for facade works (SCAFFOLD_FACADE: 1.15 m2 per m2, PRICE_SCAFFOLDING_BE €14/m2)', () => {
    const derived = supportingWorks([{ renovation_component_type: 'EXTERIOR_WALL_INSULATION', quantity: 100 }], flanders(2005));
    const scaffold = derived.find((d) => d.renovation_component_type === 'SCAFFOLDING')!;
    expect(scaffold.quantity).toBe(115);
    expect(scaffold.estimated_cost).toBe(1610);
    expect(scaffold.vat_rate).toBe(0.06);
    expect(scaffold.supports).toEqual(['EXTERIOR_WALL_INSULATION']);
  });

  it('adds scaffolding for pitched-roof works but not for cavity fill or inside roof insulation', () => {
    const roof = supportingWorks([{ renovation_component_type: 'INCLINED_ROOF_INSULATION_OUTSIDE', quantity: 120 }], flanders(2005));
    expect(roof.find((d) => d.renovation_component_type === 'SCAFFOLDING')?.quantity).toBe(60); // SCAFFOLD_PITCHED_ROOF 0.5
    const light = supportingWorks(
      [
        { renovation_component_type: 'CAVITY_WALL_INSULATION', quantity: 100 },
        { renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE', quantity: 100 },
      ],
      flanders(2005),
    );
    expect(types(light)).not.toContain('SCAFFOLDING');
  });

  it('weighs each work by what each item causes, so a plan can bill it to the steps that need it', () => {
    const works = supportingWorks(
      [
        { renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 1 },
        { renovation_component_type: 'SOLID_FLOOR_INSULATION', quantity: 100 },
      ],
      flanders(1975),
    );
    const of = (type: string) => works.find((d) => d.renovation_component_type === type)!;
    // One m2 of window causes a sliver of the demolition; the floor broken out causes the rest.
    const demolition = of('DEMOLITION').weights;
    expect(demolition['SOLID_FLOOR_INSULATION']!).toBeGreaterThan(50 * demolition['WINDOW_REPLACEMENT_PVC_HR']!);
    // Whole containers: each item weighs what it would fill alone.
    expect(Number.isInteger(of('WASTE_DISPOSAL').weights['WINDOW_REPLACEMENT_PVC_HR'])).toBe(true);
    // A one-off weighs on the first item that needs it only.
    expect(of('ASBESTOS_INVENTORY').weights).toEqual({ WINDOW_REPLACEMENT_PVC_HR: 1, SOLID_FLOOR_INSULATION: 0 });
  });

  it('adds an asbestos inventory for a 1975 house and not for a 2005 one', () => {
    const works = [{ renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 }];
    const old = supportingWorks(works, flanders(1975));
    const inventory = old.find((d) => d.renovation_component_type === 'ASBESTOS_INVENTORY')!;
    expect(inventory.estimated_cost).toBe(450); // PRICE_ASBESTOS_INVENTORY_BE
    expect(inventory.vat_rate).toBe(0.21); // a service, not works (BE_SERVICE)
    expect(types(supportingWorks(works, flanders(2005)))).not.toContain('ASBESTOS_INVENTORY');
    // NL cut-off (ASBESTOS_INVENTORY_NL): built before 1994.
    const nl = (year_built: number) => supportingWorks(works, { year_built, country: 'NL', region: 'NETHERLANDS', year: 2025 });
    expect(types(nl(1990))).toContain('ASBESTOS_INVENTORY');
    expect(types(nl(2000))).not.toContain('ASBESTOS_INVENTORY');
    // Works that disturb no existing material need no inventory.
    expect(types(supportingWorks([{ renovation_component_type: 'SOLAR_PANELS', quantity: 4 }], flanders(1975)))).not.toContain(
      'ASBESTOS_INVENTORY',
    );
  });

  it('does not repeat a supporting work the renovation already has', () => {
    const works = [{ renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 }];
    expect(types(supportingWorks(works, flanders(1975), { already_present: ['ASBESTOS_INVENTORY'] }))).not.toContain('ASBESTOS_INVENTORY');
  });

  it('adds demolition and waste for replaced elements (REMOVAL_* rows, WASTE_CONTAINER_SIZE 10 m3)', () => {
    const derived = supportingWorks(
      [
        { renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 },
        { renovation_component_type: 'BATHROOM', quantity: 1 },
      ],
      flanders(2005),
    );
    // 20 x €30 + €1,500; waste 20 x 0.05 + 5 = 6 m3 -> one container at €350.
    expect(derived.find((d) => d.renovation_component_type === 'DEMOLITION')?.estimated_cost).toBe(2100);
    expect(derived.find((d) => d.renovation_component_type === 'WASTE_DISPOSAL')).toMatchObject({ quantity: 1, estimated_cost: 350 });
  });

  it('adds an architect for structural works (ARCHITECT_BE 12%)', () => {
    const wall = priceItem({
      node: 'INTERIOR_WALL_REMOVAL',
      quantity: 1,
      country: 'BE',
      region: 'FLANDERS',
      year: 2025,
      estate: { year_built: 2005 },
    });
    const derived = supportingWorks(
      [{ renovation_component_type: 'INTERIOR_WALL_REMOVAL', quantity: 1, estimated_cost: wall.estimated_cost }],
      flanders(2005),
    );
    const architect = derived.find((d) => d.renovation_component_type === 'ARCHITECT')!;
    expect(architect.estimated_cost).toBe(480); // 12% x €4,000
    expect(architect.vat_rate).toBe(0.21);
    expect(types(supportingWorks([{ renovation_component_type: 'KITCHEN', quantity: 1 }], flanders(2005)))).not.toContain('ARCHITECT');
  });

  it('adds a safety coordinator in Belgium only where two or more contractors work on one site (SAFETY_COORDINATION_BE, KB 25 January 2001)', () => {
    const coordinator = (items: { renovation_component_type: string; quantity: number }[], estate = flanders(2005)) =>
      supportingWorks(items, estate).find((d) => d.renovation_component_type === 'SAFETY_COORDINATION');
    // A lone installer's work is no such site, however large: one heat-pump fitter, one PV installer, one facade insulator.
    expect(coordinator([{ renovation_component_type: 'HEAT_PUMP_AIR_WATER_8KW', quantity: 1 }])).toBeUndefined();
    expect(coordinator([{ renovation_component_type: 'SOLAR_PANELS', quantity: 6 }])).toBeUndefined();
    expect(coordinator([{ renovation_component_type: 'EXTERIOR_WALL_INSULATION', quantity: 400 }])).toBeUndefined();
    // Nor are separate lone trades on separate sites (roof, heating, panels).
    expect(
      coordinator([
        { renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE', quantity: 80 },
        { renovation_component_type: 'HEAT_PUMP_AIR_WATER_8KW', quantity: 1 },
        { renovation_component_type: 'SOLAR_PANELS', quantity: 4 },
      ]),
    ).toBeUndefined();
    // Windows with their ventilation: a window fitter and a ventilation installer on the facade's site.
    const facade = coordinator([
      { renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 },
      { renovation_component_type: 'VENTILATION_SYSTEM_C', quantity: 1 },
      { renovation_component_type: 'HEAT_PUMP_AIR_WATER_8KW', quantity: 1 },
    ])!;
    expect(facade.supports.sort()).toEqual(['VENTILATION_SYSTEM_C', 'WINDOW_REPLACEMENT_PVC_HR']);
    expect(facade.weights.HEAT_PUMP_AIR_WATER_8KW).toBeUndefined();
    expect(facade.estimated_cost).toBeGreaterThanOrEqual(DATA.supporting.safety_coordination[0]!.minimum);
    // A floor broken out and rebuilt takes a demolition-and-screed firm and an insulator.
    expect(coordinator([{ renovation_component_type: 'SOLID_FLOOR_INSULATION', quantity: 60 }])).toBeDefined();
    // The Netherlands: a private owner has no such coordinator to appoint (SAFETY_COORDINATION_NL).
    const dutch: SupportingEstate = { year_built: 2005, country: 'NL', region: 'NETHERLANDS', year: 2025 };
    expect(
      coordinator(
        [
          { renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 },
          { renovation_component_type: 'VENTILATION_SYSTEM_C', quantity: 1 },
        ],
        dutch,
      ),
    ).toBeUndefined();
  });

  it('returns only derived-scope items', () => {
    const derived = supportingWorks(
      [
        { renovation_component_type: 'ROOF_COVERING_TILES', quantity: 100 },
        { renovation_component_type: 'STAIRCASE_REPLACEMENT_WOOD', quantity: 1 },
      ],
      flanders(1960),
    );
    expect(types(derived).sort()).toEqual(['ARCHITECT', 'ASBESTOS_INVENTORY', 'DEMOLITION', 'SCAFFOLDING', 'WASTE_DISPOSAL']);
  });

  it("adds Wallonia's audit logement once, before the works whose primes need it, not for roof works alone nor in Flanders", () => {
    const wallonia: SupportingEstate = { year_built: 1955, country: 'BE', region: 'WALLONIA', year: 2026 };
    const works = supportingWorks(
      [
        { renovation_component_type: 'ATTIC_FLOOR_INSULATION', quantity: 80 },
        { renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 },
        { renovation_component_type: 'HEAT_PUMP_AIR_WATER', quantity: 1 },
      ],
      wallonia,
    );
    const audit = works.filter((d) => d.renovation_component_type === 'HOUSING_AUDIT');
    expect(audit).toHaveLength(1);
    expect(audit[0]!.supports).toEqual(['WINDOW_REPLACEMENT_PVC_HR', 'HEAT_PUMP_AIR_WATER']);
    expect(audit[0]!.vat_rate).toBe(0.21);
    // Its prime (MIDDLE read as R3: EUR 228, at most half the invoice).
    expect(audit[0]!.subsidy_amount).toBe(Math.min(228, audit[0]!.estimated_cost * 0.5));
    const roofOnly = supportingWorks([{ renovation_component_type: 'ATTIC_FLOOR_INSULATION', quantity: 80 }], wallonia);
    expect(types(roofOnly)).not.toContain('HOUSING_AUDIT');
    expect(
      types(supportingWorks([{ renovation_component_type: 'WINDOW_REPLACEMENT_PVC_HR', quantity: 20 }], flanders(1955))),
    ).not.toContain('HOUSING_AUDIT');
  });
});
