export { planTrajectory, plannableTypes } from './planner.ts';
export type { PlanOptions } from './planner.ts';
export { TrajectoryJobMetadata, TrajectoryPlan } from '@renopath/contracts';
