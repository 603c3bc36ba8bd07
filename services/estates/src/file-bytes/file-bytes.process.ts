import type { Logger } from 'pino';
import type { BlobStore, EventStore, ReadStore } from '@renopath/platform';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { EstateEvents } from '@renopath/contracts';

/** Checkpoint name: it must not change, or the process would start again from the beginning of the log. */
export const FILE_BYTES_PROCESS = 'estates-file-bytes';

/**
 * The bytes go with the file (a removed file's download links answer 404), and with every file of a
 * deleted estate (the deletion cascade: `DeleteEstate` records a `EstateFileRemoved` per file before
 * `EstateDeleted`). Driven by the stored events, so a crash between the removal and the deletion of the
 * bytes is finished on restart. Idempotent: deleting a missing key is not an error.
 */
export function startFileBytesProcess(options: {
  eventStore: EventStore;
  readStore: ReadStore;
  blobs: BlobStore;
  log: Logger;
}): ProcessManager {
  const { eventStore, readStore, blobs, log } = options;
  return runProcessManager({
    name: FILE_BYTES_PROCESS,
    eventStore,
    readStore,
    eventTypes: ['EstateFileRemoved'],
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'file bytes process failed; retrying'),
    async handle(event) {
      const { blob_key } = EstateEvents.EstateFileRemoved.parse(event.data);
      await blobs.delete(blob_key);
    },
  });
}
