import type { TrajectoryRequest } from '@renopath/contracts';
import { checkConsistency } from '@renopath/energy';
import { meteredUseProblems } from '../money/metered-check.ts';

/**
 * A trajectory request's business rules (422, docs/http-contract.md "Trajectory jobs"), one message
 * per problem: the consistency rules across fields and the metered use's plausibility. The gateway
 * asks them before anything is written (the job's estate), and the job's creation again.
 */
export function trajectoryRequestProblems(request: TrajectoryRequest, now: Date): string[] {
  return [...checkConsistency(request, { now }), ...meteredUseProblems(request)];
}
