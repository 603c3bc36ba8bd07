import { describe, expect, it } from 'vitest';
import { PortfolioResultRow, PropertyDescription } from '@renopath/contracts';
import { planTrajectory } from '../planner/planner.ts';
import { computeBatch, taxonomyOf } from './compute.ts';
import type { RawRow } from './rows.ts';
import { finalSummary, summarise } from './summary.ts';

const YEAR = 2026;
let rowNumber = 0;
const row = (cells: Record<string, string>): RawRow => ({
  row_number: ++rowNumber,
  line: rowNumber + 1,
  cells: {
    country: 'BE',
    zip_code: '9000',
    year_built: '1965',
    estate_type: 'HOUSE',
    estate_format: 'SEMI_OPEN',
    habitable_space_m2: '140',
    ...cells,
  },
});

describe('portfolio rows: the contract', () => {
  it('makes every row, OK or ERROR, a result row of the contract (the coordinator checks only their shape)', () => {
    const rows = computeBatch(
      [
        row({ external_id: 'k1', energy_efficiency_score: '210', outstanding_amount: '120000', property_value: '300000' }),
        row({ external_id: 'k2', year_built: 'soon' }),
        row({ external_id: 'k3', country: 'NL', zip_code: '3731 AB', purchase_date: '2024-05-01', occupancy: 'rented' }),
      ],
      YEAR,
    );
    expect(rows.map((r) => r.status)).toEqual(['OK', 'ERROR', 'OK']);
    for (const r of rows) expect(PortfolioResultRow.strict().safeParse(r).success, JSON.stringify(r)).toBe(true);
  });
});

describe('portfolio rows: the taxonomy test', () => {
  it('counts a certified class A home as aligned, whatever its region holds', () => {
    const [r] = computeBatch([row({ external_id: 'a', energy_efficiency_score: '40', epc_label: 'A' })], YEAR);
    expect(r).toMatchObject({ status: 'OK', epc_label: 'A', taxonomy_top_15: true, taxonomy_status: 'CLASS_A' });
  });

  it('says a home that is not class A is not assessable where the region has no verified top-15% figure, never "not aligned"', () => {
    const [r] = computeBatch([row({ external_id: 'b', energy_efficiency_score: '450' })], YEAR);
    expect(r).toMatchObject({ status: 'OK', taxonomy_top_15: null, taxonomy_status: 'NOT_ASSESSABLE' });
  });

  it('does not assess a home built from 2021 on this criterion', () => {
    const [r] = computeBatch([row({ external_id: 'c', year_built: '2022' })], YEAR);
    expect(r).toMatchObject({ status: 'OK', taxonomy_top_15: null, taxonomy_status: 'NOT_APPLICABLE' });
  });

  it('reads a top-15% figure as an upper bound on the score', () => {
    // The regions' figures are data; the rule is tested on its own so it holds once a figure is filled in.
    expect(taxonomyOf(1980, 'EPC_FLANDERS', 'C', 150, 'FLANDERS').status).toBe('NOT_ASSESSABLE');
    expect(taxonomyOf(1980, 'EPC_FLANDERS', 'A+', 10, 'FLANDERS')).toEqual({ aligned: true, status: 'CLASS_A' });
  });

  it('gives the summary the share of rows it cannot tell, beside the aligned share', () => {
    const rows = computeBatch(
      [
        row({ external_id: 'd1', energy_efficiency_score: '40', epc_label: 'A' }),
        row({ external_id: 'd2', energy_efficiency_score: '450' }),
        row({ external_id: 'd3', energy_efficiency_score: '500' }),
        row({ external_id: 'd4', year_built: '2023' }),
      ],
      YEAR,
    );
    const s = finalSummary('00000000-0000-4000-8000-000000000000', 'FINISHED', summarise(rows));
    expect(s.taxonomy_aligned_share).toBe(0.25);
    expect(s.taxonomy_not_assessable_share).toBe(0.5);
  });
});

describe('portfolio rows: the next milestone', () => {
  it("dates the next milestone as a single job's plan dates it, from the row's purchase date", () => {
    const cells = { external_id: 'm1', energy_efficiency_score: '520', purchase_date: '2024-03-15', occupancy: 'owner_occupied' };
    const [r] = computeBatch([row(cells)], YEAR);
    const plan = planTrajectory(
      PropertyDescription.parse({
        country: 'BE',
        zip_code: '9000',
        year_built: 1965,
        estate_type: 'HOUSE',
        estate_format: 'SEMI_OPEN',
        habitable_space_m2: 140,
        energy_efficiency_score: 520,
      }),
      { year: YEAR, household: { purchase_date: '2024-03-15', occupancy: 'OWNER_OCCUPIED' } },
    );
    const step = [...plan.steps].sort((a, b) => a.order - b.order).find((s) => s.milestones.length > 0)!;
    const due = step.milestones.find((m) => m.rule_id === r!.next_milestone)!;
    expect(r!.status).toBe('OK');
    expect(r!.next_milestone_date).not.toBeNull();
    expect(r!.next_milestone_date).toBe(due.deadline);
    // Every milestone the step reaches is due on or after the one reported.
    for (const m of step.milestones) if (m.deadline) expect(m.deadline >= r!.next_milestone_date!).toBe(true);
  });

  it("moves a buyer's deadline with the deed date the row gives", () => {
    const [early, late] = computeBatch(
      [
        row({ external_id: 'm2', energy_efficiency_score: '520', purchase_date: '2023-06-01' }),
        row({ external_id: 'm3', energy_efficiency_score: '520', purchase_date: '2025-06-01' }),
      ],
      YEAR,
    );
    expect(early!.next_milestone_date).not.toBeNull();
    expect(early!.next_milestone_date! < late!.next_milestone_date!).toBe(true);
  });

  it('makes a purchase date or occupancy that cannot be read an ERROR row naming the column and line', () => {
    const [date, occupancy] = computeBatch(
      [row({ external_id: 'e1', purchase_date: '2024-02-30' }), row({ external_id: 'e2', occupancy: 'SQUATTED' })],
      YEAR,
    );
    expect(date).toMatchObject({ status: 'ERROR', taxonomy_status: null });
    expect(date!.error).toMatch(new RegExp(`^line ${date!.line}, column purchase_date: `));
    expect(occupancy!.error).toMatch(new RegExp(`^line ${occupancy!.line}, column occupancy: `));
  });
});
