import { describe, expect, it } from 'vitest';
import { platformConfig, PlatformEnv } from './adapters.ts';
import { leaseBackend } from './context-lease-store.ts';

const config = (env: Record<string, string>) => platformConfig(PlatformEnv.parse(env));
const PG = 'postgres://postgres@127.0.0.1:5432/test';
const ESDB = 'kurrentdb://127.0.0.1:2113?tls=false';
const MONGO = 'mongodb://127.0.0.1:27017/renopath';
const NATS = 'nats://127.0.0.1:4222';

describe('the lease store a context uses', () => {
  it('takes advisory locks on PostgreSQL when a store is there, the event store first', () => {
    expect(leaseBackend(config({ RENOPATH_EVENT_STORE: PG, RENOPATH_READ_STORE: PG, RENOPATH_BUS: NATS }))).toEqual({
      kind: 'postgres',
      connectionString: PG,
    });
    expect(leaseBackend(config({ RENOPATH_EVENT_STORE: ESDB, RENOPATH_READ_STORE: PG, RENOPATH_BUS: NATS }))).toEqual({
      kind: 'postgres',
      connectionString: PG,
    });
    expect(leaseBackend(config({ RENOPATH_READ_STORE: 'postgresql://u@h/db' }))).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://u@h/db',
    });
  });

  it('uses the NATS bucket of the bus namespace for EventStoreDB or MongoDB stores over a NATS bus', () => {
    expect(leaseBackend(config({ RENOPATH_EVENT_STORE: ESDB, RENOPATH_READ_STORE: MONGO, RENOPATH_BUS: NATS }))).toEqual({
      kind: 'nats',
      servers: NATS,
      bucket: 'renopath_leases',
      ttlMs: 10_000,
    });
    expect(
      leaseBackend(
        config({
          RENOPATH_EVENT_STORE: 'esdb://h:2113',
          RENOPATH_BUS: NATS,
          RENOPATH_NATS_PREFIX: 'staging',
          RENOPATH_LEASE_TTL_MS: '4000',
        }),
      ),
    ).toEqual({
      kind: 'nats',
      servers: NATS,
      bucket: 'renopath_leases_staging',
      ttlMs: 4000,
    });
    expect(leaseBackend(config({ RENOPATH_READ_STORE: MONGO, RENOPATH_BUS: NATS }))).toMatchObject({ kind: 'nats' });
  });

  it('keeps a lease in the process for SQLite stores, and for one process on the in-memory bus', () => {
    expect(leaseBackend(config({ RENOPATH_BUS: NATS }))).toEqual({ kind: 'memory' });
    expect(leaseBackend(config({}))).toEqual({ kind: 'memory' });
    expect(leaseBackend(config({ RENOPATH_EVENT_STORE: ESDB, RENOPATH_READ_STORE: MONGO }))).toEqual({ kind: 'memory' });
  });

  it('refuses a lease TTL out of range', () => {
    expect(() => config({ RENOPATH_LEASE_TTL_MS: '100' })).toThrow();
    expect(() => config({ RENOPATH_LEASE_TTL_MS: 'soon' })).toThrow();
  });
});
