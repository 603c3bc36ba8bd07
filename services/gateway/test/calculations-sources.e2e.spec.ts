import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, flemishEpcPages } from '@renopath/calculations/epc-document/testing.ts';
import { startStack, type Stack } from './stack.ts';

/**
 * Where a job's data comes from (docs/job-metadata.md `data_quality`, docs/domain.md "Confidence"): an EPC document downloaded
 * from `epc_url`, LiDAR geometry and the energy provider, each working and failing, served by a
 * local server; and the guard that keeps downloads and webhooks off private addresses.
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

type Mode = 'ok' | 'fail';
const modes: { lidar: Mode; energy: Mode } = { lidar: 'ok', energy: 'ok' };
const calls = { lidar: 0, energy: 0 };
let server: Server;
let base = '';
let pdf: Uint8Array;

/** A job ends within its attempts' leases: three of the default 30 s (services/calculations config). */
const JOB_ENDS_WITHIN_MS = 3 * 30_000;
async function untilFinal(a: ReturnType<Stack['as']>, id: string) {
  const deadline = Date.now() + JOB_ENDS_WITHIN_MS;
  for (;;) {
    const job = (await a.get(`/v1/calculation-jobs/${id}`)).json();
    if (['FINISHED', 'FAILED', 'STOPPED'].includes(job.calculation_job_status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.calculation_job_status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  pdf = await buildPdf(flemishEpcPages({ score: '312', label: 'D', yearBuilt: '1965' }));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/epc.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf));
      if (req.url === '/missing.pdf') return res.writeHead(404).end();
      if (req.url === '/lidar') {
        calls.lidar++;
        if (modes.lidar === 'fail') return res.writeHead(500).end();
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            building_width: 7.5,
            building_depth: 10.2,
            inclined_roof_pane_surface: 86,
            flat_roof_pane_surface: 0,
            cornice_height: 6.1,
          }),
        );
      }
      if (req.url === '/energy/impact') {
        calls.energy++;
        if (modes.energy === 'fail') return res.writeHead(503).end();
        // A provider that expects almost nothing of the renovation: the model's improvement is flagged as doubtful.
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ score_before: 395, score_after: 390, energy_efficiency_type: 'EPC_FLANDERS' }));
      }
      if (req.url === '/energy/score') {
        calls.energy++;
        if (modes.energy === 'fail') return res.writeHead(503).end();
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ energy_efficiency_score: 395, energy_efficiency_type: 'EPC_FLANDERS' }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((r) => server.close(r)));

