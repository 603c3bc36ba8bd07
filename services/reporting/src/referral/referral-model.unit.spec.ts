import { describe, expect, it } from 'vitest';
import type { EstateFieldValues, TrajectoryPlan } from '@renopath/contracts';
import { buildReferralModel, pageLanguage, type ReferralEstate } from './referral-model.ts';
import { applyEstateEvent } from './estate-copy.ts';

const FIELDS = {
  year_built: 1960,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  estate_type: 'HOUSE',
  address: { street: 'Kouter', house_number: '12', house_number_extra: null, zip_code: '9000', place: 'Gent', country: 'BE' },
  commercial_context: { price: null },
  energy_context: { eco_facilities: [], epc_score: null, heating_type: 'GAS', heating_device: 'NON_CONDENSING_BOILER' },
  dimensions: { width_cm: null, depth_cm: null, height_cm: null },
} as unknown as EstateFieldValues;
const ESTATE: ReferralEstate = { estate_id: 'e', organization_id: 'o', fields: FIELDS, roofs: [], deleted: false };

const work = {
  renovation_component_type: 'SCAFFOLDING',
  title: 'Scaffolding',
  quantity: 100,
  unit: 'm2',
  estimated_cost: 1_000,
  estimated_vat_cost: 60,
  subsidy_amount: 0,
};
const step = (order: number, type: string, net: number, works = [] as (typeof work)[]) => ({
  order,
  root_renovation_component_type: type,
  renovation_component_type: type,
  title: type,
  quantity: 1,
  unit: 'piece',
  estimated_cost: 10_000,
  estimated_vat_cost: 600,
  subsidy_amount: 10_600 - net,
  net_cost: net,
  supporting_works: works,
  epc_score_after: 300 - order * 50,
  epc_label_after: 'C',
  energy_savings_kwh_per_year: 0,
  co2_savings_kg_per_year: 0,
  cost_savings_eur_per_year: 0,
  rationale: '',
  renovation_obligation: null,
  scope: 'GENERAL',
  roof_kind: null,
});
const PLAN = {
  region: 'FLANDERS',
  energy_efficiency_type: 'EPC_FLANDERS',
  current: {
    epc_score: 450,
    epc_label: 'E',
    primary_energy_kwh_per_year: 0,
    heating_need_kwh_per_year: 0,
    co2_kg_per_year: 0,
    energy_cost_eur_per_year: 0,
  },
  steps: [step(1, 'EXTERIOR_WALL_INSULATION', 9_000.1, [work]), step(2, 'HEAT_PUMP_AIR_WATER', 8_000.2)],
  totals: {
    estimated_cost: 20_000,
    estimated_vat_cost: 1_200,
    subsidy_amount: 4_199.7,
    total_estimated_cost_incl_vat: 21_200,
    net_cost: 17_000.3,
  },
  energy_efficiency_indication: 'B',
  final_epc_score: 180,
  confidence_score: 0.75,
  quality_label: 'B',
  expected_price_error: { average_pct: 15, standard_deviation_pct: 10, at_least: false },
  data_quality: { sources: { year_built: 'INPUT' }, flags: [] },
  versions: { model: 'm', catalogue: 'c' },
  target: { label: 'A', reached: false, source: '' },
  assumptions: ['prices of 2026'],
  price_year: 2026,
} as unknown as TrajectoryPlan;

