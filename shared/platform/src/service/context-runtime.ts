import type { Logger } from 'pino';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Bus, Closeable } from '../ports/bus.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { openBlobStore, openContextStorage, type ContextStorage, type PlatformConfig } from './adapters.ts';
import { attachLeadership, detachLeadership, leaderBus, type Leadership } from './context-lease.ts';
import { openContextLeadership } from './context-lease-store.ts';
import { startRelay, type Relay } from './relay.ts';
import { Settlement } from './settlement.ts';
import { reactorLagBus } from '../observability/instrument.ts';

/** What every context runs on besides its own handlers: its stores, its relay to the bus, and read-your-writes settlement. */
export interface ContextRuntime {
  storage: ContextStorage;
  settlement: Settlement;
  relay: Relay;
  /**
   * Which replica runs the context's background work (replicas over shared stores); a
   * process over its own stores always leads. Projections and process managers on `storage.readStore`
   * follow it without being told.
   */
  leadership: Leadership;
  /**
   * The bus for the context's own code: its durable consumers (reactors) run only on the replica
   * that leads; requests, handlers and transient listeners as on `bus`.
   */
  bus: Bus;
  /** Starts answering `qry.<context>.settle` (once the context's reactors are declared), while this replica leads. */
  serve(): Promise<void>;
  /** Stops answering settle, closes `parts` in order (the service, then what it used), then the relay, the lease and the stores. */
  close(...parts: Array<Closeable | null | undefined>): Promise<void>;
}

/**
 * Opens a context's storage, its relay (`evt.<context>.<EventType>`) and its settlement, wired to
 * each other the same way for every context; the context's start code adds only its own parts.
 */
export async function openContextRuntime(options: {
  platform: PlatformConfig;
  context: string;
  bus: Bus;
  log: Logger;
}): Promise<ContextRuntime> {
  const { context, bus, log } = options;
  const storage = await openContextStorage(options.platform, context);
  let leadership: Leadership;
  try {
    leadership = await openContextLeadership(options.platform, context, log, storage.readStore);
  } catch (error) {
    await storage.close();
    throw error;
  }
  attachLeadership(storage.readStore, leadership);
  const settlement = new Settlement({ context, bus, eventStore: storage.eventStore, log });
  const relay = startRelay({
    context,
    eventStore: storage.eventStore,
    checkpoints: storage.checkpoints,
    bus,
    log,
    onPublished: settlement.onPublished,
    leadership,
  });
  settlement.attach(relay);
  let settling: Promise<Closeable> | null = null;
  return {
    storage,
    settlement,
    relay,
    leadership,
    bus: reactorLagBus(leaderBus(bus, leadership), context),
    async serve() {
      // Only the replica that leads knows how far its relay and reactors are: it alone answers settle.
      settling ??= leadership.whileLeading(`settle ${context}`, () => settlement.serve());
      await settling;
    },
    async close(...parts) {
      await (await settling?.catch(() => null))?.close();
      for (const part of parts) await part?.close();
      await relay.close();
      await leadership.close();
      detachLeadership(storage.readStore);
      await storage.close();
    },
  };
}

/** What a context's service is started with from its runtime. */
export interface ContextServiceParts {
  /** The runtime's bus: the service's reactors run only on the replica that holds the context's lease. */
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  log: Logger;
  settlement: Settlement;
  /** The blob store the options asked for, if any. */
  blobs: BlobStore | undefined;
}

/**
 * A context whose start is its service alone: its runtime opened (`openContextRuntime`), the service
 * started on it, then settle served. `blobs`: the process's blob store (embedded), `'open'` for one of
 * the context's own, closed after the service; omitted where the context keeps no files.
 */
export async function startContextService<S extends Closeable>(
  options: { platform: PlatformConfig; context: string; bus: Bus; log: Logger; blobs?: BlobStore | 'open' },
  start: (parts: ContextServiceParts) => Promise<S>,
): Promise<{ service: S; storage: ContextStorage; relay: Relay; close(): Promise<void> }> {
  const runtime = await openContextRuntime(options);
  const { storage, settlement, relay } = runtime;
  const ownBlobs = options.blobs === 'open' ? await openBlobStore(options.platform) : null;
  const blobs = ownBlobs ?? (options.blobs === 'open' ? undefined : options.blobs);
  const { eventStore, readStore } = storage;
  const service = await start({ bus: runtime.bus, eventStore, readStore, log: options.log, settlement, blobs });
  await runtime.serve();
  return { service, storage, relay, close: () => runtime.close(service, ownBlobs) };
}
