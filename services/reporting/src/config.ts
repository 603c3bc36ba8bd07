import { z } from 'zod';
import { PlatformEnv, platformConfig, type PlatformConfig } from '@renopath/platform/service/platform-env.ts';

/** The reporting service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = PlatformEnv.extend({
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  RENOPATH_BUS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
});

export interface ReportingServiceConfig {
  platform: PlatformConfig;
  settleTimeoutMs: number;
  busTimeoutMs: number;
}

export function loadReportingConfig(env: NodeJS.ProcessEnv = process.env): ReportingServiceConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return {
    platform: platformConfig(parsed.data),
    settleTimeoutMs: parsed.data.RENOPATH_SETTLE_TIMEOUT_MS,
    busTimeoutMs: parsed.data.RENOPATH_BUS_TIMEOUT_MS,
  };
}
