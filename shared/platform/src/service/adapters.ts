import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Bus } from '../ports/bus.ts';
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
  /** JetStream stream and subject namespace: lets deployments (and test runs) share one NATS server. */
  RENOPATH_NATS_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/).default('RENOPATH_EVENTS'),
  RENOPATH_NATS_PREFIX: z.string().regex(/^[A-Za-z0-9_-]*$/).default(''),
  /** SQLite commit durability: FULL (survives power loss) or NORMAL (survives process crashes; no fsync per commit). */
  RENOPATH_SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type PlatformEnv = z.infer<typeof PlatformEnv>;

export interface PlatformConfig {
  dataDir: string;
  eventStore: string;
  readStore: string;
  bus: string;
  blobStore: string;
  nats: { stream: string; prefix: string };
  sqliteSynchronous: 'FULL' | 'NORMAL';
  logLevel: PlatformEnv['LOG_LEVEL'];
}

export const platformConfig = (e: PlatformEnv): PlatformConfig => ({
  dataDir: e.RENOPATH_DATA_DIR,
  eventStore: e.RENOPATH_EVENT_STORE,
  readStore: e.RENOPATH_READ_STORE,
  bus: e.RENOPATH_BUS,
  blobStore: e.RENOPATH_BLOB_STORE,
  nats: { stream: e.RENOPATH_NATS_STREAM, prefix: e.RENOPATH_NATS_PREFIX },
  sqliteSynchronous: e.RENOPATH_SQLITE_SYNCHRONOUS,
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

/**
 * `sqlite` (the default): files under the data dir. `postgres://user@host:port/db`: the shared
 * server, in the context's own schema `renopath_<context>` (event store and read store may share it:
 * their tables do not meet). Each store is chosen on its own.
 */
export async function openContextStorage(config: PlatformConfig, context: string): Promise<ContextStorage> {
  if (config.eventStore !== 'sqlite' && !isPostgresUrl(config.eventStore)) {
    throw new Error(`RENOPATH_EVENT_STORE=${config.eventStore}: expected "sqlite" or postgres://user@host:port/database (EventStoreDB arrives with its own adapter)`);
  }
  if (config.readStore !== 'sqlite' && !isPostgresUrl(config.readStore)) {
    throw new Error(`RENOPATH_READ_STORE=${config.readStore}: expected "sqlite" or postgres://user@host:port/database (MongoDB arrives with its own adapter)`);
  }
  const schema = contextSchema(context);
  const eventStore = isPostgresUrl(config.eventStore)
    ? await openPostgresEventStore({ connectionString: config.eventStore, schema })
    : openSqliteEventStore({ file: join(contextDir(config, context), 'events.db'), synchronous: config.sqliteSynchronous });
  let readStore: ReadStore;
  try {
    readStore = isPostgresUrl(config.readStore)
      ? await openPostgresReadStore({ connectionString: config.readStore, schema })
      : openSqliteReadStore({ file: join(contextDir(config, context), 'read.db'), synchronous: config.sqliteSynchronous });
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

export async function openBlobStore(config: PlatformConfig, context: string): Promise<BlobStore> {
  if (config.blobStore !== 'fs') throw new Error(`RENOPATH_BLOB_STORE=${config.blobStore}: only "fs" is available in this build`);
  return openFsBlobStore({ root: join(contextDir(config, context), 'blobs') });
}

/** `memory` only makes sense inside one process (embedded), which passes its shared bus instead. */
export async function openBus(config: PlatformConfig, name: string): Promise<Bus> {
  if (config.bus === 'memory') return createMemoryBus();
  if (/^nats:\/\//.test(config.bus)) {
    return connectNatsBus({
      servers: config.bus,
      name,
      streamName: config.nats.stream,
      ...(config.nats.prefix ? { subjectPrefix: config.nats.prefix } : {}),
    });
  }
  throw new Error(`RENOPATH_BUS=${config.bus}: expected "memory" or nats://host:port`);
}
