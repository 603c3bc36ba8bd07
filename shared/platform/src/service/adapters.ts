import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Bus } from '../ports/bus.ts';
import { isEngineUnavailable } from '../ports/engine.ts';
import type { CheckpointStore, EventStore } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { openFsBlobStore } from '../fs/fs-blob-store.ts';
import { createMemoryBus } from '../memory/memory-bus.ts';
import { connectNatsBus } from '../nats/nats-bus.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { contextSchema } from '../postgres/postgres-connection.ts';
import { openPostgresEventStore } from '../postgres/postgres-event-store.ts';
import { openPostgresReadStore } from '../postgres/postgres-read-store.ts';
import { instrumentEventStore, observedBus } from '../observability/instrument.ts';
import { logContext } from '../observability/tracing.ts';
import {
  EVENT_STORE_CHOICES,
  isEsdbUrl,
  isEventStoreChoice,
  isMongoUrl,
  isPostgresUrl,
  isReadStoreChoice,
  READ_STORE_CHOICES,
  type PlatformConfig,
} from './platform-env.ts';

// The settings live in platform-env.ts, which loads no adapter: start-up checks them all before importing these.
export { PlatformEnv, platformConfig, type PlatformConfig } from './platform-env.ts';

/** Every line says which trace and request it was written for, when it was written inside one (logContext). */
export const createLogger = (level: PlatformConfig['logLevel'], name: string): Logger => pino({ level, name, mixin: logContext });

/** The storage of one bounded context: its event store, checkpoints and read store. */
export interface ContextStorage {
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  readStore: ReadStore;
  close(): Promise<void>;
}

function contextDir(config: PlatformConfig, context: string) {
  const dir = join(config.dataDir, context);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * `sqlite` (the default): files under the data dir. `postgres://user@host:port/db`: the shared
 * server, in the context's own schema `renopath_<context>` (event store and read store may share it:
 * their tables do not meet). `esdb://` or `kurrentdb://host:2113?tls=false`: EventStoreDB (KurrentDB),
 * the context's streams under the namespace `renopath_<context>`. `mongodb://host:port/db`: MongoDB
 * read models, collections prefixed `renopath_<context>`. Each store is chosen on its own. The
 * EventStoreDB and MongoDB clients are loaded only when chosen (they take 0.1 to 1.5 s to load).
 */
export async function openContextStorage(config: PlatformConfig, context: string): Promise<ContextStorage> {
  if (!isEventStoreChoice(config.eventStore)) {
    throw new Error(`RENOPATH_EVENT_STORE=${config.eventStore}: expected ${EVENT_STORE_CHOICES}`);
  }
  if (!isReadStoreChoice(config.readStore)) {
    throw new Error(`RENOPATH_READ_STORE=${config.readStore}: expected ${READ_STORE_CHOICES}`);
  }
  const schema = contextSchema(context);
  const opened: EventStore & { checkpoints: CheckpointStore } = isPostgresUrl(config.eventStore)
    ? await openPostgresEventStore({ connectionString: config.eventStore, schema, maxConnections: config.postgresPoolSize ?? 10 })
    : isEsdbUrl(config.eventStore)
      ? await (await import('../esdb/esdb-event-store.ts')).openEsdbEventStore({ connectionString: config.eventStore, namespace: schema })
      : openSqliteEventStore({ file: join(contextDir(config, context), 'events.db'), synchronous: config.sqliteSynchronous });
  const eventStore = instrumentEventStore(opened, context);
  let readStore: ReadStore;
  try {
    readStore = isPostgresUrl(config.readStore)
      ? await openPostgresReadStore({ connectionString: config.readStore, schema, maxConnections: config.postgresPoolSize ?? 10 })
      : isMongoUrl(config.readStore)
        ? await (await import('../mongo/mongo-read-store.ts')).openMongoReadStore({ url: config.readStore, prefix: schema })
        : // Always NORMAL: every read model is derived from the event store and commits with its
          // checkpoint, so a power loss can only take both back to an earlier consistent point, from
          // which the log (durable at RENOPATH_SQLITE_SYNCHRONOUS) replays it; consumer checkpoints
          // only make their idempotent consumers see events again. An fsync per projection batch
          // bought nothing but latency.
          openSqliteReadStore({ file: join(contextDir(config, context), 'read.db'), synchronous: 'NORMAL' });
  } catch (error) {
    await eventStore.close();
    throw error;
  }
  return {
    eventStore,
    checkpoints: eventStore.checkpoints,
    readStore,
    async close() {
      await readStore.close();
      await eventStore.close();
    },
  };
}

/**
 * The one blob store the gateway (uploads, downloads), estates (files, media) and reporting (PDFs)
 * share, so a key one writes the others read. `fs`: files under `<data dir>/blobs/blobs` (processes
 * that share blobs share that folder: a volume). `gridfs`: the GridFS bucket `renopath_blobs` on
 * RENOPATH_MONGO_URL (or the mongodb:// read store).
 */
export async function openBlobStore(config: PlatformConfig): Promise<BlobStore> {
  const context = 'blobs';
  if (config.blobStore === 'fs') return openFsBlobStore({ root: join(contextDir(config, context), 'blobs') });
  if (config.blobStore === 'gridfs') {
    const url = config.mongoUrl ?? (isMongoUrl(config.readStore) ? config.readStore : undefined);
    if (!url)
      throw new Error(
        'RENOPATH_BLOB_STORE=gridfs needs RENOPATH_MONGO_URL=mongodb://host:port/database (or RENOPATH_READ_STORE=mongodb://…)',
      );
    return (await import('../mongo/gridfs-blob-store.ts')).openGridFsBlobStore({ url, bucketName: contextSchema(context) });
  }
  throw new Error(`RENOPATH_BLOB_STORE=${config.blobStore}: expected "fs" or "gridfs"`);
}

/** `memory` only makes sense inside one process (embedded), which passes its shared bus instead. */
/** With `log`, a handler's failure that is not a DomainError is logged (a store out: warn; else error). */
export async function openBus(config: PlatformConfig, name: string, log?: Logger): Promise<Bus> {
  if (config.bus === 'memory') return observedBus(createMemoryBus());
  if (/^nats:\/\//.test(config.bus)) {
    return observedBus(
      await connectNatsBus({
        servers: config.bus,
        name,
        ...(log
          ? {
              onHandlerError: (err: unknown, subject: string) =>
                isEngineUnavailable(err)
                  ? log.warn({ err, subject }, 'request failed: a store is unavailable')
                  : log.error({ err, subject }, 'request handler failed'),
            }
          : {}),
        streamName: config.nats.stream,
        ...(config.nats.prefix ? { subjectPrefix: config.nats.prefix } : {}),
      }),
    );
  }
  throw new Error(`RENOPATH_BUS=${config.bus}: expected "memory" or nats://host:port`);
}
