import { pino } from 'pino';
import { createMemoryBus, openSqliteEventStore, openSqliteReadStore, type ReadStore } from '@renopath/platform';
import { startEstates } from '../estates.service.ts';

/** A blob store for tests that store no file bytes: reads find nothing, a write is a mistake. */
export const unusedBlobs = {
  put: async () => {
    throw new Error('unused');
  },
  putStream: async () => {
    throw new Error('unused');
  },
  get: async () => null,
  getStream: async () => null,
  head: async () => null,
  delete: async () => {},
  close: async () => {},
};

/**
 * The estates service on in-memory stores and bus, for tests that talk to its handlers. Its closers
 * (service first, then the stores and the bus) go into `closers`, which the test runs in reverse.
 * `readStore` wraps the read store the service is given (a slow one, say); `settleTimeoutMs` bounds
 * its read-your-writes wait.
 */
export async function startEstatesInMemory(
  closers: Array<() => Promise<void>>,
  options: { readStore?: (store: ReadStore) => ReadStore; settleTimeoutMs?: number } = {},
) {
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const store = openSqliteReadStore({ file: ':memory:' });
  const readStore = options.readStore?.(store) ?? store;
  const bus = createMemoryBus();
  closers.push(
    () => eventStore.close(),
    () => store.close(),
    () => bus.close(),
  );
  const service = await startEstates({
    bus,
    eventStore,
    readStore,
    blobs: unusedBlobs,
    log: pino({ level: 'silent' }),
    config: { publicUrl: 'http://x', settleTimeoutMs: options.settleTimeoutMs ?? 5000 },
  });
  closers.push(() => service.close());
  return { bus, eventStore, readStore, service };
}
