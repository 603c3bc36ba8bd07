import pg from 'pg';
import { configDefaults, defineConfig } from 'vitest/config';
import { tcpListening } from './shared/platform/src/testing/listening.ts';

const roots = ['shared/*/src', 'shared/*/test', 'services/*/src', 'services/*/test', 'test'];
/** The three test shapes, by file suffix: `npm run test:unit` runs the fast, server-free ones alone. */
const shape = (suffix: string) => roots.map((root) => `${root}/**/*.${suffix}.spec.ts`);

/**
 * The API suite: the e2e files that talk to the service over HTTP only, so they run in more than one
 * deployment (RENOPATH_E2E_STACK). Every file runs embedded (the `e2e` project), and once more with
 * every service its own process over NATS: over PostgreSQL (with two replicas of estates and the
 * gateway) the files whose answers rest on what the stores do (queries and lists, transactions, keyed
 * appends, an estate's history, jobs under leases); over SQLite the others (authentication, attacks,
 * validation, conformance, cascades, files, reports), which exercise the gateway, the bus and the
 * contexts' processes, the same code over either store. SQLite's adapters are proved by the embedded
 * runs and the port contract suites, which PostgreSQL's pass too. A test inside them that needs the
 * embedded process's objects skips in the distributed modes with `[skip] embedded-only` (stack.ts
 * `embeddedOnly`).
 *
 * Each distributed project starts one stack before its files (globalSetup, shared-stack.ts) and each
 * file works in an organization of its own there; a file that needs its own settings starts its own.
 */
const POSTGRES_API_SUITE = [
  'identity',
  'estates',
  'estates-history',
  'renovations-items',
  'renovations-search',
  'calculations-jobs',
  'idempotency',
  // Versions per estate are keyed appends; a signed passport's webhook crosses from reporting to calculations' dispatcher.
  'renovation-passports',
];
const SQLITE_API_SUITE = [
  'auth',
  'estates-parts',
  'estates-files',
  'estates-visibility',
  'renovations',
  'renovations-cascades',
  'calculations-validation',
  'calculations-sources',
  'reports',
  'conformance',
  'attack-bola',
  'attack-takeover',
  'attack-jwt',
];
const apiFiles = (names: string[]) => names.map((name) => `services/gateway/test/${name}.e2e.spec.ts`);
/** Every file of the API suite: each runs embedded, and distributed over one of the stores. */
export const API_SUITE = [...POSTGRES_API_SUITE, ...SQLITE_API_SUITE].sort();

/**
 * The fault-injection suites: they stop NATS and PostgreSQL on purpose and wait out each outage, and kill
 * the processes of distributed stacks of their own (a worker process among them) under load, each
 * stack's seven processes started for one file (faults.e2e alone runs some 3 minutes). `npm test` leaves
 * them out so that a run fits CI's time; `npm run test:faults` runs them (RENOPATH_FAULT_SUITES=1), and
 * a change to the platform's stores, bus, leases or process managers is not done until they pass. The
 * kill -9 suites of one process (calculations-crash, idempotency-crash, attack-kill's short loop,
 * identity's workflow-crash, and the int crash suites) run in every `npm test`.
 */
export const FAULT_SUITES = [
  'services/gateway/test/faults.e2e.spec.ts',
  'services/gateway/test/kill-postgres.e2e.spec.ts',
  'services/gateway/test/distributed.e2e.spec.ts',
];

/**
 * The e2e files that read what a process holds once for all its modules: OpenTelemetry's global tracer
 * provider (tracing) and the metrics registry's counters (metrics). They run in the e2e-isolated project,
 * with a module graph of their own, as do the fault suites.
 */
const E2E_ISOLATED = ['services/gateway/test/tracing.e2e.spec.ts', 'services/gateway/test/metrics.e2e.spec.ts'];

/**
 * The gateway's other e2e files run embedded only (the `e2e` project), and why: they start their own
 * processes, or need one process's internals throughout.
 */
