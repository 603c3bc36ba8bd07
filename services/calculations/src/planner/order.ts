import { PLANNER_DATA, stateOrderBlocks } from '@renopath/catalog';
import type { VariantScore } from '@renopath/energy';
import type { PlanElement, PlanOmission, PropertyDescription } from '@renopath/contracts';
import { CO_OWNED, patchOf, viewOf, type Chosen } from './common.ts';

/**
 * The order of the chosen steps once every element is decided: ventilation joined to the step that
 * makes the home airtight, and in a flat the owner's own steps before the co-owners' ones.
 */

type Score = (state: Partial<PropertyDescription>) => VariantScore;

/** Rule BOILER_END_OF_LIFE: the year a young gas or oil boiler reaches the end of its life (null: not young, or no boiler). */
export function boilerEndOfLife(property: PropertyDescription, year: number): number | null {
  const device = property.heating_device;
  if (device !== 'CONDENSING_BOILER' && device !== 'NON_CONDENSING_BOILER') return null;
  const age = property.installation_age ? PLANNER_DATA.boiler_end_of_life.age_midpoints[property.installation_age] : undefined;
  if (age === undefined) return null;
  return year + Math.max(1, Math.round(PLANNER_DATA.boiler_end_of_life.life_years - age));
}

/** The envelope steps ventilation may join, the one that makes the home airtight first (the window's airtight joint). */
const AIRTIGHT_HOSTS: readonly PlanElement[] = ['WINDOWS', 'WALLS', 'ROOF', 'FLOOR'];

/**
 * Rule VENTILATION_JOINS_AIRTIGHT_STEP (docs/domain.md "The planner", 2): a ventilation system is the
 * supporting work of the step that makes the envelope airtight, never a step of its own, because its
 * fans add electricity to the score and a step that raises the score would undo a milestone marked
 * before it. The host is the first envelope step, in the order windows, walls, roof, floor, whose
 * gain covers the fans; the steps between the host and the ventilation's place are scored again with
 * the system in. With no envelope step to host it, the ventilation is left out and the plan says so.
 */
export function joinVentilation(
  chosen: Chosen[],
  leftOut: PlanOmission[],
  score: (state: Partial<PropertyDescription>) => VariantScore,
): Chosen[] {
  const at = chosen.findIndex((c) => c.element === 'VENTILATION');
  if (at < 0) return chosen;
  const vent = chosen[at]!;
  const before = at > 0 ? chosen[at - 1]!.state : null;
  const patch = before ? patchOf(vent.state, before) : vent.state;
  const penalty = vent.evaluation.epc_score - vent.before.epc_score;
  const hosts = AIRTIGHT_HOSTS.map((e) => chosen.findIndex((c, i) => i < at && c.element === e)).filter((i) => i >= 0);
  const host = hosts.find((i) => chosen[i]!.gain > penalty);
  const rest = [...chosen.slice(0, at), ...chosen.slice(at + 1)];
  if (host === undefined) {
    leftOut.push({
      element: 'VENTILATION',
      code: 'NOT_IN_THIS_HOME',
      reason:
        'ventilation: no planned work makes the envelope more airtight, so no system is planned now; system C with demand control joins the next window or insulation work.',
    });
    return rest;
  }
  const out: Chosen[] = chosen.slice(0, host);
  for (let i = host; i < at; i++) {
    const c = chosen[i]!;
    const state = { ...c.state, ...patch };
    const evaluation = score(state);
    const prev = out.length ? out[out.length - 1]!.evaluation : c.before;
    out.push({
      ...c,
      state,
      evaluation,
      before: prev,
      gain: prev.epc_score - evaluation.epc_score,
      ...(i === host ? { joined: { type: vent.type, quantity: vent.quantity } } : {}),
    });
  }
  for (let i = at + 1; i < chosen.length; i++) {
    const c = chosen[i]!;
    out.push(i === at + 1 ? { ...c, before: out[out.length - 1]!.evaluation } : c);
  }
  return out;
}

/** The flat's heating steps that follow its heat generator's place (emitters and the oil tank go with it). */
const HEATING_CHAIN = new Set<PlanElement>(['HEAT_GENERATOR', 'HEAT_EMITTERS', 'OIL_TANK']);
const HEAT_PUMPS = new Set(['HEAT_PUMP_AIR_WATER', 'HEAT_PUMP_GEOTHERMAL', 'HEAT_PUMP_AIR_AIR']);

/**
 * Rule OWN_STEPS_FIRST (docs/domain.md "The planner", 4): in a flat, what the owner can do alone
 * (windows, the flat's own ventilation, heating and hot water) comes before the works the co-owners'
 * general meeting must vote (facade, cavity, roof, common floors), each group in the advisor's phase
 * order, so insulation still comes before heating inside a group. The flat's heating waits for the
 * co-owners' steps, and its rationale says why, in two cases only: the heat pump needs the building's
 * insulation before it can run well (PREREQ_ENVELOPE_BEFORE_HEAT_PUMP), or a young boiler is replaced
 * at the end of its life. The steps are scored again in their new order; nothing else changes.
 */
export function ownStepsFirst(
  chosen: Chosen[],
  property: PropertyDescription,
  base: VariantScore,
  score: Score,
  youngBoiler: boolean,
): Chosen[] {
  const coOwned = (c: Chosen) => CO_OWNED.has(c.element);
  const firstCo = chosen.findIndex(coOwned);
  if (firstCo < 0 || !chosen.slice(firstCo).some((c) => !coOwned(c))) return chosen;
  const patches = new Map(chosen.map((c, i) => [c, patchOf(c.state, i > 0 ? chosen[i - 1]!.state : property)]));
  const own = chosen.filter((c) => !coOwned(c));
  const generator = own.find((c) => c.element === 'HEAT_GENERATOR');
  let wait: string | null = null;
  if (generator && youngBoiler) {
    wait = 'the young boiler is replaced at the end of its life (Rule BOILER_END_OF_LIFE), so the co-owners can decide their works first';
  } else if (generator && HEAT_PUMPS.has(generator.type)) {
    // The flat as its own steps leave it: would the heat pump's envelope prerequisite hold without the co-owners' insulation?
    let state: Partial<PropertyDescription> = property;
    for (const c of own.slice(0, own.indexOf(generator))) state = { ...state, ...patches.get(c) };
    if (stateOrderBlocks(generator.type, viewOf(state, score(state).assumed)).length > 0)
      wait = "the heat pump needs the building's insulation first to run at a low water temperature and be sized on the insulated flat";
  }
  const waits = (c: Chosen) => wait !== null && HEATING_CHAIN.has(c.element);
  const order = [...own.filter((c) => !waits(c)), ...chosen.filter(coOwned), ...own.filter(waits)];
  const out: Chosen[] = [];
  let state: Partial<PropertyDescription> = property;
  let before = base;
  for (const c of order) {
    state = { ...state, ...patches.get(c) };
    const evaluation = score(state);
    out.push({
      ...c,
      state,
      evaluation,
      before,
      gain: before.epc_score - evaluation.epc_score,
      ...(waits(c) ? { afterCoOwners: wait! } : {}),
    });
    before = evaluation;
  }
  return out;
}
