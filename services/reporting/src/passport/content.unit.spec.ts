import { describe, expect, it } from 'vitest';
import { RenovationPassportContent } from '@renopath/contracts';
import { applyEdits, mergeEdits, PassportEditError, prefillContent } from './content.ts';
import { SAMPLE_ESTATE, sampleMetadata } from './testing.ts';

const prefilled = () => prefillContent(sampleMetadata(), SAMPLE_ESTATE);
const visit = { date: '2026-11-30', advisor_name: 'An Advisor', accreditation_number: 'EP-12345', notes: null };

describe('the passport pre-filled from a trajectory', () => {
  it('carries the building today, every step with its figures, the target, the milestones and the advice contact', () => {
    const content = prefilled();
    expect(RenovationPassportContent.safeParse(content).success).toBe(true);
    expect(content.building).toMatchObject({
      epc_label: 'F',
      epc_score: 480,
      scale: 'EPC_FLANDERS',
      co2_kg_year: 9000,
      primary_energy_kwh_m2: 480,
    });
    expect(content.building.address.place).toBe('Gent');
    // What the site visit should check: the inputs the model filled with a default.
    expect(content.building.data_quality.model_defaults).toEqual(['outer_wall_insulation_type', 'window_glazing_type']);
    expect(content.building.data_quality.measured).toEqual(['habitable_space_m2', 'year_built']);
    expect(content.steps.map((s) => [s.order, s.phase, s.epc_label_after])).toEqual([
      [1, 'ROOF', 'E'],
      [2, 'WALLS_AND_WINDOWS', 'D'],
      [3, 'HEAT_GENERATOR', 'A'],
    ]);
    expect(content.totals.net_cost).toBe(20900);
    expect(content.target).toMatchObject({ label: 'A', year: 2050, reached: true, reached_by_step: 3 });
    expect(content.milestones.map((m) => [m.kind, m.reached_by_step])).toEqual([
      ['TARGET', 3],
      ['RENTAL_NORM', null],
    ]);
    expect(content.advice_contact.name).toContain('VerbouwLoket');
    expect(content.assumptions.energy_prices.country).toBe('BE');
    expect(content.assumptions.energy_prices.prices.find((p) => p.carrier === 'GAS')?.eur_per_kwh).toBeGreaterThan(0);
    expect(content.site_visit).toBeNull();
  });

  it("carries the plan's specification, grant conditions, money and milestone dates, null where the plan leaves them out", () => {
    const plain = prefilled();
    expect(plain.steps[0]).toMatchObject({ financing: null, planned_year: null, heat_pump_kw: null });
    expect(plain.steps[0]!.specification).toMatchObject({ target_r_value: 4.5, insulation_thickness_cm: 18 });
    expect(plain.steps[0]!.grant_conditions).toMatchObject({ status: 'GRANTED', schemes: ['Mijn VerbouwPremie'] });
    expect(plain.assumptions.calibration).toBeNull();
    const metadata = sampleMetadata();
    const steps = metadata.steps as Array<Record<string, unknown>>;
    const financing = {
      grant_eur: 4000,
      loan: {
        product: 'Mijn VerbouwLening',
        provider: 'Energiehuis',
        rate_percent: 0,
        term_months: 300,
        principal_eur: 6000,
        monthly_payment_eur: 20,
        conditions: ['income category 1'],
        source: 'https://example.org/loan',
      },
      monthly_bill_saving_eur: 90,
      payback_years: 14.2,
      payback_years_with_support: 10.5,
    };
    steps[2] = { ...steps[2], planned_year: 2028, heat_pump_kw: 8, financing };
    (metadata['milestones_missed'] as Array<Record<string, unknown>>)[0]!['deadline'] = '2031-01-01';
    const content = prefillContent(metadata, SAMPLE_ESTATE);
    expect(RenovationPassportContent.safeParse(content).success).toBe(true);
    expect(content.steps[2]).toMatchObject({ planned_year: 2028, heat_pump_kw: 8, financing });
    expect(content.milestones[1]).toMatchObject({ deadline: '2031-01-01', applies_because: 'the home is let' });
    // A financing that is not the plan's shape is refused with the plan, not carried half-read.
    steps[2] = { ...steps[2], financing: { loan: 'zero-rate' } };
    expect(() => prefillContent(metadata, SAMPLE_ESTATE)).toThrow();
  });
});

describe("the advisor's edits", () => {
  it('dropping a step takes its cost out of the totals and its gain out of the labels after it', () => {
    const before = prefilled();
    const after = applyEdits(before, mergeEdits({ steps: [], step_order: null }, [{ plan_order: 2, drop: true }]), visit);
    expect(after.steps.map((s) => s.plan_order)).toEqual([1, 3]);
    expect(after.steps.map((s) => s.order)).toEqual([1, 2]);
    expect(after.totals.net_cost).toBeCloseTo(before.totals.net_cost - before.steps[1]!.net_cost, 2);
    // Without the walls' 80 points the last step ends 80 points worse than planned.
    expect(after.steps[1]!.epc_score_after).toBe(before.steps[2]!.epc_score_after + 80);
    expect(after.site_visit).toEqual(visit);
  });

  it('reordering moves the labels with the steps; overriding a cost recomputes VAT at the step rate and the net cost', () => {
    const edits = mergeEdits(
      { steps: [], step_order: null },
      [{ plan_order: 1, estimated_cost: 10000, note: 'Roof needs new battens' }],
      [3, 1, 2],
    );
    const after = applyEdits(prefilled(), edits, null);
    expect(after.steps.map((s) => s.plan_order)).toEqual([3, 1, 2]);
    expect(after.steps[0]!.epc_score_after).toBe(480 - 205);
    const roof = after.steps[1]!;
    expect(roof.estimated_cost).toBe(10000);
    expect(roof.estimated_vat_cost).toBeCloseTo(600, 2);
    expect(roof.net_cost).toBeCloseTo(10000 + 600 - 1000, 2);
    expect(roof.override).toEqual({ quantity: null, estimated_cost: 10000, note: 'Roof needs new battens' });
    // The target is reached by the last step whatever the order, since all three are kept.
    expect(after.target.reached_by_step).toBe(3);
  });

  it('a quantity override scales the cost, VAT and grant', () => {
    const after = applyEdits(prefilled(), { steps: [{ plan_order: 1, quantity: 40, note: 'measured 40 m2' }], step_order: null }, null);
    expect(after.steps[0]).toMatchObject({
      quantity: 40,
      estimated_cost: 4000,
      estimated_vat_cost: 240,
      subsidy_amount: 500,
      net_cost: 3740,
    });
  });

  it('refuses an unknown step and an order that leaves a step out', () => {
    expect(() => applyEdits(prefilled(), { steps: [{ plan_order: 9, drop: true }], step_order: null }, null)).toThrow(PassportEditError);
    expect(() => applyEdits(prefilled(), { steps: [], step_order: [1, 2] }, null)).toThrow(PassportEditError);
  });
});