describe('the referral page model', () => {
  it("shows the plan's steps with cumulative net cost, its labels and its confidence", () => {
    const model = buildReferralModel({
      estate: ESTATE,
      plan: PLAN,
      plan_finished_at: '2026-11-01T00:00:00.000Z',
      agency: null,
      language: 'en',
      now: '2026-11-23T00:00:00.000Z',
    });
    expect(model.steps.map((s) => s.cumulative_net_cost)).toEqual([9_000.1, 17_000.3]);
    expect(model.steps[0]!.items.map((i) => [i.renovation_component_type, i.derived, i.estimated_cost])).toEqual([
      ['EXTERIOR_WALL_INSULATION', false, 9_000],
      ['SCAFFOLDING', true, 1_000],
    ]);
    expect(model.current).toEqual({ epc_score: 450, epc_label: 'E' });
    expect(model.reachable).toEqual({ epc_score: 180, epc_label: 'B' });
    expect(model.confidence).toEqual({ score: 0.75, quality_label: 'B', average_pct: 15, standard_deviation_pct: 10, at_least: false });
    expect(model.generated_at).toBe('2026-11-01T00:00:00.000Z');
  });

  it("without a trajectory: the home's basics and the model's estimate of its current label, no steps", () => {
    const model = buildReferralModel({
      estate: ESTATE,
      plan: null,
      plan_finished_at: null,
      agency: { name: 'A', phone: null, email: null },
      language: 'nl-BE',
      now: '2026-11-23T00:00:00.000Z',
    });
    expect(model.steps).toEqual([]);
    expect(model.scale).toBe('EPC_FLANDERS');
    expect(model.current.epc_label).toMatch(/^[A-F]\+?$/);
    expect(model.estate.place).toBe('Gent');
    expect(model.agency).toEqual({ name: 'A', phone: null, email: null, website: null });
  });

  it("offers the languages of the home's country and ignores one it does not offer", () => {
    expect(pageLanguage('BE', 'fr-BE')).toEqual({ language: 'fr-BE', languages: ['nl-BE', 'fr-BE', 'en'] });
    expect(pageLanguage('NL', 'fr-BE')).toEqual({ language: 'nl-NL', languages: ['nl-NL', 'en'] });
    expect(pageLanguage('BE', undefined).language).toBe('nl-BE');
  });
});

describe('the page of an estate without a finished trajectory', () => {
  const page = (estate: ReferralEstate) =>
    buildReferralModel({ estate, plan: null, plan_finished_at: null, agency: null, language: 'nl-BE', now: '2026-11-23T00:00:00.000Z' });

  it("estimates the current label from the estate's data, and shows no reachable label or steps", () => {
    const model = page(ESTATE);
    expect(model.scale).toBe('EPC_FLANDERS');
    expect(model.estate).toMatchObject({ place: 'Gent', zip_code: '9000', country: 'BE' });
    expect(model.current.epc_label).toMatch(/^[A-F]\+?$/);
    expect(model.reachable).toEqual({ epc_score: null, epc_label: null });
    expect(model.steps).toEqual([]);
  });

  it('estimates nothing while a required field is unknown', () => {
    const bare = { ...ESTATE, fields: { ...FIELDS, year_built: null } } as ReferralEstate;
    expect(page(bare)).toMatchObject({ current: { epc_label: null, epc_score: null }, confidence: null });
  });
});

describe("this context's copy of an estate", () => {
  it('merges nested changes, follows roofs and marks a deletion', () => {
    let doc = applyEstateEvent(null, {
      type: 'EstateCreated',
      data: { estate_id: 'e', organization_id: 'o', estate_provider_type: 'API', referral_token: 't', fields: FIELDS },
    });
    doc = applyEstateEvent(doc, { type: 'EstateUpdated', data: { estate_id: 'e', changes: { address: { place: 'Gentbrugge' } } } });
    expect(doc?.fields.address).toEqual({ ...FIELDS.address, place: 'Gentbrugge' });
    const roof = {
      estate_roof_type: 'FLAT',
      surface_m2: 50,
      insulation_type: 'NONE',
      is_decking_present: null,
      name: null,
      pitch_degrees: null,
      dimensions: { width_cm: null, length_cm: null, height_cm: null },
    } as never;
    doc = applyEstateEvent(doc, { type: 'RoofAdded', data: { estate_id: 'e', roof_id: 'r', fields: roof } });
    doc = applyEstateEvent(doc, { type: 'RoofUpdated', data: { estate_id: 'e', roof_id: 'r', changes: { insulation_type: 'STRONG' } } });
    expect(doc?.roofs.map((r) => [r.id, r.insulation_type])).toEqual([['r', 'STRONG']]);
    doc = applyEstateEvent(doc, { type: 'RoofRemoved', data: { estate_id: 'e', roof_id: 'r' } });
    expect(doc?.roofs).toEqual([]);
    expect(applyEstateEvent(doc, { type: 'EstateDeleted', data: { estate_id: 'e', organization_id: 'o' } })?.deleted).toBe(true);
  });
});
