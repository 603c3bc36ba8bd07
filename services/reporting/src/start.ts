import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { openBlobStore } from '@renopath/platform/service/adapters.ts';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
import type { ReportingServiceConfig } from './config.ts';
import { startReporting, type ReportingService } from './reporting.service.ts';

export const CONTEXT = 'reporting';

/**
 * Opens the reporting context's storage, its relay (`evt.reporting.<EventType>`), its reactors and
 * its bus handlers. Reports go to the blob store estates keeps media in, so their links work like estate
 * files; `blobs` is passed in when the process already holds it (embedded).
 */
export async function startReportingContext(config: ReportingServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage, settlement, relay } = runtime;
  const ownBlobs = blobs ? null : await openBlobStore(config.platform);
  const service: ReportingService = await startReporting({
    // Its reactors run only on the replica that holds the context's lease.
    bus: runtime.bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    blobs: blobs ?? ownBlobs!,
    log,
    settlement,
    config: { settleTimeoutMs: config.settleTimeoutMs, busTimeoutMs: config.busTimeoutMs, publicUrl: config.publicUrl },
  });
  await runtime.serve();
  return {
    service,
    storage,
    relay,
    close: () => runtime.close(service, ownBlobs),
  };
}
