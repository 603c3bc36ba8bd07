/**
 * Throughput of the energy model: full evaluations over a varied set of properties, and planner rounds
 * (one property plus 12 single-measure variants through evaluateVariants). Prints its figures.
 */
import type { PropertyDescription } from '@renopath/contracts';
import { evaluate, evaluateVariants } from './model/evaluate.ts';

export interface EnergyBench {
  evaluationsPerSecond: number;
  usPerEvaluation: number;
  plannerRoundsPerSecond: number;
}

const ZIPS: readonly [string, 'BE' | 'NL'][] = [
  ['9000', 'BE'],
  ['1050', 'BE'],
  ['4000', 'BE'],
  ['2000', 'BE'],
  ['3731 AB', 'NL'],
  ['1011 AB', 'NL'],
];
const FORMATS = ['OPEN', 'SEMI_OPEN', 'CLOSED'] as const;

/** A deterministic, varied set: countries, regions, periods, formats, sizes, some fully described. */
export function benchProperties(n = 240): PropertyDescription[] {
  const out: PropertyDescription[] = [];
  for (let i = 0; i < n; i++) {
    const [zip, country] = ZIPS[i % ZIPS.length]!;
    const p: PropertyDescription = {
      year_built: 1890 + ((i * 37) % 130),
      estate_format: FORMATS[i % 3]!,
      habitable_space_m2: 70 + ((i * 53) % 260),
      zip_code: zip,
      country,
    };
    if (i % 4 === 1)
      Object.assign(p, {
        window_glazing_type: 'DOUBLE_GLAZING',
        outer_wall_insulation_type: 'LIGHT',
        heating_device: 'CONDENSING_BOILER',
        installation_age: 'OLDER_THAN_TEN_YEARS',
      });
    if (i % 4 === 2) Object.assign(p, { building_width: 7, building_depth: 11, cornice_height: 6.5, solar_panels_kwp: 3 });
    if (i % 9 === 3) Object.assign(p, { estate_type: 'APARTMENT' });
    if (i % 5 === 4) Object.assign(p, { energy_efficiency_score: 250 + (i % 300) });
    out.push(p);
  }
  return out;
}

/** The ~12 single-measure variants a planner round evaluates. */
export const PLANNER_PATCHES: Partial<PropertyDescription>[] = [
  { inclined_roof_insulation_type: 'STRONG' },
  { outer_wall_insulation_type: 'STRONG' },
  { has_cavity_wall: true, has_cavity_wall_insulation: true },
  { solid_ground_floor_insulation_type: 'MODERATE' },
  { window_glazing_type: 'HR', has_renewed_window_frames: true },
  { window_glazing_type: 'TRIPLE_GLAZING', has_renewed_window_frames: true },
  { heating_type: 'HEAT_PUMP', heating_device: 'AIR_WATER_HEAT_PUMP' },
  { heating_type: 'GAS', heating_device: 'HYBRID_HEAT_PUMP' },
  { air_tightness_v50: 6 },
  { ventilation_type: 'SYSTEM_D' },
  { solar_panels_kwp: 4 },
  { has_solar_boiler: true },
];

function timeLoop(budgetMs: number, body: () => number): { count: number; ms: number } {
  const start = performance.now();
  let count = 0;
  let now = start;
  while (now - start < budgetMs) {
    count += body();
    now = performance.now();
  }
  return { count, ms: now - start };
}

export async function benchEnergy(budgetMs = 1000): Promise<EnergyBench> {
  const props = benchProperties();
  let sink = 0;
  // Warm-up: let the JIT settle on every code path.
  for (let r = 0; r < 20; r++) for (const p of props) sink += evaluate(p).epc_score;

  const evals = timeLoop(budgetMs, () => {
    for (const p of props) sink += evaluate(p).epc_score;
    return props.length;
  });
  let k = 0;
  const rounds = timeLoop(budgetMs, () => {
    const { variants } = evaluateVariants(props[k++ % props.length]!, PLANNER_PATCHES);
    sink += variants.length;
    return 1;
  });
  if (!Number.isFinite(sink)) throw new Error('benchmark produced a non-finite score');

  const result: EnergyBench = {
    evaluationsPerSecond: (evals.count / evals.ms) * 1000,
    usPerEvaluation: (evals.ms * 1000) / evals.count,
    plannerRoundsPerSecond: (rounds.count / rounds.ms) * 1000,
  };
  console.log('Energy model');
  console.log(
    `  full evaluations: ${Math.round(result.evaluationsPerSecond)} /s, ${result.usPerEvaluation.toFixed(1)} us per evaluation (target < 200 us: ${result.usPerEvaluation < 200 ? 'met' : 'NOT met'})`,
  );
  console.log(`  planner rounds (1 base + ${PLANNER_PATCHES.length} variants): ${Math.round(result.plannerRoundsPerSecond)} /s`);
  return result;
}
