import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { openBlobStore } from '@renopath/platform/service/adapters.ts';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
import type { EstatesServiceConfig } from './config.ts';
import { startEstates, type EstatesService } from './estates.service.ts';

export const CONTEXT = 'estates';

/**
 * Opens the estates context's storage, its relay (`evt.estates.<EventType>`) and its bus handlers.
 * `blobs` is passed in when the process already holds the shared blob store (embedded mode).
 */
export async function startEstatesContext(config: EstatesServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage, settlement, relay } = runtime;
  const ownBlobs = blobs ? null : await openBlobStore(config.platform);
  const service: EstatesService = await startEstates({
    // Its reactors run only on the replica that holds the context's lease.
    bus: runtime.bus,
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
