import type { Logger } from 'pino';
import type { LeaseStore } from '../ports/lease.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { createMemoryLeaseStore } from '../memory/memory-lease.ts';
import { natsLeaseBucket, openNatsLeaseStore } from '../nats/nats-lease.ts';
import { contextSchema } from '../postgres/postgres-connection.ts';
import { openPostgresLeaseStore } from '../postgres/postgres-lease.ts';
import type { PlatformConfig } from './adapters.ts';
import { openLeadership, type Leadership } from './context-lease.ts';

const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value);
const isNatsUrl = (value: string) => /^nats:\/\//.test(value);

/** The default of RENOPATH_LEASE_RETRY_MS: how soon a replica takes over from a holder that died. */
export const DEFAULT_LEASE_RETRY_MS = 1000;
/** The default of RENOPATH_LEASE_TTL_MS: how long a lease on NATS outlives a holder that died. */
export const DEFAULT_LEASE_TTL_MS = 10_000;

/** Where a context's replicas compete for its lease. */
export type LeaseBackend =
  | { kind: 'postgres'; connectionString: string }
  | { kind: 'nats'; servers: string; bucket: string; ttlMs: number }
  | { kind: 'memory' };

/**
 * PostgreSQL advisory locks when a store is on PostgreSQL (the event store's server first). Else,
 * when a store is shared (EventStoreDB, MongoDB) and the bus is NATS, which every multi-process
 * deployment uses: a key-value bucket there, in the bus's namespace. Else (SQLite files, which one
 * process opens; or one process with the in-memory bus) an in-process lease.
 */
export function leaseBackend(config: PlatformConfig): LeaseBackend {
  const server = [config.eventStore, config.readStore].find(isPostgresUrl);
  if (server) return { kind: 'postgres', connectionString: server };
  const shared = config.eventStore !== 'sqlite' || config.readStore !== 'sqlite';
  if (shared && isNatsUrl(config.bus)) {
    return {
      kind: 'nats',
      servers: config.bus,
      bucket: natsLeaseBucket(config.nats.prefix),
      ttlMs: config.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    };
  }
  return { kind: 'memory' };
}

async function openLeaseStore(backend: LeaseBackend, retryMs: number, context: string): Promise<LeaseStore> {
  switch (backend.kind) {
    case 'postgres':
      return openPostgresLeaseStore({ connectionString: backend.connectionString, heartbeatMs: Math.max(100, Math.min(1000, retryMs)) });
    case 'nats':
      return openNatsLeaseStore({
        servers: backend.servers,
        bucket: backend.bucket,
        ttlMs: backend.ttlMs,
        name: `renopath-lease-${context}`,
      });
    case 'memory':
      return createMemoryLeaseStore();
  }
}

/**
 * The lease a context's replicas compete for (see `leaseBackend`), named after its schema. With a
 * shared server the read store holds the fence record.
 */
export async function openContextLeadership(
  config: PlatformConfig,
  context: string,
  log: Logger,
  readStore: ReadStore,
): Promise<Leadership> {
  const backend = leaseBackend(config);
  const shared = backend.kind !== 'memory';
  const retryMs = config.leaseRetryMs ?? DEFAULT_LEASE_RETRY_MS;
  const leases = await openLeaseStore(backend, retryMs, context);
  try {
    return await openLeadership({
      leases,
      name: `${contextSchema(context)}:background`,
      shared,
      retryMs,
      log,
      // Only shared stores can see two holders at once (a takeover while the last one still commits).
      ...(shared ? { fenceStore: readStore } : {}),
    });
  } catch (error) {
    await leases.close();
    throw error;
  }
}
