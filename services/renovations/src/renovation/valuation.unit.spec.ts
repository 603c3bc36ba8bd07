import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { valuate } from './valuation.ts';
import { flemishHouse, fieldsOf, GENERAL, ON_ROOF } from './testing.ts';

const RENOVATION = '11111111-2222-4333-8444-555555555555';
const data = (file: string) => JSON.parse(readFileSync(new URL(`../../../../shared/catalog/data/${file}`, import.meta.url), 'utf8'));
const grantRow = (id: string) => (data('grants/flanders.json').rules as Array<Record<string, any>>).find((r) => r.id === id)!;
const rate = (id: string) => (data('vat-rules.json').rates as Array<{ id: string; rate: number }>).find((r) => r.id === id)!.rate;

describe('valuation', () => {
  it('prices roof insulation on a 1960 Flemish house at 6% VAT with the Mijn VerbouwPremie row of the year', () => {
    const v = valuate(
      RENOVATION,
      [{ item_id: 'a', renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE', count: 1, placement: ON_ROOF }],
      flemishHouse(),
      2026,
    );
    const item = v.items['a']!;
    expect(item.quantity).toBe(80);
    expect(item.vat_rate).toBe(rate('BE_6'));
    // grants/flanders.json FL_MVP_2026_ROOF_INSULATION_MIDDLE: 25% of the cost up to the invoice ceiling.
    const row = grantRow('FL_MVP_2026_ROOF_INSULATION_MIDDLE');
    expect(item.sources.grant_rules).toEqual([row.id]);
    expect(item.subsidy_amount).toBe(Math.round(Math.min(item.estimated_cost, row.invoice_ceiling) * row.amount.value * 100) / 100);
  });

  it('adds the supporting works and counts them in the totals', () => {
    const v = valuate(
      RENOVATION,
      [
        { item_id: 'a', renovation_component_type: 'EXTERIOR_WALL_INSULATION', count: 1, placement: GENERAL },
        { item_id: 'b', renovation_component_type: 'ROOF_COVERING_TILES', count: 1, placement: ON_ROOF },
      ],
      flemishHouse(),
      2026,
    );
    expect(v.derived.map((d) => d.renovation_component_type)).toEqual(expect.arrayContaining(['SCAFFOLDING', 'ASBESTOS_INVENTORY']));
    const all = [...Object.values(v.items), ...v.derived];
    expect(v.totals.estimated_cost).toBeCloseTo(
      all.reduce((s, f) => s + f.estimated_cost, 0),
      2,
    );
    expect(v.totals.total_estimated_cost_incl_vat).toBeCloseTo(v.totals.estimated_cost + v.totals.estimated_vat_cost, 2);
    // The same work of the same renovation keeps its id across recomputations.
    expect(
      valuate(
        RENOVATION,
        [{ item_id: 'a', renovation_component_type: 'EXTERIOR_WALL_INSULATION', count: 2, placement: GENERAL }],
        flemishHouse(),
        2026,
      ).derived[0]!.id,
    ).toBe(v.derived.find((d) => d.renovation_component_type === 'SCAFFOLDING')!.id);
  });

  it('takes count as the number of units when the estate gives nothing to measure by, and says so', () => {
    const estate = flemishHouse({ fields: fieldsOf({ address: { zip_code: '9000', country: 'BE' }, year_built: 1960 }) });
    const v = valuate(
      RENOVATION,
      [{ item_id: 'a', renovation_component_type: 'EXTERIOR_WALL_INSULATION', count: 35, placement: GENERAL }],
      estate,
      2026,
    );
    expect(v.items['a']!.quantity).toBe(35);
    expect(v.items['a']!.issues.join(' ')).toMatch(/outer_wall_surface/);
    expect(v.energy_efficiency_indication).toBeNull();
    expect(v.issues.join(' ')).toMatch(/estate_format/);
  });
});
