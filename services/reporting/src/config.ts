import { z } from 'zod';
import { parseServiceEnv, ServiceEnv, PublicUrlEnv, publicUrlOf, type ServiceConfig } from '@renopath/platform/service/platform-env.ts';

/** The reporting service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = ServiceEnv.extend({
  RENOPATH_BUS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  ...PublicUrlEnv,
});

export interface ReportingServiceConfig extends ServiceConfig {
  busTimeoutMs: number;
  /** Base of the links handed out (a signed passport's public verification page). */
  publicUrl: string;
}

export function loadReportingConfig(env: NodeJS.ProcessEnv = process.env): ReportingServiceConfig {
  const { env: e, config } = parseServiceEnv(Env, env);
  return {
    ...config,
    busTimeoutMs: e.RENOPATH_BUS_TIMEOUT_MS,
    publicUrl: publicUrlOf(e),
  };
}
