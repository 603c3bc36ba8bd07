import { z } from 'zod';
import { PlatformEnv, platformConfig, type PlatformConfig } from '@renopath/platform/service/platform-env.ts';

/** The estates service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = PlatformEnv.extend({
  PORT: z.coerce.number({ error: 'expected a port number from 0 to 65535' }).int().min(0).max(65535).default(8080),
  RENOPATH_PUBLIC_URL: z.url({ error: 'RENOPATH_PUBLIC_URL must be an absolute URL' }).optional(),
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
});

export interface EstatesServiceConfig {
  platform: PlatformConfig;
  /** Base of the referral links; the gateway's public address (README.md "Configuration"). */
  publicUrl: string;
  settleTimeoutMs: number;
}

export function loadEstatesConfig(env: NodeJS.ProcessEnv = process.env): EstatesServiceConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const e = parsed.data;
  return {
    platform: platformConfig(e),
    publicUrl: (e.RENOPATH_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    settleTimeoutMs: e.RENOPATH_SETTLE_TIMEOUT_MS,
  };
}
