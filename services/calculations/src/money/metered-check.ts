import { PLANNER_DATA } from '@renopath/catalog/planner-data.ts';
import { propertyOf, type TrajectoryRequest } from '@renopath/contracts';
import { evaluate } from '@renopath/energy';
import { implausibleMeteredUse } from '@renopath/energy/metered/index.ts';

/**
 * The business rule on metered use (422, docs/http-contract.md): readings over ten times what the energy
 * model gives the described home cannot be its own. Run at job creation beside the consistency rules;
 * a home the model cannot evaluate is left to the job, which answers for it.
 */
export function meteredUseProblems(request: TrajectoryRequest): string[] {
  if (!request.metered_use) return [];
  let evaluation: ReturnType<typeof evaluate>;
  try {
    evaluation = evaluate(propertyOf(request));
  } catch {
    return [];
  }
  return implausibleMeteredUse(request.metered_use, evaluation, PLANNER_DATA.pv_sizing.household_kwh_per_year[request.country]);
}
