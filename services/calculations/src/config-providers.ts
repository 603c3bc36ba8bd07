import { z } from 'zod';
import { DEFAULT_BREAKER_SETTINGS, type BreakerSettings } from './gap-filling/http-providers.ts';

/**
 * The gap-filling providers' circuit-breaker settings (gap-filling/README.md), as zod fields for the
 * service's one config module to extend its environment schema with (house style: one config module per service).
 */
export const ProviderBreakerEnv = {
  RENOPATH_PROVIDER_BREAKER_ERROR_PERCENT: z.coerce.number().min(1).max(100).default(DEFAULT_BREAKER_SETTINGS.errorThresholdPercentage),
  RENOPATH_PROVIDER_BREAKER_RESET_MS: z.coerce.number().int().min(100).default(DEFAULT_BREAKER_SETTINGS.resetTimeoutMs),
  RENOPATH_PROVIDER_BREAKER_VOLUME: z.coerce.number().int().min(1).default(DEFAULT_BREAKER_SETTINGS.volumeThreshold),
  RENOPATH_PROVIDER_BREAKER_WINDOW_MS: z.coerce.number().int().min(1000).default(DEFAULT_BREAKER_SETTINGS.rollingCountTimeoutMs),
} as const;

type ParsedBreakerEnv = { [K in keyof typeof ProviderBreakerEnv]: number };

export function breakerSettingsOf(e: ParsedBreakerEnv): BreakerSettings {
  return {
    errorThresholdPercentage: e.RENOPATH_PROVIDER_BREAKER_ERROR_PERCENT,
    resetTimeoutMs: e.RENOPATH_PROVIDER_BREAKER_RESET_MS,
    volumeThreshold: e.RENOPATH_PROVIDER_BREAKER_VOLUME,
    rollingCountTimeoutMs: e.RENOPATH_PROVIDER_BREAKER_WINDOW_MS,
  };
}