describe('with an EPC document, LiDAR and the energy provider configured', () => {
  let stack: Stack;
  let api: ReturnType<Stack['as']>;
  beforeAll(async () => {
    stack = await startStack({
      RENOPATH_ALLOW_PRIVATE_NETWORK: 'true',
      RENOPATH_LIDAR_URL: `${base}/lidar`,
      RENOPATH_ENERGY_PROVIDER_URL: `${base}/energy`,
      RENOPATH_PROVIDER_TIMEOUT_MS: '1000',
      RENOPATH_PROVIDER_BREAKER_VOLUME: '2',
      RENOPATH_PROVIDER_BREAKER_RESET_MS: '600000',
    });
    api = stack.as(await stack.token());
  });
  afterAll(async () => stack?.close());

  it('reads the EPC document in its own job and takes its figures as EPC_DOCUMENT data', async () => {
    const job = await untilFinal(api, (await api.post(URL, { ...HOME, epc_url: `${base}/epc.pdf` })).json().id);
    expect(job.calculation_job_status, JSON.stringify(job.metadata)).toBe('FINISHED');
    const childId = job.metadata.epc_document_job_id;
    expect(childId).toMatch(/^[0-9a-f-]{36}$/);
    const child = (await api.get(`/v1/calculation-jobs/${childId}`)).json();
    expect(child.calculation_job_type).toBe('EPC_DOCUMENT_PROCESSING');
    expect(child.calculation_job_status).toBe('FINISHED');
    expect(child.estate_id).toBe(job.estate_id);
    expect(child.metadata.fields.energy_efficiency_score).toBe(312);
    expect(job.metadata.data_quality.sources.energy_efficiency_score).toBe('EPC_DOCUMENT');
    // The certificate's own score is the current score the trajectory starts from.
    expect(job.metadata.current.epc_label).toBe('D');
  });

  it('a document that cannot be downloaded fails its own job; the trajectory still finishes, flagged', async () => {
    const job = await untilFinal(api, (await api.post(URL, { ...HOME, epc_url: `${base}/missing.pdf` })).json().id);
    expect(job.calculation_job_status).toBe('FINISHED');
    const child = (await api.get(`/v1/calculation-jobs/${job.metadata.epc_document_job_id}`)).json();
    expect(child.calculation_job_status).toBe('FAILED');
    expect(child.metadata.error.code).toBe('EPC_DOWNLOAD_FAILED');
    expect(job.metadata.data_quality.flags.map((f: { field: string }) => f.field)).toContain('epc_url');
  });

  it("LiDAR geometry and the provider's score fill the gaps; when both fail (breaker open) the job finishes with lower confidence", async () => {
    modes.lidar = 'ok';
    modes.energy = 'ok';
    const good = await untilFinal(api, (await api.post(URL, HOME)).json().id);
    expect(good.calculation_job_status).toBe('FINISHED');
    expect(good.metadata.data_quality.sources.building_width).toBe('LIDAR');
    expect(good.metadata.data_quality.sources.energy_efficiency_score).toBe('PROVIDER');
    // The provider's view of the renovation's impact is a cross-check: a large gap is flagged, the figures stay the model's.
    expect(good.metadata.data_quality.flags.map((f: { code: string }) => f.code)).toContain('PROVIDER_IMPACT_MISMATCH');

    modes.lidar = 'fail';
    modes.energy = 'fail';
    let bad = await untilFinal(api, (await api.post(URL, HOME)).json().id);
    expect(bad.calculation_job_status).toBe('FINISHED');
    expect(bad.metadata.data_quality.sources.building_width).not.toBe('LIDAR');
    expect(bad.metadata.data_quality.sources.energy_efficiency_score).not.toBe('PROVIDER');
    expect(bad.metadata.data_quality.flags.map((f: { code: string }) => f.code)).toContain('PROVIDER_UNAVAILABLE');
    expect(bad.metadata.confidence_score).toBeLessThan(good.metadata.confidence_score);
    // After enough failures in the window the breakers open: jobs still finish, and nothing more
    // reaches the failing services.
    let quiet = false;
    for (let i = 0; i < 10 && !quiet; i++) {
      const before = { ...calls };
      bad = await untilFinal(api, (await api.post(URL, HOME)).json().id);
      expect(bad.calculation_job_status).toBe('FINISHED');
      quiet = calls.lidar === before.lidar && calls.energy === before.energy;
    }
    expect(quiet).toBe(true);
    const before = { ...calls };
    const again = await untilFinal(api, (await api.post(URL, HOME)).json().id);
    expect(again.calculation_job_status).toBe('FINISHED');
    expect(again.metadata.data_quality.flags.map((f: { code: string }) => f.code)).toContain('PROVIDER_UNAVAILABLE');
    expect(calls).toEqual(before);
  });
});

describe('without RENOPATH_ALLOW_PRIVATE_NETWORK', () => {
  let stack: Stack;
  let api: ReturnType<Stack['as']>;
  beforeAll(async () => {
    stack = await startStack({ RENOPATH_WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
    api = stack.as(await stack.token());
  });
  afterAll(async () => stack?.close());

  it.each([
    ['loopback', 'http://127.0.0.1:9/epc.pdf'],
    ['10/8', 'http://10.1.2.3/epc.pdf'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]/epc.pdf'],
    ['a decimal IPv4', 'http://2130706433/epc.pdf'],
    ['a name resolving to loopback', 'http://localhost/epc.pdf'],
  ])('refuses an EPC document on %s', async (_name, url) => {
    const job = await untilFinal(api, (await api.post(URL, { ...HOME, epc_url: url })).json().id);
    expect(job.calculation_job_status).toBe('FINISHED');
    const child = (await api.get(`/v1/calculation-jobs/${job.metadata.epc_document_job_id}`)).json();
    expect(child.calculation_job_status).toBe('FAILED');
    expect(child.metadata.error.code).toBe('EPC_URL_REFUSED');
  });

  it('refuses a webhook to a loopback receiver, and records why', async () => {
    const job = await untilFinal(api, (await api.post(URL, { ...HOME, webhook_url: `${base}/hook` })).json().id);
    const deadline = Date.now() + 5_000;
    let deliveries: any[] = [];
    while (Date.now() < deadline) {
      deliveries = (await api.get(`/v1/calculation-jobs/${job.id}/webhook-deliveries`)).json();
      if (deliveries[0]?.status === 'GAVE_UP') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries[0].status).toBe('GAVE_UP');
    expect(deliveries[0].attempts[0].error).toMatch(/refused|private|loopback/i);
  });
});
