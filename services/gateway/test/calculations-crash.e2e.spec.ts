import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childToken, startChild, type ServiceChild } from './child.ts';

/**
 * A worker killed in the middle of a job (kill -9 of the whole embedded process while the job waits
 * for LiDAR): after a restart on the same data dir, the job is taken again once its lease has run
 * out and finishes, with one renovation, not two. And the stop call on a job in the middle.
 */
const URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const HOME = {
  year_built: 1965,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 140,
  zip_code: '9000',
  country: 'BE',
  street: 'Kerkstraat',
  house_number: '12',
};
const dataDir = mkdtempSync(join(tmpdir(), 'renopath-job-crash-'));
let child: ServiceChild | null = null;
let lidar: Server;
let lidarUrl = '';
/** While true, LiDAR never answers: the job hangs in the middle of its run. */
let hang = true;
/** LiDAR answers after this long (a slow provider: the job runs longer than its lease). */
let answerAfterMs = 0;
let requests = 0;
/** Webhooks the jobs send (the stop test's receiver). */
const hooks: Array<{ type: string; id: string | undefined; signature: string | undefined }> = [];

beforeAll(async () => {
  lidar = createServer((req, res) => {
    if (req.url === '/hook') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hooks.push({
          type: JSON.parse(body).type,
          id: req.headers['webhook-id'] as string | undefined,
          signature: req.headers['webhook-signature'] as string | undefined,
        });
        res.writeHead(204).end();
      });
      return;
    }
    requests++;
    req.resume();
    if (hang) return; // the socket stays open: the worker waits in the middle of the job
    const answer = () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ building_width: 7.5, building_depth: 10.2, inclined_roof_pane_surface: 86, flat_roof_pane_surface: 0 }));
    if (answerAfterMs > 0) setTimeout(answer, answerAfterMs);
    else answer();
  });
  await new Promise<void>((r) => lidar.listen(0, '127.0.0.1', r));
  lidarUrl = `http://127.0.0.1:${(lidar.address() as AddressInfo).port}/lidar`;
});
afterAll(async () => {
  await child?.kill();
  lidar.closeAllConnections();
  await new Promise((r) => lidar.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A job has three attempts, each under a lease its worker renews while it runs; a killed worker
 * renews nothing. The process that dies holds the job under a lease that the restarted process waits
 * out: a process start on a busy machine takes about as long. The process that finishes the job has
 * the default (30 s). The waits below allow for both leases.
 */
const DYING_LEASE_MS = 10_000;
const RUN_LEASE_MS = 30_000;
const env = (leaseMs: number) => ({
  RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
  RENOPATH_LIDAR_URL: lidarUrl,
  RENOPATH_PROVIDER_TIMEOUT_MS: '60000',
  RENOPATH_JOB_LEASE_MS: String(leaseMs),
});
const call = async (c: ServiceChild, token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${c.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a job whose worker dies in the middle', () => {
  it('is resumed after its lease and finishes once', { timeout: 240_000 }, async () => {
    child = await startChild(dataDir, env(DYING_LEASE_MS));
    let token = await childToken(child.url);
    const created = await call(child, token, 'POST', URL, HOME);
    expect(created.status).toBe(200);
    const id = created.body['id'];
    await until('the worker to reach LiDAR', async () => requests > 0);
    expect((await call(child, token, 'GET', `/v1/calculation-jobs/${id}`)).body['calculation_job_status']).toBe('RUNNING');
    process.kill(-child.process.pid!, 'SIGKILL');
    await child.exited;

    hang = false;
    child = await startChild(dataDir, env(RUN_LEASE_MS));
    token = await childToken(child.url);
    let job: Record<string, any> = {};
    // The dying lease runs out, the sweep takes the job again, and the run ends within its lease.
    await until(
      'the job to finish',
      async () => {
        job = (await call(child!, token, 'GET', `/v1/calculation-jobs/${id}`)).body;
        return job['calculation_job_status'] === 'FINISHED' || job['calculation_job_status'] === 'FAILED';
      },
      DYING_LEASE_MS + 2 * RUN_LEASE_MS,
    );
    expect(job['calculation_job_status'], JSON.stringify(job['metadata'])).toBe('FINISHED');
    expect(job['metadata'].data_quality.sources.building_width).toBe('LIDAR');
    // Renovations makes the job's renovation from the FINISHED event: once, whatever the attempts.
    let renovations: Array<{ id: string; estate_id: string }> = [];
    await until('the renovation', async () => {
      const listed = (await call(child!, token, 'GET', '/renovations')).body as unknown as Array<{ id: string; estate_id: string }>;
      renovations = listed.filter((r) => r.estate_id === job['estate_id']);
      return renovations.length > 0;
    });
    expect(renovations.map((r) => r.id)).toEqual([job['metadata'].renovation_id]);
  });

  it('the stop call ends a running job, and its late result is not taken', { timeout: 60_000 }, async () => {
    hang = true;
    const token = await childToken(child!.url);
    const before = requests;
    const created = await call(child!, token, 'POST', URL, {
      ...HOME,
      house_number: '14',
      webhook_url: lidarUrl.replace('/lidar', '/hook'),
    });
    await until('the worker to reach LiDAR', async () => requests > before);
    const stopped = await call(child!, token, 'POST', `/v1/calculation-jobs/${created.body['id']}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body['calculation_job_status']).toBe('STOPPED');
    hang = false;
    lidar.closeAllConnections();
    await new Promise((r) => setTimeout(r, 500));
    const after = await call(child!, token, 'GET', `/v1/calculation-jobs/${created.body['id']}`);
    expect(after.body['calculation_job_status']).toBe('STOPPED');
    expect(after.body['metadata']).toEqual({});
    expect((await call(child!, token, 'POST', `/v1/calculation-jobs/${created.body['id']}/stop`)).status).toBe(200);
    // The stop is announced to the job's webhook, signed (docs/webhooks.md).
    await until('the stopped webhook', async () => hooks.length > 0);
    expect(hooks[0]!.type).toBe('calculation_job.stopped');
    expect(hooks[0]!.id).toBeTruthy();
    expect(hooks[0]!.signature).toMatch(/^v1,/);
  });
});

describe('a job that runs longer than its lease', () => {
  it('stays with the worker that runs it, which renews its lease: no second attempt, and it finishes', { timeout: 120_000 }, async () => {
    await child?.kill();
    const LEASE_MS = 3_000;
    child = await startChild(dataDir, env(LEASE_MS));
    const token = await childToken(child.url);
    hang = false;
    answerAfterMs = 3 * LEASE_MS;
    const before = requests;
    const created = await call(child, token, 'POST', URL, { ...HOME, house_number: '16' });
    expect(created.status).toBe(200);
    let job: Record<string, any> = {};
    await until(
      'the job to finish',
      async () => {
        job = (await call(child!, token, 'GET', `/v1/calculation-jobs/${created.body['id']}`)).body;
        return job['calculation_job_status'] === 'FINISHED' || job['calculation_job_status'] === 'FAILED';
      },
      60_000,
    );
    answerAfterMs = 0;
    expect(job['calculation_job_status'], JSON.stringify(job['metadata'])).toBe('FINISHED');
    expect(job['metadata'].data_quality.sources.building_width).toBe('LIDAR');
    // Any other worker (16 wait beside it) that took the job after the first lease would have asked LiDAR again.
    expect(requests - before).toBe(1);
  });
});
