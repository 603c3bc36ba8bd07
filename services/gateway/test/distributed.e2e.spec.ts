import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cascadeScenarios, fetchClient, type Client } from './renovations.fixtures.ts';

/**
 * The distributed mode, proven: the gateway, identity, estates and renovations services as separate
 * processes, each with its own data dir, talking over the real NATS server.
 */
const NATS_URL = process.env['RENOPATH_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
    socket.once('timeout', () => (socket.destroy(), done(false)));
    socket.connect(Number(port || 4222), hostname);
  });
}

const natsUp = await reachable(NATS_URL);

/** LiDAR for the distributed jobs: it can be made to hang, so a worker is caught in the middle of a job. */
const lidar = { hang: false, requests: 0 };
const lidarServer = createHttpServer((req, res) => {
  lidar.requests++;
  req.resume();
  if (lidar.hang) return;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ building_width: 7.5, building_depth: 10.2, inclined_roof_pane_surface: 86, flat_roof_pane_surface: 0 }));
});
await new Promise<void>((r) => lidarServer.listen(0, '127.0.0.1', r));
afterAll(() => {
  lidarServer.closeAllConnections();
  lidarServer.close();
});
const CALCULATIONS_ENV = {
  RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
  RENOPATH_LIDAR_URL: `http://127.0.0.1:${(lidarServer.address() as { port: number }).port}/lidar`,
  RENOPATH_PROVIDER_TIMEOUT_MS: '60000',
  RENOPATH_JOB_LEASE_MS: '3000',
};
if (!natsUp) console.warn(`[skip] distributed e2e (gateway, identity, estates, renovations over NATS, in several start orders): nothing listens on ${NATS_URL}`);

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });
}

type Service = 'gateway' | 'identity' | 'estates' | 'renovations' | 'calculations' | 'reporting' | 'worker';

/**
 * One distributed stack: the services as processes, started in `order`, each given a moment
 * to come up (and find its peers missing) before the next. Its own JetStream stream and subject
 * prefix, so stacks do not see each other's events.
 */
function distributedStack(order: Service[]) {
  const run = randomUUID().replace(/-/g, '').slice(0, 12);
  const stream = `RENOPATH_TEST_${run}`;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const running = new Map<Service, { child: ChildProcess; again: () => ChildProcess }>();
  const stack = {
    port: 0,
    clientId: randomUUID(),
    clientSecret: 'ab'.repeat(32),
    /** Stops one service (SIGTERM, or SIGKILL for a crash) and starts it again on its own data dir, the others left running. */
    async restart(service: Service, signal: NodeJS.Signals = 'SIGTERM', beforeStart?: () => void) {
      const { child, again } = running.get(service)!;
      child.kill(signal);
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
      beforeStart?.();
      running.set(service, { child: again(), again });
    },
  };

  /** `dataDir` shared by two processes stands for a shared volume (the gateway and estates share the blob store). */
  const start = (script: string, env: Record<string, string>, dataDir = mkdtempSync(join(tmpdir(), 'renopath-dist-'))) => {
    if (!dirs.includes(dataDir)) dirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script)], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        RENOPATH_BUS: NATS_URL,
        RENOPATH_NATS_STREAM: stream,
        RENOPATH_NATS_PREFIX: `t${run}`,
        RENOPATH_DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    const port = await freePort();
    stack.port = port;
    const shared = mkdtempSync(join(tmpdir(), 'renopath-dist-'));
    const publicUrl = { RENOPATH_PUBLIC_URL: `http://127.0.0.1:${port}` };
    const launch = (service: Service, script: string, env: Record<string, string>, dataDir = mkdtempSync(join(tmpdir(), 'renopath-dist-'))) => {
      const again = () => start(script, env, dataDir);
      running.set(service, { child: again(), again });
    };
    const starters: Record<Service, () => void> = {
      identity: () => launch('identity', 'services/identity/src/main.ts', { RENOPATH_BOOTSTRAP_CLIENT_ID: stack.clientId, RENOPATH_BOOTSTRAP_CLIENT_SECRET: stack.clientSecret }),
      estates: () => launch('estates', 'services/estates/src/main.ts', publicUrl, shared),
      renovations: () => launch('renovations', 'services/renovations/src/main.ts', {}),
      // The calculations context holds the jobs; its jobs are run by a separate worker process.
      calculations: () => launch('calculations', 'services/calculations/src/main.ts', { ...CALCULATIONS_ENV, RENOPATH_CALCULATION_WORKERS: order.includes('worker') ? '0' : '2' }),
      // Reports read estates' media and are served by the gateway: the shared blob store.
      reporting: () => launch('reporting', 'services/reporting/src/main.ts', {}, shared),
      worker: () => launch('worker', 'services/calculations/src/main.ts', { ...CALCULATIONS_ENV, RENOPATH_CALCULATIONS_ROLE: 'worker', RENOPATH_CALCULATION_WORKERS: '2' }),
      gateway: () => launch('gateway', 'services/gateway/src/main.ts', { PORT: String(port), HOST: '127.0.0.1', RENOPATH_RATE_LIMIT_PER_SECOND: '0', ...publicUrl }, shared),
    };
    for (const [i, service] of order.entries()) {
      starters[service]();
      // Let it start without the ones after it (the point of the order); not an assertion on time.
      if (i < order.length - 1) await new Promise((r) => setTimeout(r, 1500));
    }
    // Several tsx processes start on two shared cores: generous, since a slow start is not a failure.
    const deadline = Date.now() + 90_000;
    for (;;) {
      for (const child of children) if (child.exitCode !== null) throw new Error(`a service exited (code ${child.exitCode}) while its peers were missing`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/ready`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('gateway + identity did not become ready over NATS');
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const nc = await connect({ servers: NATS_URL });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  return stack;
}

const token = async (stack: { port: number; clientId: string; clientSecret: string }) => {
  const res = await fetch(`http://127.0.0.1:${stack.port}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'x-service-client-id': stack.clientId, 'x-service-client-secret': stack.clientSecret },
  });
  return { status: res.status, access_token: ((await res.json()) as { access_token?: string }).access_token ?? '' };
};

