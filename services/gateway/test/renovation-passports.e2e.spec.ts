import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { extractPdfText } from '@renopath/calculations/epc-document/index.ts';
import { startStack, type Stack } from './stack.ts';
import { untilRenovation } from './jobs.ts';
import { receiver } from './webhook-receiver.ts';

/**
 * The renovation passport's whole life over HTTP, as an advisor's office and a bank use it: draft from
 * a finished trajectory job, schema-valid answers, the site visit before the signature, the signature
 * checked with a generic JOSE library against the published keys, a signed passport final, the next
 * version, the PDF in four languages, the public verification page, the signed passport's webhook,
 * and who may see and write what. It runs embedded and on the distributed stack (nats-postgres).
 */
let stack: Stack;
let api: ReturnType<Stack['as']>;
let validate: (value: unknown) => boolean;
let validationErrors: () => unknown;

const JOBS = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const PASSPORTS = '/v1/renovation-passports';
const LANGUAGES = ['nl-BE', 'fr-BE', 'en', 'nl-NL'] as const;
/** The passport's title in each language, as a reader sees it on the PDF. */
const TITLES: Record<(typeof LANGUAGES)[number], string> = {
  'nl-BE': 'Renovatiepaspoort',
  'fr-BE': 'Passeport de rénovation',
  en: 'Renovation passport',
  'nl-NL': 'Renovatiepaspoort',
};
/** An uninsulated 1960 semi-detached house in Ghent with a non-condensing gas boiler. */
const HOUSE = {
  year_built: 1960,
  estate_format: 'SEMI_OPEN',
  habitable_space_m2: 150,
  zip_code: '9000',
  country: 'BE',
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
};
const VISIT = {
  date: '2026-11-30',
  advisor_name: 'Els Peeters',
  accreditation_number: 'EP-2026-0417',
  notes: 'Roof timbers sound; cavity 6 cm checked by borescope.',
};
const SIGNER = { advisor_name: 'Els Peeters', accreditation_number: 'EP-2026-0417' };
const spaces = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');

/** RFC 8785 written here again, apart from the service's, so the test checks the hash rather than repeating it. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${jcs((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function finishedJob(a: ReturnType<Stack['as']>, body: object) {
  const res = await a.post(JOBS, body);
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as string;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (await a.get(`/v1/calculation-jobs/${id}`)).json();
    if (job.calculation_job_status === 'FINISHED') return (await untilRenovation(a, job.metadata.renovation_id), job);
    if (['FAILED', 'STOPPED'].includes(job.calculation_job_status)) throw new Error(`job ${id} ${job.calculation_job_status}`);
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.calculation_job_status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every answer is checked against the published schema. */
function valid(passport: unknown) {
  const ok = validate(passport);
  expect(ok, JSON.stringify(validationErrors())).toBe(true);
  return passport as any;
}

let job: any;
let draft: any;
let signed: any;
let second: any;

