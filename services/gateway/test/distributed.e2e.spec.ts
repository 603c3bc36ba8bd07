import { createServer as createHttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, flemishEpcPages } from '@renopath/calculations/epc-document/testing.ts';
import { modeUnavailable, NATS_URL, startDistributedStack, type DistributedStack, type Service } from './distributed-stack.ts';
import { cascadeScenarios, fetchClient, type Client } from './renovations.fixtures.ts';

/**
 * The distributed mode, proven: the gateway, identity, estates and renovations services as separate
 * processes, each with its own data dir, talking over the real NATS server.
 */
const natsUp = (await modeUnavailable('nats-sqlite')) === null;

/**
 * LiDAR for the distributed jobs: it can be made to hang, so a worker is caught in the middle of a job.
 * It also serves an EPC certificate (`/epc.pdf`) for the worker process to read.
 */
const lidar = { hang: false, requests: 0 };
const epcPdf = Buffer.from(await buildPdf(flemishEpcPages({ score: '312', label: 'D', yearBuilt: '1960' })));
const lidarServer = createHttpServer((req, res) => {
  req.resume();
  if (req.url === '/epc.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(epcPdf);
  lidar.requests++;
  if (lidar.hang) return;
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ building_width: 7.5, building_depth: 10.2, inclined_roof_pane_surface: 86, flat_roof_pane_surface: 0 }));
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
if (!natsUp)
  console.warn(
    `[skip] distributed e2e (gateway, identity, estates, renovations over NATS, in several start orders): nothing listens on ${NATS_URL}`,
  );

/**
 * One distributed stack (distributed-stack.ts, SQLite per process): the services started in `order`,
 * each given a moment to come up (and find its peers missing) before the next.
 */
function distributedStack(order: Service[]) {
  let started: DistributedStack | null = null;
  const stack = {
    port: 0,
    clientId: '',
    clientSecret: '',
    /** Stops one service (SIGTERM, or SIGKILL for a crash) and starts it again on its own data dir, the others left running. */
    async restart(service: Service, signal: NodeJS.Signals = 'SIGTERM', beforeStart?: () => void) {
      await started!.restart(service, { signal, ...(beforeStart ? { beforeStart } : {}) });
    },
  };

  beforeAll(async () => {
    const worker = order.includes('worker');
    started = await startDistributedStack({
      mode: 'nats-sqlite',
      order,
      startGapMs: 1500,
      replicas: { worker: worker ? 1 : 0 },
      logLevel: 'info',
      serviceEnv: {
        // The calculations context holds the jobs; with a worker process, its jobs are run there.
        calculations: { ...CALCULATIONS_ENV, RENOPATH_CALCULATION_WORKERS: worker ? '0' : '2' },
        worker: { ...CALCULATIONS_ENV, RENOPATH_CALCULATION_WORKERS: '2' },
      },
    });
    stack.port = Number(new URL(started.url).port);
    stack.clientId = started.bootstrap.client_id;
    stack.clientSecret = started.bootstrap.client_secret;
  }, 180_000);

  afterAll(async () => {
    await started?.close();
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
    const HOME = {
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 150,
      zip_code: '9000',
      country: 'BE',
      street: 'Veldstraat',
      house_number: '12',
      roof_type: 'INCLINED',
      inclined_roof_insulation_type: 'NONE',
      outer_wall_insulation_type: 'NONE',
      window_glazing_type: 'SINGLE_GLAZING',
      heating_type: 'GAS',
      heating_device: 'NON_CONDENSING_BOILER',
    };
    const untilFinal = async (id: string, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = (await client.get(`/v1/calculation-jobs/${id}`)).json() as Record<string, any>;
        // A FINISHED job's renovation is the renovations process's to make, from the job's event: waited for too.
        const renovation = job['metadata']?.renovation_id;
        const made =
          job['calculation_job_status'] !== 'FINISHED' ||
          !renovation ||
          (await client.get(`/renovations/${renovation}`)).statusCode !== 404;
        if (['FINISHED', 'FAILED', 'STOPPED'].includes(job['calculation_job_status']) && made) return job;
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

    it("reads an EPC document in the worker process: the document's own job is taken and reported over the bus", {
      timeout: 90_000,
    }, async () => {
      const epc_url = `http://127.0.0.1:${(lidarServer.address() as { port: number }).port}/epc.pdf`;
      const created = await client.post(URL, { ...HOME, epc_url });
      expect(created.statusCode, JSON.stringify(created.json())).toBe(200);
      const job = await untilFinal(created.json().id);
      expect(job['calculation_job_status'], JSON.stringify(job['metadata'])).toBe('FINISHED');
      const child = (await client.get(`/v1/calculation-jobs/${job['metadata'].epc_document_job_id}`)).json() as Record<string, any>;
      expect(child['calculation_job_type']).toBe('EPC_DOCUMENT_PROCESSING');
      expect(child['calculation_job_status']).toBe('FINISHED');
      expect(child['metadata'].fields.energy_efficiency_score).toBe(312);
      expect(job['metadata'].data_quality.sources.energy_efficiency_score).toBe('EPC_DOCUMENT');
    });

    it('a worker process killed in the middle of a job: another takes it after the lease and it finishes', {
      timeout: 120_000,
    }, async () => {
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
      expect(((await (await fetch(`${base}/v1/estates/${estate.id}`, { headers: auth })).json()) as { name: string }).name).toBe(
        `Started ${order.join('-')}`,
      );
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
