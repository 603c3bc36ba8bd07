import type { Logger } from 'pino';
import type { Bus, Closeable } from '../ports/bus.ts';
import { openContextStorage, type ContextStorage, type PlatformConfig } from './adapters.ts';
import { startRelay, type Relay } from './relay.ts';
import { Settlement } from './settlement.ts';

/** What every context runs on besides its own handlers: its stores, its relay to the bus, and read-your-writes settlement. */
export interface ContextRuntime {
  storage: ContextStorage;
  settlement: Settlement;
  relay: Relay;
  /** Starts answering `qry.<context>.settle` (once the context's reactors are declared). */
  serve(): Promise<void>;
  /** Stops answering settle, closes `parts` in order (the service, then what it used), then the relay and the stores. */
  close(...parts: Array<Closeable | null | undefined>): Promise<void>;
}

/**
 * Opens a context's storage, its relay (`evt.<context>.<EventType>`) and its settlement, wired to
 * each other the same way for every context; the context's start code adds only its own parts.
 */
export async function openContextRuntime(options: { platform: PlatformConfig; context: string; bus: Bus; log: Logger }): Promise<ContextRuntime> {
  const { context, bus, log } = options;
  const storage = await openContextStorage(options.platform, context);
  const settlement = new Settlement({ context, bus, eventStore: storage.eventStore, log });
  const relay = startRelay({ context, eventStore: storage.eventStore, checkpoints: storage.checkpoints, bus, log, onPublished: settlement.onPublished });
  settlement.attach(relay);
  let settling: Closeable | null = null;
  return {
    storage,
    settlement,
    relay,
    async serve() {
      settling ??= await settlement.serve();
    },
    async close(...parts) {
      await settling?.close();
      for (const part of parts) await part?.close();
      await relay.close();
      await storage.close();
    },
  };
}
