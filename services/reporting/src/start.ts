import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { openBlobStore, openContextStorage } from '@renopath/platform/service/adapters.ts';
import { startRelay } from '@renopath/platform/service/relay.ts';
import { Settlement } from '@renopath/platform/service/settlement.ts';
import type { ReportingServiceConfig } from './config.ts';
import { startReporting, type ReportingService } from './reporting.service.ts';

export const CONTEXT = 'reporting';
/**
 * The blob store estates keeps media in and the gateway serves signed links from (estates'
 * `UPLOADS_BLOB_STORE`): reports are written there so their links work like estate files.
 */
export const REPORTS_BLOB_STORE = 'blobs';

/**
 * Opens the reporting context's storage, its relay (`evt.reporting.<EventType>`), its reactors and
 * its bus handlers. `blobs` is passed in when the process already holds the shared blob store (embedded).
 */
export async function startReportingContext(config: ReportingServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  const storage = await openContextStorage(config.platform, CONTEXT);
  const ownBlobs = blobs ? null : await openBlobStore(config.platform, REPORTS_BLOB_STORE);
  const settlement = new Settlement({ context: CONTEXT, bus, eventStore: storage.eventStore, log });
  const relay = startRelay({
    context: CONTEXT, eventStore: storage.eventStore, checkpoints: storage.checkpoints, bus, log, onPublished: settlement.onPublished,
  });
  settlement.attach(relay);
  const service: ReportingService = await startReporting({
    bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    blobs: blobs ?? ownBlobs!,
    log,
    settlement,
    config: { settleTimeoutMs: config.settleTimeoutMs, busTimeoutMs: config.busTimeoutMs },
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
      await ownBlobs?.close();
      await storage.close();
    },
  };
}
