import { isIP } from 'node:net';
import { z } from 'zod';
import { TOKEN_DEFAULTS } from '@renopath/contracts';

/** The gateway's configuration (README.md "Configuration"), parsed once at start-up; nothing else reads process.env. */

const Env = z.object({
  PORT: z.coerce.number({ error: 'expected a port number from 0 to 65535' }).int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  RENOPATH_PUBLIC_URL: z.string().url().optional(),
  RENOPATH_ADMIN_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(16, 'RENOPATH_ADMIN_TOKEN must be at least 16 characters').optional(),
  ),
  RENOPATH_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(50),
  RENOPATH_RATE_LIMIT_BURST: z.coerce.number().min(0).default(100),
  /** Distributed mode: the Redis every gateway replica counts the rate limit in. */
  RENOPATH_RATE_LIMIT_REDIS_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^rediss?:\/\//, 'RENOPATH_RATE_LIMIT_REDIS_URL must be a redis:// or rediss:// URL')
      .optional(),
  ),
  RENOPATH_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
  /** The bounded contexts a write may have effects in: the gateway waits for all of them to settle. */
  RENOPATH_CONTEXTS: z
    .string()
    .regex(/^[a-z]+(,[a-z]+)*$/, 'RENOPATH_CONTEXTS must be a comma-separated list of context names')
    .default('identity,estates,renovations,calculations,reporting'),
  RENOPATH_TOKEN_ISSUER: z.string().min(1).default(TOKEN_DEFAULTS.issuer),
  RENOPATH_TOKEN_AUDIENCE: z.string().min(1).default(TOKEN_DEFAULTS.audience),
  RENOPATH_BUS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  RENOPATH_TRUST_PROXY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  RENOPATH_DATA_DIR: z.string().min(1).default('./data'),
  /** `postgres://...`: Idempotency-Key records on the shared server, so gateway replicas agree on them. */
  RENOPATH_READ_STORE: z.string().default('sqlite'),
  /** Signs download links; every gateway replica needs the same one. Unset: generated once and kept in the data dir. */
  RENOPATH_DOWNLOAD_SIGNING_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'RENOPATH_DOWNLOAD_SIGNING_SECRET must be at least 32 characters').optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface GatewayConfig {
  port: number;
  host: string;
  publicUrl: string;
  adminToken: string | null;
  rateLimit: { perSecond: number; burst: number; redisUrl: string | null };
  settleTimeoutMs: number;
  contexts: string[];
  issuer: string;
  audience: string;
  busTimeoutMs: number;
  /** Which `X-Forwarded-For` hops are believed: none, the last N, or those added by these addresses. */
  trustProxy: false | number | string[];
  dataDir: string;
  /** RENOPATH_READ_STORE: `sqlite` (a file in the data dir) or a postgres:// URL shared by the replicas. */
  readStore: string;
  downloadSigningSecret: string | null;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
}

/**
 * `RENOPATH_TRUST_PROXY`: unset trusts no `X-Forwarded-For`; a hop count (`1` behind one proxy) or
 * a comma-separated list of the proxies' addresses or CIDRs. `true` would let any client pick the
 * address its rate limit is counted under, so it is refused.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (/^[0-9]{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (value === 'true' || bad.length > 0) {
    throw new Error(
      `invalid configuration: RENOPATH_TRUST_PROXY must be the number of proxies in front of the gateway (1, 2) or a comma-separated list of their addresses or CIDRs (10.0.0.0/8,192.168.1.10)` +
        (value === 'true' ? '; "true" would trust any client\'s X-Forwarded-For' : `; not an address: ${bad.slice(0, 3).join(', ')}`),
    );
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.RENOPATH_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    adminToken: e.RENOPATH_ADMIN_TOKEN ?? null,
    rateLimit: {
      perSecond: e.RENOPATH_RATE_LIMIT_PER_SECOND,
      burst: e.RENOPATH_RATE_LIMIT_BURST,
      redisUrl: e.RENOPATH_RATE_LIMIT_REDIS_URL ?? null,
    },
    settleTimeoutMs: e.RENOPATH_SETTLE_TIMEOUT_MS,
    contexts: e.RENOPATH_CONTEXTS.split(','),
    issuer: e.RENOPATH_TOKEN_ISSUER,
    audience: e.RENOPATH_TOKEN_AUDIENCE,
    busTimeoutMs: e.RENOPATH_BUS_TIMEOUT_MS,
    trustProxy: parseTrustProxy(e.RENOPATH_TRUST_PROXY),
    dataDir: e.RENOPATH_DATA_DIR,
    readStore: e.RENOPATH_READ_STORE,
    downloadSigningSecret: e.RENOPATH_DOWNLOAD_SIGNING_SECRET ?? null,
    logLevel: e.LOG_LEVEL,
  };
}