/** Until a context's process answers through the gateway (it may still be subscribing): readiness, not timing. */
async function untilAnswers(url: string, auth: Record<string, string>, what: string) {
  const deadline = Date.now() + 30_000;
  while ((await fetch(url, { headers: auth })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${what} service did not answer over NATS`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!natsUp)('distributed mode over NATS', () => {
  const stack = distributedStack(['identity', 'estates', 'renovations', 'calculations', 'reporting', 'worker', 'gateway']);
  let port = 0;
  let clientId = '';
  let clientSecret = '';
  beforeAll(() => {
    ({ port, clientId, clientSecret } = stack);
  });

  it('identity answers the bus only once its first-start client exists: the first token after /ready works', async () => {
    expect((await token(stack)).status).toBe(200);
  });

  it('gets a token and /users/me through the gateway from the identity process', async () => {
    const tokenRes = await fetch(`http://127.0.0.1:${port}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': clientId, 'x-service-client-secret': clientSecret },
    });
    expect(tokenRes.status).toBe(200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const me = await fetch(`http://127.0.0.1:${port}/v1/users/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(200);
    const users = (await me.json()) as Array<{ email_address: string; organizations: unknown[] }>;
    expect(users).toHaveLength(1);
    expect(users[0]!.organizations).toHaveLength(1);
    const wrong = await fetch(`http://127.0.0.1:${port}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': clientId, 'x-service-client-secret': 'cd'.repeat(32) },
    });
    expect(wrong.status).toBe(400);
  });

  it('serves estates from the estates process: write, read, upload and signed download through the shared blob store', async () => {
    const tokenRes = await fetch(`http://127.0.0.1:${port}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': clientId, 'x-service-client-secret': clientSecret },
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access_token}` };
    // the estates process may still be subscribing: wait until it answers (readiness, not timing)
    await untilAnswers(`http://127.0.0.1:${port}/estates`, auth, 'estates');
    const created = await fetch(`http://127.0.0.1:${port}/estates`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Over NATS', address: { zip_code: '8000', country: 'BE' } }),
    });
    expect(created.status).toBe(201);
    const estate = (await created.json()) as { id: string; referral_link: string };
    expect(estate.referral_link.startsWith(`http://127.0.0.1:${port}/r/`)).toBe(true);
    const read = await fetch(`http://127.0.0.1:${port}/v1/estates/${estate.id}`, { headers: auth });
    expect(((await read.json()) as { name: string }).name).toBe('Over NATS');

    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')]), 'plan.pdf');
    const uploaded = await fetch(`http://127.0.0.1:${port}/estates/${estate.id}/files`, { method: 'POST', headers: auth, body: form });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { url: string };
    const downloaded = await fetch(file.url);
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer()).toString()).toBe('%PDF-1.4\n%%EOF\n');
    expect((await fetch(estate.referral_link)).status).toBe(200);
  });
  describe('renovations as their own process: cascades from the estates process, on the next read', () => {
    let client: Client;
    beforeAll(async () => {
      const tokenRes = await fetch(`http://127.0.0.1:${port}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'x-service-client-id': clientId, 'x-service-client-secret': clientSecret },
      });
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      client = fetchClient(`http://127.0.0.1:${port}`, access_token);
      // the renovations process may still be subscribing: wait until it answers (readiness, not timing)
      const deadline = Date.now() + 30_000;
      while ((await client.get('/v1/renovations')).statusCode !== 200) {
        if (Date.now() > deadline) throw new Error('renovations service did not answer over NATS');
        await new Promise((r) => setTimeout(r, 250));
      }
    }, 60_000);

    for (const [name, scenario] of Object.entries(cascadeScenarios(() => client))) it(name, scenario, 30_000);
  });

  describe('calculation jobs through gateway, estates, renovations, calculations, reporting and a worker process', () => {
    let client: Client;
    const URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
    const HOME = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE', street: 'Veldstraat', house_number: '12', roof_type: 'INCLINED', inclined_roof_insulation_type: 'NONE', outer_wall_insulation_type: 'NONE', window_glazing_type: 'SINGLE_GLAZING', heating_type: 'GAS', heating_device: 'NON_CONDENSING_BOILER' };
    const untilFinal = async (id: string, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = (await client.get(`/v1/calculation-jobs/${id}`)).json() as Record<string, any>;
        if (['FINISHED', 'FAILED', 'STOPPED'].includes(job['calculation_job_status'])) return job;
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job['calculation_job_status']}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    beforeAll(async () => {
      const { access_token } = await token(stack);
      client = fetchClient(`http://127.0.0.1:${port}`, access_token);
      const deadline = Date.now() + 30_000;
      while ((await client.get('/v1/calculation-jobs')).statusCode !== 200) {
        if (Date.now() > deadline) throw new Error('calculations service did not answer over NATS');
        await new Promise((r) => setTimeout(r, 250));
      }
    }, 60_000);

    it('runs a job to FINISHED: the estate, the plan and the renovation made of its steps', { timeout: 90_000 }, async () => {
      const created = await client.post(URL, HOME);
      expect(created.statusCode, JSON.stringify(created.json())).toBe(200);
      const job = await untilFinal(created.json().id);
      expect(job['calculation_job_status'], JSON.stringify(job['metadata'])).toBe('FINISHED');
      expect(job['metadata'].steps.length).toBeGreaterThanOrEqual(2);
      expect(job['metadata'].data_quality.sources.building_width).toBe('LIDAR');
      expect((await client.get(`/estates/${job['estate_id']}`)).statusCode).toBe(200);
      const renovation = (await client.get(`/renovations/${job['metadata'].renovation_id}`)).json() as Record<string, number>;
      expect(Math.round(renovation['estimated_cost']! * 100)).toBe(Math.round(job['metadata'].totals.estimated_cost * 100));

      // The reporting process renders the renovation's report into the shared blob store; the gateway serves its link.
      const report = await client.post(`/v1/renovations/${job['metadata'].renovation_id}/reports`, { language: 'en' });
      expect(report.statusCode, report.body).toBe(200);
      const pdf = await fetch(report.json().url);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const page = await fetch((await client.get(`/estates/${job['estate_id']}`)).json().referral_link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(job['metadata'].energy_efficiency_indication);
    });

    it('a worker process killed in the middle of a job: another takes it after the lease and it finishes', { timeout: 120_000 }, async () => {
      lidar.hang = true;
      const before = lidar.requests;
      const created = await client.post(URL, { ...HOME, house_number: '14' });
      const deadline = Date.now() + 30_000;
      while (lidar.requests === before) {
        if (Date.now() > deadline) throw new Error('no worker reached LiDAR');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await client.get(`/v1/calculation-jobs/${created.json().id}`)).json().calculation_job_status).toBe('RUNNING');
      await stack.restart('worker', 'SIGKILL', () => {
        lidar.hang = false;
        lidarServer.closeAllConnections();
      });
      const job = await untilFinal(created.json().id);
      expect(job['calculation_job_status'], JSON.stringify(job['metadata'])).toBe('FINISHED');
      expect(job['metadata'].data_quality.sources.building_width).toBe('LIDAR');
    });
  });
});