export const EMBEDDED_ONLY: Record<string, string> = {
  'attack-fuzz': "the route table's zod schemas against one gateway; thousands of requests, the same in every mode",
  'openapi-generated': 'requests generated from the document against one gateway; hundreds of them, the same in every mode',
  'readme-webhook': "runs npm start's entry point and the README's sample receiver as processes of their own",
  'attack-holes': 'reads the embedded key files and starts stacks with per-process rate limits and proxy settings',
  'attack-kill': 'kills and restarts its own embedded child process',
  'calculations-crash': 'kills and restarts its own embedded child process',
  'idempotency-crash': 'kills and restarts its own embedded child process',
  'cli-replay': 'stops the embedded stack and runs the CLI on its data dir',
  cli: 'listens on the embedded app for the CLI',
  http: 'the embedded fastify instance (listen, route table, rate limit of one process)',
  lifecycle: 'starts and stops its own embedded processes',
  tracing: "an in-memory span exporter in the test's thread, and the log and OTLP export of its own child process",
  metrics: "reads the embedded process's /metrics, whose figures are per process",
  'config-refusal': "runs npm start's entry point with wrong settings",
  'context-threads': 'starts embedded stacks with their contexts in threads, and on the main thread',
  logging: "reads the embedded process's log",
  'mail-smtp': 'an SMTP server the embedded identity sends to',
  'rate-limit-redis': 'two embedded gateways sharing a Redis rate limit',
  'estates-bus-requests': 'traces the embedded bus',
  'webhook-secrets': 'reads the embedded bus, event store and identity service',
  distributed: 'starts its own distributed stacks (nats-sqlite)',
  'kill-postgres': 'starts its own distributed stack (nats-postgres) and kills its processes',
  faults: 'starts its own NATS server, PostgreSQL cluster and distributed stack, and stops each of them under load',
  'settle-graph': 'records the consumers the embedded process opens on its bus',
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
    // Backstops for a hang, not measures: a test waits for what it needs, which on a busy machine (two
    // cores shared with other work) takes several times as long as on a quiet one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The suites test behaviour, not load: on a busy two-core machine a process's event loop lags past
    // the shedding limit while it starts, and every request would then get 503. Shedding is off for them
    // (0 turns it off); overload.e2e gives its gateways explicit limits.
    env: { RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', RENOPATH_OVERLOAD_MAX_HEAP_USED_MB: '0' },
    // A test that asserts nothing fails (expect.hasAssertions for every test): one that returns early, or
    // whose checks are never reached, cannot pass unseen.
    expect: { requireAssertions: true },
    reporters: ['default', './test/support/slowest-files.ts'],
    // Two cores on CI machines: keep worker count low so int/e2e suites with real servers do not starve.
    maxWorkers: 2,
    projects: [
      // Unit files hold no servers, timers or globals between them: one module graph per worker instead of
      // one per file (the import is most of their time: 116 s of a 129 s run, 24 s of 39 s shared).
      { extends: true, test: { name: 'unit', include: shape('unit'), isolate: false } },
      // The int and e2e files share one module graph per worker as well (isolated, the import took 25 s of
      // the int project's 64 s run and 74 s of worker time in the e2e project's 148 s); each starts and
      // closes its own servers and stacks.
      // The ones that read what one process holds globally have a graph of their own (e2e-isolated).
      { extends: true, test: { name: 'int', include: shape('int'), isolate: false } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: shape('e2e'),
          exclude: [...configDefaults.exclude, ...E2E_ISOLATED, ...FAULT_SUITES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-isolated',
          include: [...E2E_ISOLATED, ...(process.env['RENOPATH_FAULT_SUITES'] === '1' ? FAULT_SUITES : [])],
        },
      },
      ...distributed
        .filter(({ missing }) => !missing)
        .map(({ name }) => ({
          extends: true as const,
          test: {
            name,
            include: apiFiles(name === 'e2e-nats-postgres' ? POSTGRES_API_SUITE : SQLITE_API_SUITE),
            globalSetup: ['services/gateway/test/shared-stack.ts'],
            // HTTP clients of the stack's processes: nothing of theirs lives in the test's own modules.
            isolate: false,
            env: { RENOPATH_E2E_STACK: name.replace('e2e-', '') },
            // Seven processes start per stack on two shared cores, and every request crosses HTTP and NATS.
            testTimeout: 180_000,
            hookTimeout: 300_000,
            // After the other projects (their PostgreSQL suites and kill-postgres), one stack at a time under the
            // default max_connections (100): two would pass it at moments.
            ...(name === 'e2e-nats-postgres' ? { sequence: { groupOrder: 1 }, maxWorkers: postgresWorkers } : {}),
          },
        })),
    ],
  },
});
