/**
 * The `rationale` of a step: plain sentences for a homeowner saying why this step comes now and what
 * it brings. Built from the facts the planner decided on, never from figures of its own.
 */

export interface RationaleFacts {
  root: string;
  title: string;
  order: number;
  scoreBefore: number;
  scoreAfter: number;
  labelBefore: string;
  labelAfter: string;
  costSavingsPerYear: number;
  subsidy: number;
  /** The step won a tie on cost after grants against measures of about the same impact. */
  wonOnCost: boolean;
  /** Types planned before this step. */
  plannedBefore: readonly string[];
  /** A heat pump or other heat generator comes later in the plan. */
  generatorLater: boolean;
  obligationLabel: string | null;
  targetLabel: string;
  reachesTarget: boolean;
}

const WHAT_IT_DOES: Record<string, string> = {
  ROOF_INSULATION: 'Insulating the roof stops the heat that rises and escapes through it.',
  OUTER_WALL_INSULATION: 'Insulating the outer walls cuts the heat lost through the largest surface of the home.',
  WINDOWS: 'Better windows keep the heat in and end cold spots and draughts near the glass.',
  FLOOR_INSULATION: 'Insulating the floor stops heat leaking into the ground or basement and warms the floor underfoot.',
  HEATING: 'A new heat generator makes the heat the home still needs with far less energy.',
  HOT_WATER: 'Hot water is made with less energy.',
  VENTILATION: 'Controlled ventilation keeps the air healthy while losing less heat.',
  AIRTIGHTNESS_IMPROVEMENT: 'Sealing air leaks stops draughts and the heat they carry away.',
  HEAT_DISTRIBUTION: 'Low-temperature radiators let the heat pump run at the low water temperature where it is most efficient.',
  SOLAR_PANELS: 'Solar panels produce electricity on the roof, which lowers the energy bought from the grid.',
};

const HEAT_GENERATORS = ['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_AIR_AIR', 'HEAT_PUMP_HYBRID', 'PELLET_BOILER'];
const ENVELOPE_ROOTS = new Set(['ROOF_INSULATION', 'OUTER_WALL_INSULATION', 'WINDOWS', 'FLOOR_INSULATION']);

const euros = (x: number) => `EUR ${Math.round(x).toLocaleString('en-GB')}`;
const score = (x: number) => Math.round(x).toString();

export function rationaleOf(f: RationaleFacts): string {
  const parts: string[] = [];
  const why = f.order === 1 ? 'It improves the EPC score the most of all works the home can take now' : 'Of the works left, it improves the EPC score the most';
  parts.push(`${why}${f.wonOnCost ? ', and it costs the least after grants among works with about the same effect' : ''}: from ${score(f.scoreBefore)} to ${score(f.scoreAfter)} (label ${f.labelBefore} to ${f.labelAfter}).`);
  if (ENVELOPE_ROOTS.has(f.root) && f.generatorLater) {
    parts.push('Insulating before replacing the heating means the new system can be smaller and runs more efficiently.');
  } else if (f.root === 'HEATING' && f.plannedBefore.length > 0 && !f.plannedBefore.some((t) => HEAT_GENERATORS.includes(t))) {
    parts.push('With the home now better insulated, the new heating can be sized on the lower heat demand.');
  } else if (f.root === 'SOLAR_PANELS' && f.plannedBefore.some((t) => HEAT_GENERATORS.includes(t))) {
    parts.push('It comes after the heating decision, so the panels are sized on the home\'s new electricity use.');
  } else if (f.root === 'VENTILATION' && f.plannedBefore.includes('AIRTIGHTNESS_IMPROVEMENT')) {
    parts.push('It follows the airtightness works, so the heat recovery actually pays off.');
  }
  const what = WHAT_IT_DOES[f.root];
  if (what) parts.push(what);
  if (f.costSavingsPerYear >= 1) parts.push(`Expected saving on the energy bill: about ${euros(f.costSavingsPerYear)} a year.`);
  if (f.subsidy > 0) parts.push(`Grants lower its cost by about ${euros(f.subsidy)}.`);
  if (f.obligationLabel) parts.push(`With this step the home reaches label ${f.obligationLabel}, which meets the Flemish renovation obligation after a purchase.`);
  if (f.reachesTarget) parts.push(`This reaches label ${f.targetLabel}, the long-term target for homes in the region.`);
  return parts.join(' ');
}
