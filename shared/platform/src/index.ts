export * from './ports/event-store.ts';
export * from './ports/read-store.ts';
export * from './ports/bus.ts';
export * from './ports/engine.ts';
export * from './ports/blob-store.ts';

export {
  openSqliteEventStore,
  openSqliteCheckpointStore,
  SqliteEventStore,
  SqliteCheckpointStore,
  type SqliteEventStoreOptions,
} from './sqlite/event-store/sqlite-event-store.ts';
export { openSqliteReadStore, SqliteReadStore, type SqliteReadStoreOptions } from './sqlite/sqlite-read-store.ts';
export {
  openPostgresEventStore,
  openPostgresCheckpointStore,
  PostgresEventStore,
  PostgresCheckpointStore,
  type PostgresEventStoreOptions,
} from './postgres/postgres-event-store.ts';
export { openEsdbEventStore, EsdbEventStore, EsdbCheckpointStore, type EsdbEventStoreOptions } from './esdb/esdb-event-store.ts';
export { openPostgresReadStore, PostgresReadStore, type PostgresReadStoreOptions } from './postgres/postgres-read-store.ts';
// The MongoDB adapters load the driver (about 0.1 s) at import: `service/adapters.ts` imports them only when a mongodb:// store is chosen.
export type { MongoReadStore, MongoReadStoreOptions, MongoCommitMode } from './mongo/mongo-read-store.ts';
export type { GridFsBlobStore, GridFsBlobStoreOptions } from './mongo/gridfs-blob-store.ts';
export { createMemoryBus, MemoryBus, type MemoryBusOptions } from './memory/memory-bus.ts';
export { connectNatsBus, NatsBus, type NatsBusOptions } from './nats/nats-bus.ts';
export { openFsBlobStore, FsBlobStore, type FsBlobStoreOptions } from './fs/fs-blob-store.ts';
export { runProjection, ProjectionTimeoutError, type Projection, type ProjectionOptions } from './projection-runner.ts';
export { takeHead, type StreamHead } from './stream-head.ts';
