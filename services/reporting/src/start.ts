import type { Logger } from 'pino';
import type { BlobStore, Bus } from '@renopath/platform';
import { startContextService } from '@renopath/platform/service/context-runtime.ts';
import type { ReportingServiceConfig } from './config.ts';
import { startReporting } from './reporting.service.ts';

export const CONTEXT = 'reporting';

/**
 * Opens the reporting context's storage, its relay (`evt.reporting.<EventType>`), its reactors and
 * its bus handlers. Reports go to the blob store estates keeps media in, so their links work like estate
 * files; `blobs` is passed in when the process already holds it (embedded).
 */
export function startReportingContext(config: ReportingServiceConfig, bus: Bus, log: Logger, blobs?: BlobStore) {
  const { settleTimeoutMs, busTimeoutMs, publicUrl } = config;
  return startContextService({ platform: config.platform, context: CONTEXT, bus, log, blobs: blobs ?? 'open' }, (parts) =>
    startReporting({ ...parts, blobs: parts.blobs!, config: { settleTimeoutMs, busTimeoutMs, publicUrl } }),
  );
}
