import { z } from 'zod';
import { PlatformEnv, platformConfig, type PlatformConfig } from '@renopath/platform/service/platform-env.ts';

/** The renovations service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = PlatformEnv.extend({
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
});

export interface RenovationsServiceConfig {
  platform: PlatformConfig;
  settleTimeoutMs: number;
}

export function loadRenovationsConfig(env: NodeJS.ProcessEnv = process.env): RenovationsServiceConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return { platform: platformConfig(parsed.data), settleTimeoutMs: parsed.data.RENOPATH_SETTLE_TIMEOUT_MS };
}