/** Processes start in any order: each rides out its missing peers and the stack works once all are up. */
for (const order of [
  ['gateway', 'estates', 'calculations', 'reporting', 'renovations', 'identity'],
  ['calculations', 'renovations', 'reporting', 'estates', 'gateway', 'identity'],
  ['reporting', 'estates', 'identity', 'gateway', 'renovations', 'calculations'],
] as Service[][]) {
  describe.skipIf(!natsUp)(`distributed mode over NATS, started in the order ${order.join(', ')}`, () => {
    const stack = distributedStack(order);

    it('serves a token, /users/me, an estate and renovations (and rides out a restart of identity)', { timeout: 90_000 }, async () => {
      const { status, access_token } = await token(stack);
      expect(status).toBe(200);
      const base = `http://127.0.0.1:${stack.port}`;
      const auth = { authorization: `Bearer ${access_token}` };
      const me = await fetch(`${base}/v1/users/me`, { headers: auth });
      expect(me.status).toBe(200);
      await untilAnswers(`${base}/estates`, auth, 'estates');
      const created = await fetch(`${base}/estates`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Started ${order.join('-')}`, address: { zip_code: '8000', country: 'BE' } }),
      });
      expect(created.status).toBe(201);
      const estate = (await created.json()) as { id: string };
      expect(((await (await fetch(`${base}/v1/estates/${estate.id}`, { headers: auth })).json()) as { name: string }).name).toBe(`Started ${order.join('-')}`);
      await untilAnswers(`${base}/v1/renovations`, auth, 'renovations');

      if (order[0] !== 'gateway') return;
      // Restarted on its own, identity comes back with its keys and client: old tokens still work, new ones are issued.
      await stack.restart('identity');
      const deadline = Date.now() + 45_000;
      while ((await token(stack)).status !== 200) {
        if (Date.now() > deadline) throw new Error('identity did not come back after its restart');
        await new Promise((r) => setTimeout(r, 500));
      }
      expect((await fetch(`${base}/v1/users/me`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/v1/estates/${estate.id}`, { headers: auth })).status).toBe(200);
    });
  });
}
