import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { untilFinal, untilRenovation } from './jobs.ts';
import { ADMIN_TOKEN, startStack, type Stack } from './stack.ts';
import { receiver } from './webhook-receiver.ts';

/**
 * Calculation jobs over HTTP, as a client coded against the interface and docs/job-metadata.md uses them:
 * create, poll until FINISHED, read the trajectory and the renovation it made.
 */
let stack: Stack;
let api: ReturnType<Stack['as']>;
const URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const REQUIRED = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' };
/** Uninsulated 1960 semi-detached Flemish house, non-condensing gas boiler, single glazing (the reference case). */
const REFERENCE = {
  ...REQUIRED,
  roof_type: 'INCLINED',
  inclined_roof_insulation_type: 'NONE',
  outer_wall_insulation_type: 'NONE',
  has_cavity_wall: true,
  cavity_wall_width: 'EQUAL_OR_MORE_THAN_5_CM',
  has_cavity_wall_insulation: false,
  basement_type: 'NONE',
  solid_ground_floor_insulation_type: 'NONE',
  window_glazing_type: 'SINGLE_GLAZING',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
  installation_age: 'OLDER_THAN_TEN_YEARS',
  sanitary_heating_device: 'NOT_SEPARATED',
  street: 'Veldstraat',
  house_number: '12',
  place: 'Gent',
  title: 'Veldstraat 12',
  description: 'Reference house',
};
const JOB_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'external_id',
  'deactivated_at',
  'calculation_job_type',
  'calculation_job_status',
  'metadata',
  'estate_id',
  'name',
  'description',
  'expires_at',
  'published_at',
];
const METADATA_FIELDS = [
  'renovation_id',
  'region',
  'energy_efficiency_type',
  'current',
  'steps',
  'totals',
  'energy_efficiency_indication',
  'final_epc_score',
  'confidence_score',
  'quality_label',
  'expected_price_error',
  'data_quality',
  'versions',
];
const STEP_FIELDS = [
  'order',
  'root_renovation_component_type',
  'renovation_component_type',
  'title',
  'quantity',
  'unit',
  'estimated_cost',
  'estimated_vat_cost',
  'subsidy_amount',
  'net_cost',
  'supporting_works',
  'epc_score_after',
  'epc_label_after',
  'energy_savings_kwh_per_year',
  'co2_savings_kg_per_year',
  'cost_savings_eur_per_year',
  'rationale',
];
const FLEMISH_LABELS = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'];
const ENVELOPE_ROOTS = ['ROOF_INSULATION', 'OUTER_WALL_INSULATION', 'FLOOR_INSULATION', 'WINDOWS'];
const cents = (x: number) => Math.round(x * 100);

