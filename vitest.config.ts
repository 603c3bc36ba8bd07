import pg from 'pg';
import { defineConfig } from 'vitest/config';
import { tcpListening } from './shared/platform/src/testing/listening.ts';

const roots = ['shared/*/src', 'shared/*/test', 'services/*/src', 'services/*/test', 'test'];
/** The three test shapes, by file suffix: `npm run test:unit` runs the fast, server-free ones alone. */
const shape = (suffix: string) => roots.map((root) => `${root}/**/*.${suffix}.spec.ts`);

/**
 * The API suite: the e2e files that talk to the service over HTTP only, so they run in more than one
 * deployment (RENOPATH_E2E_STACK): embedded; every service its own process over NATS with SQLite; and
 * the same with PostgreSQL and two replicas of estates and the gateway (POSTGRES_API_SUITE's part). A test inside them that needs the embedded
 * process's objects skips in the distributed modes with `[skip] embedded-only` (stack.ts `embeddedOnly`).
 */
const API_SUITE = [
  'auth',
  'identity',
  'estates',
  'estates-parts',
  'estates-files',
  'estates-history',
  'estates-visibility',
  'renovations',
  'renovations-items',
  'renovations-cascades',
  'renovations-search',
  'calculations-jobs',
  'calculations-validation',
  'calculations-sources',
  'reports',
  'idempotency',
  'conformance',
  'attack-bola',
  'attack-takeover',
  'attack-jwt',
].map((name) => `services/gateway/test/${name}.e2e.spec.ts`);

/**
 * Over PostgreSQL, the API suite's files whose answers rest on what the stores do: queries and lists,
 * transactions, keyed appends, an estate's history, jobs under leases. The whole suite runs over
 * NATS with SQLite; the files left out here (authentication, attacks, validation, conformance,
 * cascades, files, reports) exercise the gateway and the contexts, which are the same code over
 * either store, and PostgreSQL's adapters pass the port contract suites SQLite's pass. This stack
 * runs one file at a time (below), so on CI's two cores the whole suite over it took ~5 of ~18 minutes.
 */
const POSTGRES_API_SUITE = [
  'identity',
  'estates',
  'estates-history',
  'renovations-items',
  'renovations-search',
  'calculations-jobs',
  'idempotency',
].map((name) => `services/gateway/test/${name}.e2e.spec.ts`);

/**
 * The gateway's other e2e files run embedded only (the `e2e` project), and why: they start their own
 * processes, or need one process's internals throughout.
 */
export const EMBEDDED_ONLY: Record<string, string> = {
  'attack-fuzz': 'the route table\'s zod schemas against one gateway; thousands of requests, the same in every mode',
  'attack-holes': 'reads the embedded key files and starts stacks with per-process rate limits and proxy settings',
  'attack-kill': 'kills and restarts its own embedded child process',
  'calculations-crash': 'kills and restarts its own embedded child process',
  'idempotency-crash': 'kills and restarts its own embedded child process',
  'cli-replay': 'stops the embedded stack and runs the CLI on its data dir',
  'cli': 'listens on the embedded app for the CLI',
  'http': 'the embedded fastify instance (listen, route table, rate limit of one process)',
  'lifecycle': 'starts and stops its own embedded processes',
  'tracing': 'an in-memory span exporter in the test\'s thread, and the log and OTLP export of its own child process',
  'metrics': 'reads the embedded process\'s /metrics, whose figures are per process',
  'config-refusal': 'runs npm start\'s entry point with wrong settings',
  'context-threads': 'starts embedded stacks with their contexts in threads, and on the main thread',
  'logging': 'reads the embedded process\'s log',
  'mail-smtp': 'an SMTP server the embedded identity sends to',
  'rate-limit-redis': 'two embedded gateways sharing a Redis rate limit',
  'estates-bus-requests': 'traces the embedded bus',
  'webhook-secrets': 'reads the embedded bus, event store and identity service',
  'distributed': 'starts its own distributed stacks (nats-sqlite)',
  'kill-postgres': 'starts its own distributed stack (nats-postgres) and kills its processes',
  'faults': 'starts its own NATS server, PostgreSQL cluster and distributed stack, and stops each of them under load',
};

const NATS_URL = process.env['RENOPATH_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const POSTGRES_URL = process.env['RENOPATH_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const nats = await tcpListening(NATS_URL, 4222);
const postgres = await tcpListening(POSTGRES_URL, 5432);
const distributed = [
  { name: 'e2e-nats-sqlite', missing: nats ? null : NATS_URL },
  { name: 'e2e-nats-postgres', missing: !nats ? NATS_URL : !postgres ? POSTGRES_URL : null },
];
/** The server's connection limit: a PostgreSQL stack holds 25 to 45 connections (pools of up to 10 per store and process). */
async function maxConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ max_connections: string }>('SHOW max_connections');
    return Number(rows[0]?.max_connections ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}
/** Two PostgreSQL stacks at a time (some spec files start a second one) only where the server takes them. */
const postgresWorkers = postgres && (await maxConnections(POSTGRES_URL)) >= 250 ? 2 : 1;
for (const { name, missing } of distributed) {
  if (missing) console.warn(`[skip] ${name} (the API suite, every service its own process): nothing listens on ${missing}`);
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI machines: keep worker count low so int/e2e suites with real servers do not starve.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: shape('unit') } },
      { extends: true, test: { name: 'int', include: shape('int') } },
      { extends: true, test: { name: 'e2e', include: shape('e2e') } },
      ...distributed
        .filter(({ missing }) => !missing)
        .map(({ name }) => ({
          extends: true as const,
          test: {
            name,
            include: name === 'e2e-nats-postgres' ? POSTGRES_API_SUITE : API_SUITE,
            env: { RENOPATH_E2E_STACK: name.replace('e2e-', '') },
            // Seven processes start per stack on two shared cores, and every request crosses HTTP and NATS.
            testTimeout: 60_000,
            hookTimeout: 180_000,
            // After the other projects (their PostgreSQL suites and kill-postgres), one stack at a time under the
            // default max_connections (100): two would pass it at moments.
            ...(name === 'e2e-nats-postgres' ? { sequence: { groupOrder: 1 }, maxWorkers: postgresWorkers } : {}),
          },
        })),
    ],
  },
});
