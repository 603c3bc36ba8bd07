import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { startContextService } from '@renopath/platform/service/context-runtime.ts';
import type { EstatesServiceConfig } from './config.ts';
import { startEstates } from './estates.service.ts';

export const CONTEXT = 'estates';

/**
 * Opens the estates context's storage, its relay (`evt.estates.<EventType>`) and its bus handlers.
 * `blobs` is passed in when the process already holds the shared blob store (embedded mode).
 */
export function startEstatesContext(config: EstatesServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  return startContextService({ platform: config.platform, context: CONTEXT, bus, log, blobs: blobs ?? 'open' }, (parts) =>
    startEstates({ ...parts, blobs: parts.blobs!, config: { publicUrl: config.publicUrl, settleTimeoutMs: config.settleTimeoutMs } }),
  );
}
