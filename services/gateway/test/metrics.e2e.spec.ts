import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startStack, type Stack } from './stack.ts';

/**
 * /metrics as an operator's Prometheus scrapes it, after a job with a webhook went through every
 * context (two of them in threads of their own by default on two cores): the families docs/operations.md
 * lists, with values that follow from what the test did.
 */
let stack: Stack;
let receiver: Server;
let received = 0;
const REQUIRED = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format's samples (`name{a="x",b="y"} value`), comments left out. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

const pick = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const total = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  pick(all, name, labels).reduce((sum, s) => sum + s.value, 0);

async function scrape(): Promise<Sample[]> {
  const res = await stack.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(res.body);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  stack = await startStack({ RENOPATH_ALLOW_PRIVATE_NETWORK: 'true' }, { mode: 'embedded' });
  const api = stack.as(await stack.token());
  const webhook_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const created = await api.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', { ...REQUIRED, webhook_url });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().id;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await api.get(`/v1/calculation-jobs/${id}`)).json();
    if (job.calculation_job_status === 'FINISHED' && received > 0) break;
    if (Date.now() > deadline) throw new Error(`job ${id} is ${job.calculation_job_status}, ${received} webhooks received`);
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('GET /metrics', () => {
  it('is refused without the admin token', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(401);
  });

  it('counts the HTTP requests by route pattern, method and status, with their durations', async () => {
    const all = await scrape();
    const created = { route: '/v1/calculation-jobs/suggested-renovation-trajectory-calculation', method: 'POST', status: '200' };
    expect(total(all, 'renopath_http_request_duration_seconds_count', created)).toBe(1);
    expect(total(all, 'renopath_http_request_duration_seconds_sum', created)).toBeGreaterThan(0);
    // Polls of one job are one series, under the route's pattern rather than the job's URL.
    const polls = pick(all, 'renopath_http_request_duration_seconds_count', { method: 'GET', status: '200' }).map((s) => s.labels['route']);
    expect(polls).toContain('/v1/calculation-jobs/:calculation_job_id');
    expect(polls.some((route) => /[0-9a-f]{8}-/.test(route!))).toBe(false);
    const buckets = pick(all, 'renopath_http_request_duration_seconds_bucket', created);
    expect(buckets.find((s) => s.labels['le'] === '+Inf')?.value).toBe(1);
  });

  it('counts the job through its statuses, with its duration, attempts and the queue depth', async () => {
    const all = await scrape();
    expect(total(all, 'renopath_jobs_total', { status: 'NOT_STARTED' })).toBe(1);
    expect(total(all, 'renopath_jobs_total', { status: 'RUNNING' })).toBe(1);
    expect(total(all, 'renopath_jobs_total', { status: 'FINISHED' })).toBe(1);
    expect(total(all, 'renopath_jobs_total', { status: 'FAILED' })).toBe(0);
    expect(total(all, 'renopath_job_duration_seconds_count', { status: 'FINISHED' })).toBe(1);
    const seconds = total(all, 'renopath_job_duration_seconds_sum', { status: 'FINISHED' });
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(30);
    expect(total(all, 'renopath_job_attempts_sum', { status: 'FINISHED' })).toBe(1);
    expect(pick(all, 'renopath_job_queue_depth')).toEqual([{ name: 'renopath_job_queue_depth', labels: {}, value: 0 }]);
  });

  it('counts the webhook delivery by outcome', async () => {
    // The receiver has the call before the service has its answer and records the outcome.
    await expect
      .poll(async () => total(await scrape(), 'renopath_webhook_deliveries_total', { outcome: 'delivered' }), { timeout: 30_000 })
      .toBe(received);
    const all = await scrape();
    expect(total(all, 'renopath_webhook_deliveries_total', { outcome: 'delivered' })).toBe(received);
    expect(total(all, 'renopath_webhook_deliveries_total', { outcome: 'gave_up' })).toBe(0);
    expect(total(all, 'renopath_webhook_delivery_duration_seconds_count')).toBe(received);
  });

  it('times event-store appends per context and bus requests per subject', async () => {
    const all = await scrape();
    for (const context of ['identity', 'estates', 'renovations', 'calculations']) {
      expect(total(all, 'renopath_event_store_append_duration_seconds_count', { context, outcome: 'ok' }), context).toBeGreaterThan(0);
    }
    expect(
      total(all, 'renopath_bus_request_duration_seconds_count', { subject: 'cmd.calculations.create-trajectory-job', outcome: 'ok' }),
    ).toBe(1);
    expect(pick(all, 'renopath_bus_request_duration_seconds_count').length).toBeGreaterThan(3);
  });

  it("reports the lag of each context's projections, process managers and relay, caught up once the job is done", async () => {
    const all = await scrape();
    const lags = pick(all, 'renopath_projection_lag_events');
    for (const context of ['identity', 'estates', 'renovations', 'calculations', 'reporting']) {
      expect(lags.filter((s) => s.labels['context'] === context).map((s) => s.labels['kind'])).toEqual(
        expect.arrayContaining(['projection', 'relay']),
      );
    }
    expect(lags.every((s) => Number.isInteger(s.value) && s.value >= 0)).toBe(true);
    expect(lags.find((s) => s.labels['context'] === 'calculations' && s.labels['name'] === 'calculations-final-states')).toBeDefined();
    const reactors = pick(all, 'renopath_reactor_lag_seconds');
    expect(reactors.length).toBeGreaterThan(0);
    expect(reactors.every((s) => s.value >= 0 && s.value < 60)).toBe(true);
  });

  it('has the process metrics once, though contexts run in threads', async () => {
    const all = await scrape();
    expect(pick(all, 'renopath_process_cpu_user_seconds_total')).toHaveLength(1);
    expect(total(all, 'renopath_process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(pick(all, 'renopath_nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });
});
