import { z } from 'zod';
import { OverloadEnv, overloadLimits, type OverloadLimits } from '../observability/overload-limits.ts';

/*
 * The platform's settings, apart from the adapters they choose: this module loads no driver, so a
 * process checks every variable of every context in well under a second, before anything starts.
 */

export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value);
export const isEsdbUrl = (value: string) => /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i.test(value);
export const isMongoUrl = (value: string) => /^mongodb(\+srv)?:\/\//.test(value);

export const EVENT_STORE_CHOICES = '"sqlite", postgres://user@host:port/database or kurrentdb://host:2113?tls=false (also esdb://)';
export const READ_STORE_CHOICES = '"sqlite", postgres://user@host:port/database or mongodb://host:port/database';
export const isEventStoreChoice = (value: string) => value === 'sqlite' || isPostgresUrl(value) || isEsdbUrl(value);
export const isReadStoreChoice = (value: string) => value === 'sqlite' || isPostgresUrl(value) || isMongoUrl(value);

/** The adapter choice every service shares (README.md "Configuration"); parsed by each service's config module. */
export const PlatformEnv = z.object({
  RENOPATH_DATA_DIR: z.string().min(1).default('./data'),
  RENOPATH_EVENT_STORE: z.string().default('sqlite').refine(isEventStoreChoice, `expected ${EVENT_STORE_CHOICES}`),
  RENOPATH_READ_STORE: z.string().default('sqlite').refine(isReadStoreChoice, `expected ${READ_STORE_CHOICES}`),
  RENOPATH_BUS: z
    .string()
    .default('memory')
    .refine((v) => v === 'memory' || /^nats:\/\/.+/.test(v), 'expected "memory" or nats://host:port'),
  RENOPATH_BLOB_STORE: z.enum(['fs', 'gridfs'], { error: 'expected "fs" or "gridfs"' }).default('fs'),
  /** The MongoDB server of `RENOPATH_BLOB_STORE=gridfs` (default: RENOPATH_READ_STORE when that is a mongodb:// URL). */
  RENOPATH_MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'expected mongodb://host:port/database')
    .optional(),
  /** JetStream stream and subject namespace: lets deployments (and test runs) share one NATS server. */
  RENOPATH_NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, _ and -')
    .default('RENOPATH_EVENTS'),
  RENOPATH_NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'expected letters, digits, _ and -')
    .default(''),
  /** Connections each PostgreSQL store of a process may open (event store and read store each): replicas x contexts x 2 x this must fit the server's max_connections. */
  RENOPATH_POSTGRES_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** SQLite commit durability: FULL (survives power loss) or NORMAL (survives process crashes; no fsync per commit). */
  RENOPATH_SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** Replicas over shared PostgreSQL stores: how often one that does not run the background work tries to take it over (ms). */
  RENOPATH_LEASE_RETRY_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Replicas over EventStoreDB/MongoDB stores (leases on NATS): how long a dead holder's lease outlives it (ms). */
  RENOPATH_LEASE_TTL_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  /** A port of its own where the process serves /metrics without a token (keep it off the public network); unset: none. */
  RENOPATH_METRICS_PORT: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'expected a port number from 1 to 65535' }).int().min(1).max(65535).optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...OverloadEnv,
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
  /** RENOPATH_METRICS_PORT, or null. */
  metricsPort?: number | null;
  /** RENOPATH_OVERLOAD_*: when an HTTP server of the process sheds load (absent: it does not). */
  overload?: OverloadLimits;
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
  metricsPort: e.RENOPATH_METRICS_PORT ?? null,
  overload: overloadLimits(e),
  logLevel: e.LOG_LEVEL,
});

/** The platform's settings alone (the gateway's process, a context's thread), refused as the services' loaders refuse theirs. */
export function loadPlatformConfig(env: NodeJS.ProcessEnv): PlatformConfig {
  return platformConfig(parseEnv(PlatformEnv, env));
}

/** Settings read by `schema`, or refused with every wrong one named. */
function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success)
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The settings every context's service has besides its own: the platform's, and how long a write's reply may wait for its views. */
export const ServiceEnv = PlatformEnv.extend({
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
});

/** What every context's service configuration holds (`ServiceEnv` read). */
export interface ServiceConfig {
  platform: PlatformConfig;
  settleTimeoutMs: number;
}

/**
 * A service's settings as its schema (`ServiceEnv` extended) reads them (`env`), and the part every
 * service shares (`config`); refused with every wrong one named.
 */
export function parseServiceEnv<S extends z.ZodType<z.output<typeof ServiceEnv>>>(
  schema: S,
  env: NodeJS.ProcessEnv,
): { env: z.output<S>; config: ServiceConfig } {
  const e = parseEnv(schema, env);
  return { env: e, config: { platform: platformConfig(e), settleTimeoutMs: e.RENOPATH_SETTLE_TIMEOUT_MS } };
}

/** The settings of a context that hands out links to the gateway: its port, and its public address when it has one. */
export const PublicUrlEnv = {
  PORT: z.coerce.number({ error: 'expected a port number from 0 to 65535' }).int().min(0).max(65535).default(8080),
  RENOPATH_PUBLIC_URL: z.url({ error: 'RENOPATH_PUBLIC_URL must be an absolute URL' }).optional(),
};

/** The base of the links a context hands out: RENOPATH_PUBLIC_URL, else this machine at PORT, without a trailing slash. */
export const publicUrlOf = (e: { PORT: number; RENOPATH_PUBLIC_URL?: string | undefined }): string =>
  (e.RENOPATH_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
