import type { Logger } from 'pino';
import type { Bus } from '@renopath/platform';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
import type { RenovationsServiceConfig } from './config.ts';
import { startRenovations, type RenovationsService } from './renovations.service.ts';

export const CONTEXT = 'renovations';

/** Opens the renovations context's storage, its relay (`evt.renovations.<EventType>`), its reactors and its bus handlers. */
export async function startRenovationsContext(config: RenovationsServiceConfig, bus: Bus, log: Logger) {
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage, settlement, relay } = runtime;
  const service: RenovationsService = await startRenovations({
    // Its reactors run only on the replica that holds the context's lease.
    bus: runtime.bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    log,
    settlement,
    config: { settleTimeoutMs: config.settleTimeoutMs },
  });
  await runtime.serve();
  return {
    service,
    storage,
    relay,
    close: () => runtime.close(service),
  };
}