beforeAll(async () => {
  // Webhooks to a receiver on 127.0.0.1, retried quickly: the distributed projects' shared stack runs with these.
  stack = await startStack({ RENOPATH_ALLOW_PRIVATE_NETWORK: 'true', RENOPATH_WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms' });
  api = stack.as(await stack.token());
  job = await finishedJob(api, HOUSE);
  const schemaRes = await stack.app.inject({ method: 'GET', url: '/schemas/renovation-passport.json' });
  expect(schemaRes.statusCode).toBe(200);
  const schema = schemaRes.json();
  expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // Formats are checked too (uuid, date-time, date), as a strict consumer would.
  addFormats.default(ajv);
  const compiled = ajv.compile(schema);
  validate = (v) => compiled(v) as boolean;
  validationErrors = () => compiled.errors;
}, 120_000);
afterAll(async () => stack?.close());

describe('a passport from draft to signature', () => {
  it('drafts version 1 from the finished trajectory job, pre-filled with the building, the steps and the target', async () => {
    const res = await api.post(PASSPORTS, { calculation_job_id: job.id });
    expect(res.statusCode, res.body).toBe(201);
    draft = valid(res.json());
    expect(draft).toMatchObject({
      version: 1,
      status: 'DRAFT',
      estate_id: job.estate_id,
      calculation_job_id: job.id,
      signature: null,
      content_sha256: null,
    });
    const { content } = draft;
    expect(content.building.epc_label).toBe(job.metadata.current.epc_label);
    expect(content.building.address).toMatchObject({ street: 'Veldstraat', house_number: '12', zip_code: '9000' });
    expect(content.steps.map((s: any) => s.renovation_component_type)).toEqual(
      job.metadata.steps.map((s: any) => s.renovation_component_type),
    );
    expect(content.steps.at(-1).epc_label_after).toBe(job.metadata.energy_efficiency_indication);
    expect(content.totals.net_cost).toBeCloseTo(job.metadata.totals.net_cost, 1);
    expect(content.target).toMatchObject({ year: 2050 });
    expect(content.advice_contact.url).toMatch(/^https:\/\//);
    expect(content.site_visit).toBeNull();
    expect((await api.get(`${PASSPORTS}/${draft.id}`)).json()).toEqual(draft);
  });

  it('refuses a job that is not a finished trajectory, and an unknown job', async () => {
    expect((await api.post(PASSPORTS, { calculation_job_id: '5b0e8f9e-9a53-4a3c-8c1e-2d4c6f0a1b2c' })).statusCode).toBe(404);
    expect((await api.post(PASSPORTS, { calculation_job_id: 'nope' })).statusCode).toBe(400);
    expect((await api.post(PASSPORTS, { calculation_job_id: job.id, extra: 1 })).statusCode).toBe(400);
  });

  it('refuses to sign without a site visit (422)', async () => {
    const res = await api.post(`${PASSPORTS}/${draft.id}/sign`, SIGNER);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message.join(' ')).toContain('site_visit');
  });

  it("takes the site visit and the advisor's step edits, recomputing the totals", async () => {
    const first = draft.content.steps[0];
    const res = await api.patch(`${PASSPORTS}/${draft.id}`, {
      site_visit: VISIT,
      steps: [{ plan_order: first.plan_order, estimated_cost: first.estimated_cost + 1000, note: 'Roof battens to be replaced too' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const amended = valid(res.json());
    expect(amended.status).toBe('DRAFT');
    expect(amended.content.site_visit).toEqual(VISIT);
    expect(amended.content.steps[0].override).toEqual({
      quantity: null,
      estimated_cost: first.estimated_cost + 1000,
      note: 'Roof battens to be replaced too',
    });
    expect(amended.content.totals.estimated_cost).toBeCloseTo(draft.content.totals.estimated_cost + 1000, 2);
    // A note is required with an override; an unknown step is named.
    expect((await api.patch(`${PASSPORTS}/${draft.id}`, { steps: [{ plan_order: 1, quantity: 3 }] })).statusCode).toBe(400);
    const unknown = await api.patch(`${PASSPORTS}/${draft.id}`, { steps: [{ plan_order: 99, drop: true }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message.join(' ')).toContain('plan_order 99');
  });

  it('signs: the hash is of the canonical content and the JWS verifies with the published keys', async () => {
    const res = await api.post(`${PASSPORTS}/${draft.id}/sign`, SIGNER);
    expect(res.statusCode, res.body).toBe(200);
    signed = valid(res.json());
    expect(signed).toMatchObject({ status: 'SIGNED', signed_by: SIGNER });
    expect(signed.signed_at).toMatch(/Z$/);
    expect(signed.content_sha256).toBe(sha256(jcs(signed.content)));
    expect(signed.verification_url).toContain(`/renovation-passports/${signed.id}/verification`);

    const jwksRes = await stack.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(jwksRes.statusCode).toBe(200);
    const jwks = jwksRes.json() as JSONWebKeySet;
    const { payload, protectedHeader } = await compactVerify(signed.signature, createLocalJWKSet(jwks));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'renovation-passport+jws' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      passport_id: signed.id,
      version: 1,
      estate_id: signed.estate_id,
      content_sha256: signed.content_sha256,
      signed_by: SIGNER,
      signed_at: signed.signed_at,
    });
    // A signature is not a token: the gateway does not take it as a bearer.
    expect((await stack.as(signed.signature).get(`${PASSPORTS}/${signed.id}`)).statusCode).toBe(401);
    expect(jwks.keys.some((k) => k.kid === decodeProtectedHeader(signed.signature).kid)).toBe(true);
  });

  it('is final once signed: PATCH and sign answer 409, and the passport reads unchanged', async () => {
    expect((await api.patch(`${PASSPORTS}/${signed.id}`, { site_visit: { ...VISIT, notes: 'changed' } })).statusCode).toBe(409);
    expect((await api.post(`${PASSPORTS}/${signed.id}/sign`, SIGNER)).statusCode).toBe(409);
    expect((await api.get(`${PASSPORTS}/${signed.id}`)).json()).toEqual(signed);
  });

  it('a new passport of the same estate is version 2; version 1 stays as signed', async () => {
    const res = await api.post(PASSPORTS, { calculation_job_id: job.id });
    expect(res.statusCode, res.body).toBe(201);
    second = valid(res.json());
    expect(second).toMatchObject({ version: 2, status: 'DRAFT', estate_id: signed.estate_id });
    const list = await api.get(`/v1/estates/${signed.estate_id}/renovation-passports`);
    expect(list.statusCode).toBe(200);
    const passports = list.json() as any[];
    passports.forEach(valid);
    expect(passports.map((x) => [x.version, x.status])).toEqual([
      [1, 'SIGNED'],
      [2, 'DRAFT'],
    ]);
    expect(passports[0]).toEqual(signed);
  });
});

describe('the printable passport', () => {
  it.each(LANGUAGES)(
    '%s: a PDF with the title in that language, the steps, the site visit and the signature block with the hash',
    async (language) => {
      const res = await api.get(`${PASSPORTS}/${signed.id}/pdf?language=${language}`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      if (language === 'en' && process.env['RENOPATH_PASSPORT_PDF_OUT'])
        writeFileSync(process.env['RENOPATH_PASSPORT_PDF_OUT'], res.rawPayload);
      const text = spaces(await extractPdfText(new Uint8Array(res.rawPayload)));
      expect(text).toContain(TITLES[language]);
      expect(text).toContain(signed.content_sha256);
      expect(text).toContain(SIGNER.accreditation_number);
      expect(text).toContain('Roof battens to be replaced too');
    },
  );

  it('refuses an unknown language', async () => {
    expect((await api.get(`${PASSPORTS}/${signed.id}/pdf?language=de-DE`)).statusCode).toBe(400);
  });
});

describe('the public verification page', () => {
  it('shows, without a token, the summary, the hash and that the signature verifies', async () => {
    const url = new URL(signed.verification_url);
    const res = await stack.app.inject({ method: 'GET', url: `${url.pathname}?lang=en` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(signed.content_sha256);
    expect(res.body).toContain('signature verifies');
    expect(res.body).toContain('the content matches the signed hash');
    expect(res.body).toContain('Veldstraat 12');
  });

  it('has no page for a draft or an unknown passport', async () => {
    expect((await stack.app.inject({ method: 'GET', url: `/renovation-passports/${second.id}/verification` })).statusCode).toBe(404);
    expect(
      (await stack.app.inject({ method: 'GET', url: '/renovation-passports/5b0e8f9e-9a53-4a3c-8c1e-2d4c6f0a1b2c/verification' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the renovation_passport.signed webhook (docs/webhooks.md)', () => {
  it('refuses a webhook_url that is not an absolute http(s) URL', async () => {
    const res = await api.post(PASSPORTS, { calculation_job_id: job.id, webhook_url: 'ftp://bank.example/hooks' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message.join(' ')).toContain('webhook_url');
  });

  it("announces the signature to the drafter's webhook_url, signed with its client's secret, retried after a 500 with the same id, once", async () => {
    const hook = await receiver((n) => (n === 1 ? 500 : 204), '/passports');
    try {
      // An organization of its own, whose webhook secret the receiver holds.
      const tenant = await stack.tenant('Hooked advisors', 'owner@hooked-passports.example');
      const office = stack.as(tenant.token);
      const theirJob = await finishedJob(office, HOUSE);
      const created = await office.post(PASSPORTS, { calculation_job_id: theirJob.id, webhook_url: hook.url });
      expect(created.statusCode, created.body).toBe(201);
      const passport = valid(created.json());
      expect(passport.webhook_url).toBe(hook.url);
      expect((await office.patch(`${PASSPORTS}/${passport.id}`, { site_visit: VISIT })).statusCode).toBe(200);
      // Nothing is announced before the signature.
      expect(hook.calls).toHaveLength(0);
      const res = await office.post(`${PASSPORTS}/${passport.id}/sign`, SIGNER);
      expect(res.statusCode, res.body).toBe(200);
      const done = valid(res.json());

      const deadline = Date.now() + 15_000;
      while (hook.calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // Past the retry schedule's last delay: a third call would have come by now.
      await new Promise((r) => setTimeout(r, 500));
      expect(hook.calls).toHaveLength(2);
      const [first, second] = hook.calls;
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      const payload = new Webhook(tenant.webhook_secret).verify(second!.body, {
        'webhook-id': String(second!.headers['webhook-id']),
        'webhook-timestamp': String(second!.headers['webhook-timestamp']),
        'webhook-signature': String(second!.headers['webhook-signature']),
      }) as Record<string, any>;
      expect(payload.type).toBe('renovation_passport.signed');
      expect(payload.data).toEqual({
        id: done.id,
        version: done.version,
        estate_id: done.estate_id,
        calculation_job_id: theirJob.id,
        signed_at: done.signed_at,
        content_sha256: done.content_sha256,
        verification_url: done.verification_url,
      });
      // Another client's secret does not verify it: the receiver can tell a forgery.
      const other = await stack.tenant('Not the drafter', 'owner@not-the-drafter.example');
      expect(() =>
        new Webhook(other.webhook_secret).verify(second!.body, {
          'webhook-id': String(second!.headers['webhook-id']),
          'webhook-timestamp': String(second!.headers['webhook-timestamp']),
          'webhook-signature': String(second!.headers['webhook-signature']),
        }),
      ).toThrow();
      // A passport drafted without a webhook_url is signed without any call.
      const quiet = (await office.post(PASSPORTS, { calculation_job_id: theirJob.id })).json();
      expect(quiet.webhook_url).toBeNull();
      await office.patch(`${PASSPORTS}/${quiet.id}`, { site_visit: VISIT });
      expect((await office.post(`${PASSPORTS}/${quiet.id}/sign`, SIGNER)).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
      expect(hook.calls).toHaveLength(2);
    } finally {
      await hook.close();
    }
  });
});

describe('who sees and writes passports', () => {
  it('another organization gets 404 on every passport path', async () => {
    const other = stack.as((await stack.tenant('Other agency', 'owner@other-passports.example')).token);
    for (const res of [
      await other.post(PASSPORTS, { calculation_job_id: job.id }),
      await other.get(`${PASSPORTS}/${signed.id}`),
      await other.get(`${PASSPORTS}/${second.id}`),
      await other.get(`/v1/estates/${signed.estate_id}/renovation-passports`),
      await other.patch(`${PASSPORTS}/${second.id}`, { site_visit: VISIT }),
      await other.post(`${PASSPORTS}/${second.id}/sign`, SIGNER),
      await other.get(`${PASSPORTS}/${signed.id}/pdf?language=en`),
    ])
      expect(res.statusCode, res.body.slice(0, 200)).toBe(404);
    expect((await api.get(`${PASSPORTS}/${second.id}`)).json().status).toBe('DRAFT');
  });

  it('a token without the passports scope reads but cannot draft, PATCH or sign (403)', async () => {
    const reader = stack.as(await stack.clientToken(stack.bootstrap.user_id, ['reports']));
    expect((await reader.get(`${PASSPORTS}/${second.id}`)).statusCode).toBe(200);
    expect((await reader.get(`${PASSPORTS}/${signed.id}/pdf?language=en`)).statusCode).toBe(200);
    expect((await reader.patch(`${PASSPORTS}/${second.id}`, { site_visit: VISIT })).statusCode).toBe(403);
    expect((await reader.post(`${PASSPORTS}/${second.id}/sign`, SIGNER)).statusCode).toBe(403);
    expect((await reader.post(PASSPORTS, { calculation_job_id: job.id })).statusCode).toBe(403);
    expect((await api.get(`${PASSPORTS}/${second.id}`)).json().content.site_visit).toBeNull();
  });
});
