import { pino } from 'pino';
import { createMemoryBus, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import { startEstates } from '../estates.service.ts';

/**
 * The estates service on in-memory stores and bus, for tests that talk to its handlers. Its closers
 * (service first, then the stores and the bus) go into `closers`, which the test runs in reverse.
 */
export async function startEstatesInMemory(closers: Array<() => Promise<void>>) {
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const readStore = openSqliteReadStore({ file: ':memory:' });
  const bus = createMemoryBus();
  closers.push(
    () => eventStore.close(),
    () => readStore.close(),
    () => bus.close(),
  );
  // No test here stores file bytes.
  const blobs = {
    put: async () => {
      throw new Error('unused');
    },
    get: async () => null,
    head: async () => null,
    delete: async () => {},
    close: async () => {},
  };
  const service = await startEstates({
    bus,
    eventStore,
    readStore,
    blobs,
    log: pino({ level: 'silent' }),
    config: { publicUrl: 'http://x', settleTimeoutMs: 5000 },
  });
  closers.push(() => service.close());
  return { bus, eventStore, readStore, service };
}
