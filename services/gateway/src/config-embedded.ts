import { loadCalculationsConfig } from '@renopath/calculations/config.ts';
import { loadEstatesConfig } from '@renopath/estates/config.ts';
import { loadIdentityConfig } from '@renopath/identity/config.ts';
import { loadRenovationsConfig } from '@renopath/renovations/config.ts';
import { loadReportingConfig } from '@renopath/reporting/config.ts';
import { loadGatewayConfig } from './config.ts';
import { contextThreadsOf } from './config-threads.ts';

/**
 * Bus settings `npm start` would have to ignore: every context runs in this one process over an
 * in-process bus. Set, they say the operator meant the distributed mode, so they are refused rather
 * than silently dropped.
 */
const DISTRIBUTED_ONLY = ['RENOPATH_BUS', 'RENOPATH_NATS_STREAM', 'RENOPATH_NATS_PREFIX'] as const;

/**
 * Embedded mode's configuration, every context's, checked before anything starts: the first problem
 * is thrown as one line naming the variable and what it accepts. This module loads only the config
 * modules (no store, bus or HTTP code), so a wrong value is reported within a second of `npm start`.
 */
export function checkEmbeddedConfig(env: NodeJS.ProcessEnv): void {
  for (const name of DISTRIBUTED_ONLY) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (name === 'RENOPATH_BUS' && value === 'memory') continue;
    throw new Error(
      `invalid configuration: ${name}=${value} is for one process per service (npm run start:<service>); npm start runs every context in one process over an in-process bus, so unset it`,
    );
  }
  loadGatewayConfig(env);
  loadIdentityConfig(env);
  loadEstatesConfig(env);
  loadRenovationsConfig(env);
  loadCalculationsConfig(env);
  loadReportingConfig(env);
  contextThreadsOf(env);
}
