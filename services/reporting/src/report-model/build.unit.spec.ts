import { describe, expect, it } from 'vitest';
import type { Estate, RenovationItem } from '@renopath/contracts';
import { labelsOf } from '@renopath/energy';
import { buildReportModel, labelsAfterSteps, estateData, type ReportInputs } from './build.ts';

/** A 1960 uninsulated semi-detached house in Gent with single glazing and an old gas boiler. */
const ESTATE = {
  id: '10000000-0000-4000-8000-000000000001',
  organization_id: '10000000-0000-4000-8000-000000000002',
  year_built: 1960,
  year_renovated: null,
  estate_type: 'HOUSE',
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  number_of_floors: null,
  address: { street: 'Kouter', house_number: '12', house_number_extra: null, zip_code: '9000', place: 'Gent', country: 'BE' },
  commercial_context: { price: null, commercial_media_files: [] },
  energy_context: {
    eco_facilities: [],
    epc_score: null,
    heating_type: 'GAS',
    heating_device: 'NON_CONDENSING_BOILER',
    window_glazing_type: 'SINGLE_GLAZING',
    outer_wall_insulation_type: 'NONE',
    outer_wall_surface: 120,
    window_glazing_surface: 18,
  },
  dimensions: { width_cm: null, depth_cm: null, height_cm: null },
  roofs: [],
  media: [],
} as unknown as Estate;

const item = (id: string, type: string, money: [number, number, number], quantity = 1, extra: Partial<RenovationItem> = {}) =>
  ({
    id,
    renovation_component_type: type,
    root_renovation_component_type: type,
    quantity,
    unit: 'piece',
    estimated_cost: money[0],
    estimated_vat_cost: money[1],
    subsidy_amount: money[2],
    supports: [],
    ...extra,
  }) as RenovationItem;

const ID = {
  pump: '20000000-0000-4000-8000-000000000001',
  glazing: '20000000-0000-4000-8000-000000000002',
  wall: '20000000-0000-4000-8000-000000000003',
};

function inputs(itemOrder: string[]): ReportInputs {
  const pump = item(ID.pump, 'HEAT_PUMP_AIR_WATER', [10_000, 600, 1_000.5]);
  const glazing = item(ID.glazing, 'GLAZING_REPLACEMENT_HR', [3_000.1, 180.2, 0], 18);
  const wall = item(ID.wall, 'EXTERIOR_WALL_INSULATION', [15_000, 900, 2_000], 120);
  const scaffolding = item('20000000-0000-4000-8000-000000000009', 'SCAFFOLDING', [1_200, 72, 0], 120, {
    supports: ['EXTERIOR_WALL_INSULATION'],
  });
  return {
    language: 'en',
    generated_at: '2026-11-23T10:00:00.000Z',
    renovation: { energy_efficiency_indication: 'C', energy_efficiency_type: 'EPC_FLANDERS' },
    overview: {
      summary: {
        estate_id: ESTATE.id,
        total_estimated_cost: 29_200.1,
        total_estimated_vat_cost: 1_752.2,
        total_subsidy_amount: 3_000.5,
        total_estimated_cost_incl_vat: 30_952.3,
        energy_efficiency_indication: 'C',
        energy_efficiency_type: 'EPC_FLANDERS',
        price_year: 2026,
        issues: [],
      },
      details: { general: [pump, glazing, wall], rooms: [], roofs: [], staircases: [], derived: [scaffolding] },
    },
    grants: {
      TECHNICAL_INSTALLATIONS: {
        total_subsidy_amount: 1_000.5,
        total_estimated_cost: 10_000,
        total_estimated_vat_cost: 600,
        eligible_renovation_items: [
          {
            renovation_item_id: ID.pump,
            renovation_component_type: 'HEAT_PUMP_AIR_WATER',
            estimated_cost: 10_000,
            subsidy_amount: 1_000.5,
            scheme: 'Mijn VerbouwPremie',
            conditions: ['a'],
            grant_rules: [],
          },
        ],
      },
    },
    estate: ESTATE,
    itemOrder,
    photo: null,
    agency: { name: 'Agency', phone: null, email: null, website: null },
  };
}

