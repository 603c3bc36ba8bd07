import { parseServiceEnv, ServiceEnv, type ServiceConfig } from '@renopath/platform/service/platform-env.ts';

/** The renovations service's configuration, parsed once at start-up (house style: one config module per service): the settings every service has, none of its own. */
export type RenovationsServiceConfig = ServiceConfig;

export function loadRenovationsConfig(env: NodeJS.ProcessEnv = process.env): RenovationsServiceConfig {
  return parseServiceEnv(ServiceEnv, env).config;
}
