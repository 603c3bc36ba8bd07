import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { openBlobStore } from '@renopath/platform/service/adapters.ts';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
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
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage, settlement, relay } = runtime;
  const ownBlobs = blobs ? null : await openBlobStore(config.platform, UPLOADS_BLOB_STORE);
  const service: EstatesService = await startEstates({
    bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    blobs: blobs ?? ownBlobs!,
    log,
    settlement,
    config: { publicUrl: config.publicUrl, settleTimeoutMs: config.settleTimeoutMs },
  });
  await runtime.serve();
  return {
    service,
    storage,
    relay,
    close: () => runtime.close(service, ownBlobs),
  };
}