describe('buildReportModel', () => {
  it('orders the steps as the renovation does and prices a supporting work into the first step it serves', () => {
    const model = buildReportModel(inputs([ID.wall, ID.pump, ID.glazing]));
    expect(model.steps.map((s) => s.renovation_component_type)).toEqual([
      'EXTERIOR_WALL_INSULATION',
      'HEAT_PUMP_AIR_WATER',
      'GLAZING_REPLACEMENT_HR',
    ]);
    expect(model.steps.map((s) => s.order)).toEqual([1, 2, 3]);
    const wall = model.steps[0]!;
    expect(wall.items.map((i) => [i.renovation_component_type, i.derived])).toEqual([
      ['EXTERIOR_WALL_INSULATION', false],
      ['SCAFFOLDING', true],
    ]);
    expect(wall.estimated_cost).toBe(16_200);
    expect(wall.net_cost).toBe(16_200 + 972 - 2_000);
  });

  it('adds the net costs up step by step, to the totals of the overview', () => {
    const model = buildReportModel(inputs([ID.pump, ID.glazing, ID.wall]));
    const nets = model.steps.map((s) => s.net_cost);
    expect(model.steps.map((s) => s.cumulative_net_cost)).toEqual([
      nets[0],
      nets[0]! + nets[1]!,
      Math.round((nets[0]! + nets[1]! + nets[2]!) * 100) / 100,
    ]);
    expect(model.steps.at(-1)!.cumulative_net_cost).toBe(model.totals.net_cost);
    expect(model.totals).toEqual({
      estimated_cost: 29_200.1,
      estimated_vat_cost: 1_752.2,
      subsidy_amount: 3_000.5,
      total_estimated_cost_incl_vat: 30_952.3,
      net_cost: 27_951.8,
    });
  });

  it("gives each step the model's label after it and every earlier step, never worse than before, on the estate's scale", () => {
    const model = buildReportModel(inputs([ID.pump, ID.glazing, ID.wall]));
    expect(model.scale).toBe('EPC_FLANDERS');
    expect(model.labels).toEqual(labelsOf('EPC_FLANDERS'));
    const rank = (label: string | null) => model.labels.indexOf(label!);
    expect(model.current.epc_label).not.toBeNull();
    const ranks = [rank(model.current.epc_label), ...model.steps.map((s) => rank(s.epc_label_after))];
    for (const r of ranks) expect(r).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeLessThanOrEqual(ranks[i - 1]!);
    const scores = [model.current.epc_score!, ...model.steps.map((s) => s.epc_score_after!)];
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1]!);
    expect(model.reachable.epc_label).toBe('C');
    expect(model.confidence?.quality_label).toMatch(/^[ABCD]$/);
  });

  it('evaluates the label after a prefix the same whatever the call: one call holds every prefix', () => {
    const steps = [
      { renovation_component_type: 'HEAT_PUMP_AIR_WATER', quantity: 1 },
      { renovation_component_type: 'EXTERIOR_WALL_INSULATION', quantity: 120 },
    ];
    const both = labelsAfterSteps(estateData(ESTATE), steps)!;
    const first = labelsAfterSteps(estateData(ESTATE), steps.slice(0, 1))!;
    expect(both.after[0]!.epc_score).toBeCloseTo(first.after[0]!.epc_score, 6);
  });

  it('lists the grants per category from the grants reply', () => {
    const model = buildReportModel(inputs([]));
    expect(model.grants).toEqual([
      {
        category: 'TECHNICAL_INSTALLATIONS',
        total_subsidy_amount: 1_000.5,
        items: [
          { renovation_component_type: 'HEAT_PUMP_AIR_WATER', subsidy_amount: 1_000.5, scheme: 'Mijn VerbouwPremie', conditions: ['a'] },
        ],
      },
    ]);
  });

  it('leaves the labels unknown when the estate lacks what the model needs', () => {
    const bare = { ...ESTATE, year_built: null } as Estate;
    const model = buildReportModel({ ...inputs([]), estate: bare });
    expect(model.current).toEqual({ epc_score: null, epc_label: null });
    expect(model.steps.every((s) => s.epc_label_after === null)).toBe(true);
    expect(model.confidence).toBeNull();
  });

  it('states what the figures assume: the price year, the date of the rules, and the grants for each income category', () => {
    const model = buildReportModel(inputs([ID.pump, ID.glazing, ID.wall]));
    expect(model.conditions.price_year).toBe(2026);
    expect(model.conditions.rules_date).toBe('2026-07-01');
    const income = model.conditions.income!;
    expect(income).toMatchObject({ category: 'MIDDLE', assumed: true });
    // Flemish grants depend on income: more for the lowest category, less for the highest.
    expect(income.subsidy_by_category.LOW).toBeGreaterThan(income.subsidy_by_category.MIDDLE);
    expect(income.subsidy_by_category.HIGH).toBeLessThan(income.subsidy_by_category.MIDDLE);
    expect(model.conditions.modelled_fields).toEqual(model.sources.filter((x) => x.source === 'MODEL').map((x) => x.field));
  });

  it('marks each milestone on the first step whose label meets it: the Flemish obligation after a purchase with its deadline, the long-term target', () => {
    const model = buildReportModel(inputs([ID.wall, ID.glazing, ID.pump]));
    const rank = (label: string | null) => model.labels.indexOf(label!);
    const obligation = model.milestones.find((m) => m.kind === 'OBLIGATION');
    if (['E', 'F'].includes(model.current.epc_label!)) {
      expect(obligation).toMatchObject({
        region: 'FLANDERS',
        label: 'D',
        within_years: 5,
        deadline: '2031-07-01',
        from_label: model.current.epc_label,
      });
    }
    expect(model.milestones.find((m) => m.kind === 'TARGET')).toMatchObject({ label: 'A', deadline: '2050-12-31' });
    for (const m of model.milestones) {
      const worst = m.kind === 'TARGET' ? 'A' : m.label;
      const first = model.steps.findIndex((st) => rank(st.epc_label_after) <= rank(worst));
      expect(m.reached_at_step, m.rule_id).toBe(first < 0 ? null : first + 1);
    }
  });

  it('titles the estate with its own name, for a cover without a street', () => {
    const named = { ...ESTATE, name: 'Hoeve ter Linde' } as Estate;
    expect(buildReportModel({ ...inputs([]), estate: named }).estate.title).toBe('Hoeve ter Linde');
  });
});
