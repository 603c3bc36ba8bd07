export {
  fillGaps,
  type GapFillProviders,
  type GapFillProviders as GapProviders,
  type GapFillResult,
  type ProviderUse,
} from './fill-gaps.ts';
export { crossCheckImpact, type ImpactCrossCheck } from './impact-cross-check.ts';
export {
  DEFAULT_BREAKER_SETTINGS,
  httpEnergyEfficiencyProvider,
  httpGeometryProvider,
  type BreakerSettings,
  type Closable,
  type HttpProviderOptions,
} from './http-providers.ts';
// The ports the providers implement, every one of them.
export type * from './providers.ts';
