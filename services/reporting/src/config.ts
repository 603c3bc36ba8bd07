import { z } from 'zod';
import { PlatformEnv, platformConfig, type PlatformConfig } from '@renopath/platform/service/platform-env.ts';

/** The reporting service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = PlatformEnv.extend({
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  RENOPATH_BUS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  PORT: z.coerce.number({ error: 'expected a port number from 0 to 65535' }).int().min(0).max(65535).default(8080),
  RENOPATH_PUBLIC_URL: z.url({ error: 'RENOPATH_PUBLIC_URL must be an absolute URL' }).optional(),
});

export interface ReportingServiceConfig {
  platform: PlatformConfig;
  settleTimeoutMs: number;
  busTimeoutMs: number;
  /** Base of the links handed out (a signed passport's public verification page). */
  publicUrl: string;
}

export function loadReportingConfig(env: NodeJS.ProcessEnv = process.env): ReportingServiceConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return {
    platform: platformConfig(parsed.data),
    settleTimeoutMs: parsed.data.RENOPATH_SETTLE_TIMEOUT_MS,
    busTimeoutMs: parsed.data.RENOPATH_BUS_TIMEOUT_MS,
    publicUrl: (parsed.data.RENOPATH_PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/$/, ''),
  };
}
