import type { TrajectoryJobMetadata } from '@renopath/contracts';
import type { EstateFacts } from './content.ts';

/**
 * A finished trajectory job's metadata as the planner writes it (docs/job-metadata.md), for a 1960
 * Flemish house: three steps, roof, walls and a heat pump, the last reaching the 2050 target. The
 * figures are plausible, not the planner's: these tests check what the passport does with a plan.
 */
export function sampleMetadata(): TrajectoryJobMetadata & Record<string, unknown> {
  const step = (order: number, over: Partial<TrajectoryJobMetadata['steps'][number]>) => ({
    order,
    root_renovation_component_type: 'ROOF_INSULATION',
    renovation_component_type: 'ROOF_INSULATION_INCLINED',
    title: 'Roof insulation',
    quantity: 80,
    unit: 'm2',
    estimated_cost: 8000,
    estimated_vat_cost: 480,
    subsidy_amount: 1000,
    net_cost: 7480,
    supporting_works: [],
    epc_score_after: 380,
    epc_label_after: 'E',
    energy_savings_kwh_per_year: 9000,
    co2_savings_kg_per_year: 1800,
    cost_savings_eur_per_year: 700,
    rationale: 'The roof loses most heat.',
    renovation_obligation: null,
    scope: 'GENERAL' as const,
    roof_kind: null,
    element: 'ROOF' as const,
    phase: 'ROOF' as const,
    milestones: [],
    ...over,
  });
  return {
    renovation_id: '00000000-0000-4000-8000-00000000000a',
    region: 'FLANDERS',
    energy_efficiency_type: 'EPC_FLANDERS',
    current: {
      epc_score: 480,
      epc_label: 'F',
      primary_energy_kwh_per_year: 72000,
      heating_need_kwh_per_year: 40000,
      co2_kg_per_year: 9000,
      energy_cost_eur_per_year: 4200,
    },
    steps: [
      step(1, {}),
      step(2, {
        root_renovation_component_type: 'OUTER_WALL_INSULATION',
        renovation_component_type: 'CAVITY_WALL_INSULATION',
        title: 'Cavity wall insulation',
        quantity: 120,
        estimated_cost: 3000,
        estimated_vat_cost: 180,
        subsidy_amount: 600,
        net_cost: 2580,
        epc_score_after: 300,
        epc_label_after: 'D',
        element: 'WALLS',
        phase: 'WALLS_AND_WINDOWS',
        supporting_works: [
          {
            renovation_component_type: 'SCAFFOLDING',
            title: 'Scaffolding',
            quantity: 1,
            unit: 'piece',
            estimated_cost: 500,
            estimated_vat_cost: 30,
            subsidy_amount: 0,
          },
        ],
      }),
      step(3, {
        root_renovation_component_type: 'HEAT_PUMP',
        renovation_component_type: 'HEAT_PUMP_AIR_WATER',
        title: 'Air-water heat pump',
        quantity: 1,
        unit: 'piece',
        estimated_cost: 14000,
        estimated_vat_cost: 840,
        subsidy_amount: 4000,
        net_cost: 10840,
        epc_score_after: 95,
        epc_label_after: 'A',
        element: 'HEAT_GENERATOR',
        phase: 'HEAT_GENERATOR',
        milestones: [
          {
            kind: 'TARGET',
            rule_id: 'TARGET_FLANDERS_2050',
            label: 'A',
            description: 'Label A by 2050',
            source: 'https://example.org/target',
          },
        ],
      }),
    ],
    totals: {
      estimated_cost: 25000,
      estimated_vat_cost: 1500,
      subsidy_amount: 5600,
      total_estimated_cost_incl_vat: 26500,
      net_cost: 20900,
    },
    energy_efficiency_indication: 'A',
    final_epc_score: 95,
    confidence_score: 0.72,
    quality_label: 'B',
    expected_price_error: { average_pct: 14, standard_deviation_pct: 13, at_least: false },
    data_quality: {
      sources: { year_built: 'INPUT', habitable_space_m2: 'INPUT', outer_wall_insulation_type: 'MODEL', window_glazing_type: 'MODEL' },
      flags: [{ field: 'window_glazing_type', code: 'MISSING', message: 'window glazing type missing: model default' }],
    },
    versions: { model: 'energy-1', catalogue: 'catalogue-1' },
    target: { label: 'A', reached: true, source: 'https://example.org/target' },
    assumptions: ['Prices of 2025, incl. VAT.'],
    price_year: 2025,
    left_out: [],
    milestones_missed: [
      {
        kind: 'RENTAL_NORM',
        rule_id: 'RENTAL_NORM_FLANDERS',
        label: 'D',
        description: 'Rental minimum norm',
        source: 'https://example.org/rent',
      },
    ],
  };
}

export const SAMPLE_ESTATE: EstateFacts = {
  address: { street: 'Veldstraat', house_number: '12', house_number_extra: null, zip_code: '9000', place: 'Gent', country: 'BE' },
  estate_type: 'HOUSE',
  estate_format: 'SEMI_OPEN',
  year_built: 1960,
  habitable_space_m2: 150,
};
