import { parseServiceEnv, ServiceEnv, PublicUrlEnv, publicUrlOf, type ServiceConfig } from '@renopath/platform/service/platform-env.ts';

/** The estates service's configuration, parsed once at start-up (house style: one config module per service). */
const Env = ServiceEnv.extend(PublicUrlEnv);

export interface EstatesServiceConfig extends ServiceConfig {
  /** Base of the referral links; the gateway's public address (README.md "Configuration"). */
  publicUrl: string;
}

export function loadEstatesConfig(env: NodeJS.ProcessEnv = process.env): EstatesServiceConfig {
  const { env: e, config } = parseServiceEnv(Env, env);
  return { ...config, publicUrl: publicUrlOf(e) };
}
