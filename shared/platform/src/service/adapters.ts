import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Bus } from '../ports/bus.ts';
import { isEngineUnavailable } from '../ports/engine.ts';
import type { CheckpointStore, EventStore } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { openFsBlobStore } from '../fs/fs-blob-store.ts';
import { createMemoryBus } from '../memory/memory-bus.ts';
import { connectNatsBus } from '../nats/nats-bus.ts';
import { openSqliteEventStore } from '../sqlite/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { contextSchema } from '../postgres/postgres-connection.ts';
import { openPostgresEventStore } from '../postgres/postgres-event-store.ts';
import { openPostgresReadStore } from '../postgres/postgres-read-store.ts';

/** The adapter choice every service shares (API.md 7); parsed by each service's config module. */
export const PlatformEnv = z.object({
  RENOPATH_DATA_DIR: z.string().min(1).default('./data'),
  RENOPATH_EVENT_STORE: z.string().default('sqlite'),
  RENOPATH_READ_STORE: z.string().default('sqlite'),
  RENOPATH_BUS: z.string().default('memory'),
  RENOPATH_BLOB_STORE: z.string().default('fs'),
  /** The MongoDB server of `RENOPATH_BLOB_STORE=gridfs` (default: RENOPATH_READ_STORE when that is a mongodb:// URL). */
  RENOPATH_MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'expected mongodb://host:port/database').optional(),
  /** JetStream stream and subject namespace: lets deployments (and test runs) share one NATS server. */
  RENOPATH_NATS_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/).default('RENOPATH_EVENTS'),
  RENOPATH_NATS_PREFIX: z.string().regex(/^[A-Za-z0-9_-]*$/).default(''),
  /** Connections each PostgreSQL store of a process may open (event store and read store each): replicas x contexts x 2 x this must fit the server's max_connections. */
  RENOPATH_POSTGRES_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** SQLite commit durability: FULL (survives power loss) or NORMAL (survives process crashes; no fsync per commit). */
  RENOPATH_SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** Replicas over shared PostgreSQL stores: how often one that does not run the background work tries to take it over (ms). */
  RENOPATH_LEASE_RETRY_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Replicas over EventStoreDB/MongoDB stores (leases on NATS): how long a dead holder's lease outlives it (ms). */
  RENOPATH_LEASE_TTL_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type PlatformEnv = z.infer<typeof PlatformEnv>;

export interface PlatformConfig {
  dataDir: string;
  eventStore: string;
  readStore: string;
  bus: string;
  blobStore: string;
  /** RENOPATH_MONGO_URL: where GridFS keeps blobs. */
  mongoUrl?: string;
  nats: { stream: string; prefix: string };
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** RENOPATH_POSTGRES_POOL_SIZE (default 10). */
  postgresPoolSize?: number;
  /** RENOPATH_LEASE_RETRY_MS (default 1000). */
  leaseRetryMs?: number;
  /** RENOPATH_LEASE_TTL_MS (default 10000). */
  leaseTtlMs?: number;
  logLevel: PlatformEnv['LOG_LEVEL'];
}

export const platformConfig = (e: PlatformEnv): PlatformConfig => ({
  dataDir: e.RENOPATH_DATA_DIR,
  eventStore: e.RENOPATH_EVENT_STORE,
  readStore: e.RENOPATH_READ_STORE,
  bus: e.RENOPATH_BUS,
  blobStore: e.RENOPATH_BLOB_STORE,
  ...(e.RENOPATH_MONGO_URL ? { mongoUrl: e.RENOPATH_MONGO_URL } : {}),
  nats: { stream: e.RENOPATH_NATS_STREAM, prefix: e.RENOPATH_NATS_PREFIX },
  sqliteSynchronous: e.RENOPATH_SQLITE_SYNCHRONOUS,
  postgresPoolSize: e.RENOPATH_POSTGRES_POOL_SIZE,
  leaseRetryMs: e.RENOPATH_LEASE_RETRY_MS,
  leaseTtlMs: e.RENOPATH_LEASE_TTL_MS,
  logLevel: e.LOG_LEVEL,
});

export const createLogger = (level: PlatformConfig['logLevel'], name: string): Logger => pino({ level, name });

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

const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value);
const isEsdbUrl = (value: string) => /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i.test(value);
const isMongoUrl = (value: string) => /^mongodb(\+srv)?:\/\//.test(value);

