import type { Logger } from 'pino';
import type { Bus, Closeable } from '../ports/bus.ts';
import { openContextStorage, type ContextStorage, type PlatformConfig } from './adapters.ts';
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
