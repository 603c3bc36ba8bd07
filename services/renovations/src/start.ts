import type { Logger } from 'pino';
import type { Bus } from '@renopath/platform';
import { startContextService } from '@renopath/platform/service/context-runtime.ts';
import type { RenovationsServiceConfig } from './config.ts';
import { startRenovations } from './renovations.service.ts';

export const CONTEXT = 'renovations';

/** Opens the renovations context's storage, its relay (`evt.renovations.<EventType>`), its reactors and its bus handlers. */
export function startRenovationsContext(config: RenovationsServiceConfig, bus: Bus, log: Logger) {
  return startContextService({ platform: config.platform, context: CONTEXT, bus, log }, (parts) =>
    startRenovations({ ...parts, config: { settleTimeoutMs: config.settleTimeoutMs } }),
  );
}
