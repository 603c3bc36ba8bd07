import type { Logger } from 'pino';
import type { Bus } from '@renopath/platform';
import { openContextStorage } from '@renopath/platform/service/adapters.ts';
import { startRelay } from '@renopath/platform/service/relay.ts';
import { Settlement } from '@renopath/platform/service/settlement.ts';
import type { RenovationsServiceConfig } from './config.ts';
import { startRenovations, type RenovationsService } from './renovations.service.ts';

export const CONTEXT = 'renovations';

/** Opens the renovations context's storage, its relay (`evt.renovations.<EventType>`), its reactors and its bus handlers. */
export async function startRenovationsContext(config: RenovationsServiceConfig, bus: Bus, log: Logger) {
  const storage = await openContextStorage(config.platform, CONTEXT);
  const settlement = new Settlement({ context: CONTEXT, bus, eventStore: storage.eventStore, log });
  const relay = startRelay({
    context: CONTEXT, eventStore: storage.eventStore, checkpoints: storage.checkpoints, bus, log, onPublished: settlement.onPublished,
  });
  settlement.attach(relay);
  const service: RenovationsService = await startRenovations({
    bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    log,
    settlement,
    config: { settleTimeoutMs: config.settleTimeoutMs },
  });
  const settling = await settlement.serve();
  return {
    service,
    storage,
    relay,
    async close() {
      await settling.close();
      await service.close();
      await relay.close();
      await storage.close();
    },
  };
}
