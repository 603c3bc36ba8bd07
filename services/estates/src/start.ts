import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { openBlobStore, openContextStorage } from '@renopath/platform/service/adapters.ts';
import { startRelay } from '@renopath/platform/service/relay.ts';
import { Settlement } from '@renopath/platform/service/settlement.ts';
import type { EstatesServiceConfig } from './config.ts';
import { startEstates, type EstatesService } from './estates.service.ts';

export const CONTEXT = 'estates';
/** The blob store uploads live in; the gateway opens the same one (embedded: one folder under the data dir). */
export const UPLOADS_BLOB_STORE = 'blobs';

/**
 * Opens the estates context's storage, its relay (`evt.estates.<EventType>`) and its bus handlers.
 * `blobs` is passed in when the process already holds the shared blob store (embedded mode).
 */
export async function startEstatesContext(config: EstatesServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  const storage = await openContextStorage(config.platform, CONTEXT);
  const ownBlobs = blobs ? null : await openBlobStore(config.platform, UPLOADS_BLOB_STORE);
  const settlement = new Settlement({ context: CONTEXT, bus, eventStore: storage.eventStore, log });
  const relay = startRelay({
    context: CONTEXT, eventStore: storage.eventStore, checkpoints: storage.checkpoints, bus, log, onPublished: settlement.onPublished,
  });
  settlement.attach(relay);
  const service: EstatesService = await startEstates({
    bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    blobs: blobs ?? ownBlobs!,
    log,
    settlement,
    config: { publicUrl: config.publicUrl, settleTimeoutMs: config.settleTimeoutMs },
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