/**
 * `sqlite` (the default): files under the data dir. `postgres://user@host:port/db`: the shared
 * server, in the context's own schema `renopath_<context>` (event store and read store may share it:
 * their tables do not meet). `esdb://` or `kurrentdb://host:2113?tls=false`: EventStoreDB (KurrentDB),
 * the context's streams under the namespace `renopath_<context>`. `mongodb://host:port/db`: MongoDB
 * read models, collections prefixed `renopath_<context>`. Each store is chosen on its own. The
 * EventStoreDB and MongoDB clients are loaded only when chosen (they take 0.1 to 1.5 s to load).
 */
export async function openContextStorage(config: PlatformConfig, context: string): Promise<ContextStorage> {
  if (config.eventStore !== 'sqlite' && !isPostgresUrl(config.eventStore) && !isEsdbUrl(config.eventStore)) {
    throw new Error(`RENOPATH_EVENT_STORE=${config.eventStore}: expected "sqlite", postgres://user@host:port/database or kurrentdb://host:2113?tls=false (also esdb://)`);
  }
  if (config.readStore !== 'sqlite' && !isPostgresUrl(config.readStore) && !isMongoUrl(config.readStore)) {
    throw new Error(`RENOPATH_READ_STORE=${config.readStore}: expected "sqlite", postgres://user@host:port/database or mongodb://host:port/database`);
  }
  const schema = contextSchema(context);
  const eventStore: EventStore & { checkpoints: CheckpointStore } = isPostgresUrl(config.eventStore)
    ? await openPostgresEventStore({ connectionString: config.eventStore, schema, maxConnections: config.postgresPoolSize ?? 10 })
    : isEsdbUrl(config.eventStore)
      ? await (await import('../esdb/esdb-event-store.ts')).openEsdbEventStore({ connectionString: config.eventStore, namespace: schema })
      : openSqliteEventStore({ file: join(contextDir(config, context), 'events.db'), synchronous: config.sqliteSynchronous });
  let readStore: ReadStore;
  try {
    readStore = isPostgresUrl(config.readStore)
      ? await openPostgresReadStore({ connectionString: config.readStore, schema, maxConnections: config.postgresPoolSize ?? 10 })
      : isMongoUrl(config.readStore)
        ? await (await import('../mongo/mongo-read-store.ts')).openMongoReadStore({ url: config.readStore, prefix: schema })
        // Always NORMAL: every read model is derived from the event store and commits with its
        // checkpoint, so a power loss can only take both back to an earlier consistent point, from
        // which the log (durable at RENOPATH_SQLITE_SYNCHRONOUS) replays it; consumer checkpoints
        // only make their idempotent consumers see events again. An fsync per projection batch
        // bought nothing but latency.
        : openSqliteReadStore({ file: join(contextDir(config, context), 'read.db'), synchronous: 'NORMAL' });
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
    if (!url) throw new Error('RENOPATH_BLOB_STORE=gridfs needs RENOPATH_MONGO_URL=mongodb://host:port/database (or RENOPATH_READ_STORE=mongodb://…)');
    return (await import('../mongo/gridfs-blob-store.ts')).openGridFsBlobStore({ url, bucketName: contextSchema(context) });
  }
  throw new Error(`RENOPATH_BLOB_STORE=${config.blobStore}: expected "fs" or "gridfs"`);
}

/** `memory` only makes sense inside one process (embedded), which passes its shared bus instead. */
/** With `log`, a handler's failure that is not a DomainError is logged (a store out: warn; else error). */
export async function openBus(config: PlatformConfig, name: string, log?: Logger): Promise<Bus> {
  if (config.bus === 'memory') return createMemoryBus();
  if (/^nats:\/\//.test(config.bus)) {
    return connectNatsBus({
      servers: config.bus,
      name,
      ...(log
        ? {
          onHandlerError: (err: unknown, subject: string) =>
            isEngineUnavailable(err) ? log.warn({ err, subject }, 'request failed: a store is unavailable') : log.error({ err, subject }, 'request handler failed'),
        }
        : {}),
      streamName: config.nats.stream,
      ...(config.nats.prefix ? { subjectPrefix: config.nats.prefix } : {}),
    });
  }
  throw new Error(`RENOPATH_BUS=${config.bus}: expected "memory" or nats://host:port`);
}
