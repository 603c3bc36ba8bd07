import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * `npm run bench`: performance figures measured in one run on this machine (targets live here,
 * never in timed test assertions). Prints requests/s and p99 of the authenticated gateway route
 * and of a bare Fastify route, and their ratio; then the energy model's figures.
 */
const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
/** Rounds alternate the two routes so that a burst of noise on this shared machine hits both alike. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);

interface Ready { gatewayPort: number; barePort: number; client_id: string; client_secret: string }

type Server = ReturnType<typeof fork>;
type Run = Awaited<ReturnType<typeof load>>;

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const median = (runs: Run[]): Run => ({
  rps: mid(runs.map((r) => r.rps)),
  p99: mid(runs.map((r) => r.p99)),
  total: runs.reduce((n, r) => n + r.total, 0),
  cpuPerRequest: mid(runs.map((r) => r.cpuPerRequest)),
});

/** The server's CPU time since the previous mark, in microseconds. */
const cpuMark = (server: Server) =>
  new Promise<number>((resolve) => {
    server.once('message', (m) => resolve((m as { cpuMicros: number }).cpuMicros));
    server.send('mark');
  });

async function load(server: Server, url: string, headers: Record<string, string> = {}) {
  await cpuMark(server);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpu = await cpuMark(server);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, total: r.requests.total, cpuPerRequest: cpu / r.requests.total };
}

async function benchGateway() {
  const server = fork(fileURLToPath(new URL('./bench/gateway-server.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Ready));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${ready.gatewayPort}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': ready.client_id, 'x-service-client-secret': ready.client_secret },
    });
    const { access_token } = (await res.json()) as { access_token: string };
    console.log(
      `gateway benchmark: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per route (medians), ` +
        'server in its own process (log level warn)',
    );
    const bareUrl = `http://127.0.0.1:${ready.barePort}/bare`;
    const meUrl = `http://127.0.0.1:${ready.gatewayPort}/users/me`;
    const auth = { authorization: `Bearer ${access_token}` };
    // A short warm-up lets the JIT settle before the measured runs.
    await autocannon({ url: bareUrl, connections: CONNECTIONS, duration: 2 });
    await autocannon({ url: meUrl, connections: CONNECTIONS, duration: 2, headers: auth });
    const bareRuns: Run[] = [];
    const meRuns: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load(server, bareUrl));
      meRuns.push(await load(server, meUrl, auth));
    }
    const bare = median(bareRuns);
    const me = median(meRuns);
    const row = (name: string, r: Run) =>
      console.log(
        `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   ` +
          `server CPU ${r.cpuPerRequest.toFixed(1).padStart(6)} us/request   (${r.total} requests)`,
      );
    row('bare Fastify GET /bare', bare);
    row('gateway GET /users/me (bearer)', me);
    const ratio = me.rps / bare.rps;
    console.log(`  throughput ratio authenticated / bare: ${(ratio * 100).toFixed(1)}%  (target >= 40%: ${ratio >= 0.4 ? 'met' : 'NOT met'})`);
    // On a 2-core machine the load generator shares the CPU, so the bare route is partly client-bound;
    // server CPU per request is the capacity each route would have on a dedicated core.
    console.log(`  server-CPU ratio (bare us / authenticated us per request): ${((bare.cpuPerRequest / me.cpuPerRequest) * 100).toFixed(1)}%`);
  } finally {
    server.send('stop');
  }
}

async function benchEnergyModel() {
  const module = new URL('../shared/energy/src/bench.ts', import.meta.url);
  if (!existsSync(fileURLToPath(module))) return;
  const { benchEnergy } = (await import(module.href)) as { benchEnergy: () => Promise<unknown> };
  await benchEnergy();
}

const only = process.argv[2];
if (!only || only === 'gateway') await benchGateway();
if (!only || only === 'energy') await benchEnergyModel();