beforeAll(async () => {
  stack = await startStack({ RENOPATH_ALLOW_PRIVATE_NETWORK: 'true', RENOPATH_WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms' });
  api = stack.as(await stack.token());
});
afterAll(async () => stack?.close());

describe('a job with only the five required fields', () => {
  it('is answered with every job field and its estate at once, then FINISHES with every metadata field', async () => {
    const res = await api.post(URL, REQUIRED);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    expect(Object.keys(job).sort()).toEqual([...JOB_FIELDS].sort());
    expect(job.calculation_job_type).toBe('SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION');
    expect(['NOT_STARTED', 'RUNNING', 'FINISHED']).toContain(job.calculation_job_status);
    expect(job.estate_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(job.expires_at) - Date.parse(job.created_at)).toBe(30 * 24 * 3600 * 1000);
    // The estate the request describes exists as soon as the job is answered.
    const estate = await api.get(`/estates/${job.estate_id}`);
    expect(estate.statusCode, estate.body).toBe(200);
    expect(estate.json().year_built).toBe(1960);

    const done = await untilFinal(api, job.id);
    expect(done.calculation_job_status, JSON.stringify(done.metadata)).toBe('FINISHED');
    expect(done.published_at).not.toBeNull();
    for (const f of METADATA_FIELDS) expect(done.metadata, f).toHaveProperty(f);
    const m = done.metadata;
    // The renovation made of the steps reads back with the plan's totals, a roof step included
    // (the request named no roof: the job adds the roof the model assumed).
    const renovation = (await api.get(`/renovations/${m.renovation_id}`)).json();
    expect(cents(renovation.estimated_cost)).toBe(cents(m.totals.estimated_cost));
    expect(cents(renovation.subsidy_amount)).toBe(cents(m.totals.subsidy_amount));
    expect(renovation.energy_efficiency_indication).toBe(m.energy_efficiency_indication);
    expect(m.region).toBe('FLANDERS');
    expect(m.energy_efficiency_type).toBe('EPC_FLANDERS');
    expect(Object.keys(m.current).sort()).toEqual([
      'co2_kg_per_year',
      'energy_cost_eur_per_year',
      'epc_label',
      'epc_score',
      'heating_need_kwh_per_year',
      'primary_energy_kwh_per_year',
    ]);
    // Only the required fields: mostly assumptions, so quality D (docs/job-metadata.md, docs/domain.md "Confidence").
    expect(m.confidence_score).toBeLessThan(0.6);
    expect(m.quality_label).toBe('D');
    expect(m.expected_price_error.average_pct).toBeGreaterThanOrEqual(20);
    expect(m.data_quality.sources.year_built).toBe('INPUT');
    expect(m.versions).toEqual({ model: expect.any(String), catalogue: expect.any(String) });
    expect(m.energy_efficiency_indication).toBe(m.steps.length ? m.steps.at(-1).epc_label_after : m.current.epc_label);
  });
});

describe('the reference house (issue: calculation jobs, done when)', () => {
  let job: { id: string; estate_id: string; metadata: Record<string, any> };
  beforeAll(async () => {
    const res = await api.post(URL, REFERENCE);
    expect(res.statusCode, res.body).toBe(200);
    job = await untilFinal(api, res.json().id);
    expect((job as unknown as { calculation_job_status: string }).calculation_job_status).toBe('FINISHED');
  });

  it('has at least four steps, the envelope before the heat pump, each envelope and heating step better than the one before', () => {
    const { steps, current } = job.metadata;
    expect(steps.length).toBeGreaterThanOrEqual(4);
    for (const step of steps) for (const f of STEP_FIELDS) expect(step, f).toHaveProperty(f);
    expect(steps.map((s: { order: number }) => s.order)).toEqual(steps.map((_: unknown, i: number) => i + 1));
    let before = current.epc_score;
    for (const step of steps) {
      // No step raises the score (ventilation joins the step that makes the home airtight); an oil tank's removal or new radiators change no figure.
      expect(step.epc_score_after).toBeLessThanOrEqual(before);
      if (!['OIL_TANK', 'HEAT_EMITTERS'].includes(step.element)) expect(step.epc_score_after).toBeLessThan(before);
      expect(step.rationale.length).toBeGreaterThan(20);
      before = step.epc_score_after;
    }
    const heatPump = steps.findIndex(
      (s: { renovation_component_type: string }) =>
        /HEAT_PUMP/.test(s.renovation_component_type) && !/BOILER/.test(s.renovation_component_type),
    );
    const envelope = steps
      .map((s: { root_renovation_component_type: string }, i: number) =>
        ENVELOPE_ROOTS.includes(s.root_renovation_component_type) ? i : -1,
      )
      .filter((i: number) => i >= 0);
    expect(envelope.length).toBeGreaterThanOrEqual(2);
    // The reference house ends on a heat pump, after the envelope.
    expect(heatPump).toBeGreaterThanOrEqual(0);
    expect(Math.max(...envelope)).toBeLessThan(heatPump);
  });

  it('totals are the sums of the steps, and the final label is at least three classes better', () => {
    const { steps, totals, current } = job.metadata;
    const sum = (f: string) => steps.reduce((s: number, x: Record<string, number>) => s + cents(x[f]!), 0);
    expect(cents(totals.estimated_cost)).toBe(sum('estimated_cost'));
    expect(cents(totals.estimated_vat_cost)).toBe(sum('estimated_vat_cost'));
    expect(cents(totals.subsidy_amount)).toBe(sum('subsidy_amount'));
    expect(cents(totals.net_cost)).toBe(sum('net_cost'));
    expect(cents(totals.total_estimated_cost_incl_vat)).toBe(cents(totals.estimated_cost) + cents(totals.estimated_vat_cost));
    expect(job.metadata.final_epc_score).toBe(steps.at(-1).epc_score_after);
    const from = FLEMISH_LABELS.indexOf(current.epc_label);
    const to = FLEMISH_LABELS.indexOf(job.metadata.energy_efficiency_indication);
    expect(from - to).toBeGreaterThanOrEqual(3);
  });

  it('marks the Flemish renovation obligation on the step that reaches it', () => {
    const marked = job.metadata.steps.filter((s: { renovation_obligation: unknown }) => s.renovation_obligation !== null);
    expect(marked.length).toBeGreaterThanOrEqual(1);
    const first = marked[0];
    const index = FLEMISH_LABELS.indexOf(first.epc_label_after);
    expect(index).toBeLessThanOrEqual(FLEMISH_LABELS.indexOf(first.renovation_obligation.label));
    const earlier = job.metadata.steps.filter((s: { order: number }) => s.order < first.order);
    for (const s of earlier)
      expect(FLEMISH_LABELS.indexOf(s.epc_label_after)).toBeGreaterThan(FLEMISH_LABELS.indexOf(first.renovation_obligation.label));
  });

  it('made a renovation whose items are the steps, with the same totals through the renovations endpoints', async () => {
    const { renovation_id, steps, totals } = job.metadata;
    const renovation = await api.get(`/renovations/${renovation_id}`);
    expect(renovation.statusCode, renovation.body).toBe(200);
    expect(renovation.json().estate_id).toBe(job.estate_id);
    expect(cents(renovation.json().estimated_cost)).toBe(cents(totals.estimated_cost));
    expect(cents(renovation.json().estimated_vat_cost)).toBe(cents(totals.estimated_vat_cost));
    expect(cents(renovation.json().subsidy_amount)).toBe(cents(totals.subsidy_amount));
    expect(renovation.json().energy_efficiency_indication).toBe(job.metadata.energy_efficiency_indication);
    const overview = await api.get(`/v1/renovations/${renovation_id}/overview`);
    expect(overview.statusCode).toBe(200);
    const { summary, details } = overview.json();
    expect(cents(summary.total_estimated_cost)).toBe(cents(totals.estimated_cost));
    expect(cents(summary.total_subsidy_amount)).toBe(cents(totals.subsidy_amount));
    const types = [...details.general, ...details.roofs.flatMap((r: { items: unknown[] }) => r.items)]
      .map((i: any) => i.renovation_component_type)
      .sort();
    // Each step's measure, and a measure joined to a step as its supporting work (ventilation with the airtight step).
    const planned = steps.flatMap(
      (s: { renovation_component_type: string; supporting_works: { joined?: boolean; renovation_component_type: string }[] }) => [
        s.renovation_component_type,
        ...s.supporting_works.filter((w) => w.joined).map((w) => w.renovation_component_type),
      ],
    );
    expect(types).toEqual(planned.sort());
  });
});

describe('a roof step for a roof the request did not describe', () => {
  it("adds the roof the model assumed to the estate, places the step on it, and the renovation has the plan's totals", async () => {
    const res = await api.post(URL, { ...REQUIRED, year_built: 1930, attic_usage: 'LIVING_SPACE' });
    const job = await untilFinal(api, res.json().id);
    expect(job.calculation_job_status, JSON.stringify(job.metadata)).toBe('FINISHED');
    const roofStep = job.metadata.steps.find((s: { scope: string }) => s.scope === 'ROOF');
    expect(roofStep).toBeDefined();
    const roofs = (await api.get(`/estates/${job.estate_id}/roofs`)).json();
    expect(roofs.map((r: { estate_roof_type: string }) => r.estate_roof_type)).toEqual([roofStep.roof_kind]);
    // The roof's kind is the model's assumption, not the client's word.
    expect(job.metadata.data_quality.sources.roof_type).toBe('MODEL');
    const renovationId = job.metadata.renovation_id;
    const overview = (await api.get(`/v1/renovations/${renovationId}/overview`)).json();
    expect(overview.details.roofs[0].roof_id).toBe(roofs[0].id);
    expect(overview.details.roofs[0].items.map((i: { renovation_component_type: string }) => i.renovation_component_type)).toEqual([
      roofStep.renovation_component_type,
    ]);
    expect(cents(overview.summary.total_estimated_cost)).toBe(cents(job.metadata.totals.estimated_cost));
    expect(cents(overview.summary.total_subsidy_amount)).toBe(cents(job.metadata.totals.subsidy_amount));
    expect((await api.get(`/renovations/${renovationId}`)).json().energy_efficiency_indication).toBe(
      job.metadata.energy_efficiency_indication,
    );
  });
});

describe('a Dutch home whose postal code is written with its four digits only', () => {
  it('is answered and FINISHES on the Dutch scale, like the same code with its letters', async () => {
    const body = { year_built: 1930, estate_format: 'CLOSED', habitable_space_m2: 110, country: 'NL' };
    const short = await untilFinal(api, (await api.post(URL, { ...body, zip_code: '3731' })).json().id);
    const full = await untilFinal(api, (await api.post(URL, { ...body, zip_code: '3731 AB' })).json().id);
    expect(short.calculation_job_status, JSON.stringify(short.metadata)).toBe('FINISHED');
    expect(short.metadata.energy_efficiency_type).toBe('ENERGY_LABEL_NL');
    expect(short.metadata.current.epc_score).toBe(full.metadata.current.epc_score);
  });
});

describe('estates, lists and the stop call', () => {
  it('the same organization and external_id name the same estate, which the second job updates', async () => {
    const first = (await api.post(URL, { ...REQUIRED, external_id: 'crm-4711' })).json();
    await untilFinal(api, first.id);
    const second = await api.post(URL, { ...REQUIRED, external_id: 'crm-4711', habitable_space_m2: 180 });
    expect(second.statusCode).toBe(200);
    expect(second.json().estate_id).toBe(first.estate_id);
    await untilFinal(api, second.json().id);
    expect((await api.get(`/estates/${first.estate_id}`)).json().habitable_space_m2).toBe(180);

    const list = await api.get('/v1/calculation-jobs?external_id=crm-4711');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((j: { id: string }) => j.id)).toEqual([second.json().id, first.id]);
    expect(list.json().total).toBe(2);
  });

  it('another organization does not see the job (404), and an unknown id is 404', async () => {
    const mine = (await api.post(URL, REQUIRED)).json();
    const other = stack.as((await stack.tenant('Other Agency', 'other@agency.example')).token);
    expect((await other.get(`/v1/calculation-jobs/${mine.id}`)).statusCode).toBe(404);
    expect((await other.post(`/v1/calculation-jobs/${mine.id}/stop`, {})).statusCode).toBe(404);
    expect((await other.get('/v1/calculation-jobs')).json().data).toEqual([]);
    expect((await api.get('/v1/calculation-jobs/5b0e8f9e-9a53-4a3c-8c1e-2d4c6f0a1b2c')).statusCode).toBe(404);
    expect((await api.get('/v1/calculation-jobs/not-a-uuid')).statusCode).toBe(404);
  });

  it("a CLIENT member of the job's estate reads the job but cannot stop it; other clients do not see it", async () => {
    const job = await untilFinal(api, (await api.post(URL, { ...REQUIRED, external_id: 'crm-client-1' })).json().id);
    const invite = await api.post(`/estates/${job.estate_id}/members`, {
      email_address: 'buyer@jobs.example',
      first_name: 'Bo',
      last_name: 'Buyer',
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const member = invite.json();
    // The invitee redeems the code mailed to them (the embedded outbox).
    const outbox = await stack.app.inject({
      method: 'GET',
      url: `/admin/outbox?to=${encodeURIComponent('buyer@jobs.example')}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const codes = ((outbox.json() as Array<{ text: string }>).at(-1)?.text ?? '').match(/[A-Za-z0-9._-]{20,400}/g) ?? [];
    let accepted = false;
    for (const token of codes)
      if (!accepted)
        accepted = (await stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } })).statusCode === 200;
    expect(accepted).toBe(true);
    const client = stack.as(await stack.clientToken(member.user_id ?? member.id, ['estates', 'renovations', 'calculations']));
    const seen = await client.get(`/v1/calculation-jobs/${job.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect((await client.post(`/v1/calculation-jobs/${job.id}/stop`, {})).statusCode).toBe(403);
    expect((await client.get('/v1/calculation-jobs')).json().data.map((j: { id: string }) => j.id)).toEqual([job.id]);
    // A job on another estate of the same organization stays hidden from them.
    const other = (await api.post(URL, REQUIRED)).json();
    expect((await client.get(`/v1/calculation-jobs/${other.id}`)).statusCode).toBe(404);
  });

  it('a token with only the calculations scope runs a job to FINISHED, with its estate and renovation, but cannot write an estate itself', async () => {
    const me = (await api.get('/v1/users/me')).json()[0];
    const calculations = stack.as(await stack.clientToken(me.id, ['calculations']));
    const created = await calculations.post(URL, { ...REQUIRED, roof_type: 'INCLINED', inclined_roof_insulation_type: 'NONE' });
    expect(created.statusCode, created.body).toBe(200);
    const job = await untilFinal(calculations, created.json().id);
    expect(job.calculation_job_status, JSON.stringify(job)).toBe('FINISHED');
    // What the job wrote is there for a client with the scopes to read it.
    expect((await api.get(`/v1/estates/${job.estate_id}`)).statusCode).toBe(200);
    expect((await untilRenovation(api, job.metadata.renovation_id)).statusCode).toBe(200);
    // The token itself writes no estate: the job's scope is not the estates' one.
    const own = await calculations.post('/v1/estates', {
      address: { street: 'Kouter', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' },
      year_built: 1960,
    });
    expect(own.statusCode, own.body).toBe(403);
    expect((await calculations.patch(`/v1/estates/${job.estate_id}`, { year_built: 1961 })).statusCode).toBe(403);
  });

  it('stopping a finished job is 409', async () => {
    const job = (await api.post(URL, REQUIRED)).json();
    await untilFinal(api, job.id);
    const res = await api.post(`/v1/calculation-jobs/${job.id}/stop`, {});
    expect(res.statusCode).toBe(409);
  });
});

describe('webhooks (docs/webhooks.md)', () => {
  it('delivers a signed calculation_job.finished, retried after a 500 with the same webhook id, then never again', async () => {
    const hook = await receiver((n) => (n === 1 ? 500 : 204));
    try {
      const tenant = await stack.tenant('Hooked Agency', 'hooks@agency.example');
      const a = stack.as(tenant.token);
      const job = (await a.post(URL, { ...REQUIRED, webhook_url: hook.url })).json();
      await untilFinal(a, job.id);
      const deadline = Date.now() + 10_000;
      while (hook.calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 400));
      expect(hook.calls).toHaveLength(2);
      const [first, second] = hook.calls;
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      const wh = new Webhook(tenant.webhook_secret);
      const payload = wh.verify(second!.body, {
        'webhook-id': String(second!.headers['webhook-id']),
        'webhook-timestamp': String(second!.headers['webhook-timestamp']),
        'webhook-signature': String(second!.headers['webhook-signature']),
      }) as Record<string, any>;
      expect(payload.type).toBe('calculation_job.finished');
      expect(payload.data.id).toBe(job.id);
      expect(payload.data.calculation_job_status).toBe('FINISHED');
      const deliveries = await a.get(`/v1/calculation-jobs/${job.id}/webhook-deliveries`);
      expect(deliveries.statusCode).toBe(200);
      expect(deliveries.json()[0].status).toBe('DELIVERED');
      expect(deliveries.json()[0].attempts.map((x: { status_code: number }) => x.status_code)).toEqual([500, 204]);
    } finally {
      await hook.close();
    }
  });
});

describe('the synchronous indication (docs/http-contract.md "The indication")', () => {
  it('answers 201 with the record and lists it', async () => {
    const body = {
      year_built: 1975,
      eco_facilities: ['SOLAR_PANELS'],
      estate_roof_type: 'INCLINED',
      habitable_space_m2: 120,
      outer_wall_insulation_type: 'LIGHT',
      roof_insulation_type: 'MODERATE',
      window_type: 'DOUBLE_GLAZING',
      ventilation_type: 'SYSTEM_A',
      heating_device: 'CONDENSING_BOILER',
      ground_floor_type: 'SOLID_GROUND_FLOOR',
      ground_floor_insulation_type: 'NONE',
      estate_type: 'HOUSE',
      sanitary_heating_device: 'NOT_SEPARATED',
      heating_type: 'GAS',
    };
    const res = await api.post('/calculations?calculation_type=ENERGY_EFFICIENCY', body);
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(Object.keys(record).sort()).toEqual(['calculation_status', 'calculation_type', 'id', 'metadata']);
    expect(record.calculation_status).toBe('FINISHED');
    expect(record.calculation_type).toBe('ENERGY_EFFICIENCY');
    expect(FLEMISH_LABELS).toContain(record.metadata.epc_label);
    expect(record.metadata.disclaimer).toMatch(/indicative/i);
    expect((await api.get(`/calculations/${record.id}`)).json()).toEqual(record);
    expect((await api.get('/v1/calculations')).json().map((r: { id: string }) => r.id)).toContain(record.id);
  });

  it('refuses other calculation types with 400', async () => {
    const res = await api.post('/calculations?calculation_type=TRAJECTORY', { year_built: 1975, habitable_space_m2: 120 });
    expect(res.statusCode).toBe(400);
  });
});
