import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '@renopath/calculations/epc-document/index.ts';
import { componentName, formatMoney, t } from '@renopath/reporting/i18n/index.ts';
import { foreignStringsIn } from '@renopath/reporting/i18n/testing.ts';
import { samplePhotoPng } from '@renopath/reporting/pdf/testing.ts';
import type { ReportLanguage } from '@renopath/reporting/report-model.ts';
import { startStack, type Stack } from './stack.ts';
import { created, houseWithParts, newRenovation, type Api } from './renovations.fixtures.ts';
import { untilRenovation } from './jobs.ts';

/**
 * Reports (docs/http-contract.md "Renovations and reports") and the referral page (docs/http-contract.md "Estates and their parts") over HTTP, as a client uses them: make a
 * report in each language and download it through its signed link, watch `is_outdated` follow the
 * renovation and its estate, read the old-style report, and open an estate's public page.
 */
let stack: Stack;
let api: Api;
let world: Awaited<ReturnType<typeof houseWithParts>>;
let renovation: string;

const LANGUAGES: ReportLanguage[] = ['nl-BE', 'nl-NL', 'fr-BE', 'en'];
const V1_FIELDS = ['created_at', 'id', 'is_outdated', 'name', 'url'];
/** PDF text and Intl output differ only in which kind of space they use. */
const spaces = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const reports = (id: string) => `/v1/renovations/${id}/reports`;

/** Follows a signed link the way a browser would: no bearer token. */
async function download(url: string) {
  const { pathname, search } = new URL(url);
  return stack.app.inject({ method: 'GET', url: `${pathname}${search}` });
}

async function makeReport(id: string, body: object = {}) {
  const res = await api.post(reports(id), body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; name: string; url: string; created_at: string; is_outdated: boolean };
}

const listed = async (id: string) => {
  const res = await api.get(reports(id));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Array<{ id: string; is_outdated: boolean; created_at: string }>;
};

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
  world = await houseWithParts(api);
  renovation = await newRenovation(api, world.estate_id);
  await created(await api.post(`/renovations/${renovation}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
});
afterAll(async () => stack?.close());

describe('a report in each language', () => {
  it.each(LANGUAGES)('%s: answers the v1 report, whose link downloads a PDF showing the total cost in that locale', async (language) => {
    const report = await makeReport(renovation, { language });
    expect(Object.keys(report).sort()).toEqual(V1_FIELDS);
    expect(report.is_outdated).toBe(false);
    expect(report.name).toMatch(/\.pdf$/);

    const file = await download(report.url);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toContain('.pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const overview = (await api.get(`/v1/renovations/${renovation}/overview`)).json();
    const text = spaces(await extractPdfText(new Uint8Array(file.rawPayload)));
    expect(overview.summary.total_estimated_cost_incl_vat).toBeGreaterThan(0);
    expect(text).toContain(spaces(formatMoney(language, overview.summary.total_estimated_cost_incl_vat)));
    expect(text).toContain(spaces(formatMoney(language, overview.summary.total_subsidy_amount)));
    expect(text).toContain(spaces(t(language, 'report.title')));
    // Every item of the renovation is in the report, by its name in this language, and no text of another language.
    for (const item of [...overview.details.general, ...overview.details.roofs.flatMap((r: { items: unknown[] }) => r.items)] as Array<{
      renovation_component_type: string;
    }>) {
      expect(text).toContain(spaces(componentName(language, item.renovation_component_type)).split(' ')[0]);
    }
    expect(foreignStringsIn(language, text)).toEqual([]);
  });

  it("defaults to the estate's language (a Belgian home: nl-BE)", async () => {
    const report = await makeReport(renovation);
    const file = await download(report.url);
    // A refusal (a 503 while the server sheds load) names itself here rather than as an unreadable PDF.
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const text = spaces(await extractPdfText(new Uint8Array(file.rawPayload)));
    expect(text).toContain(spaces(t('nl-BE', 'report.title')));
    expect(report.name).toContain(t('nl-BE', 'report.title'));
  });

  it("shows the estate's first photo", async () => {
    const without = await download((await makeReport(renovation, { language: 'en' })).url);
    expect(without.rawPayload.includes('/Subtype /Image')).toBe(false);
    const media = await api.upload(`/estates/${world.estate_id}/media`, [
      { name: 'file', content: Buffer.from(samplePhotoPng()), filename: 'front.png', contentType: 'image/png' },
    ]);
    expect(media.statusCode, media.body).toBe(201);
    const withPhoto = await download((await makeReport(renovation, { language: 'en' })).url);
    expect(withPhoto.rawPayload.includes('/Subtype /Image')).toBe(true);
  });

  it('refuses an unknown language and unknown fields', async () => {
    expect((await api.post(reports(renovation), { language: 'de-DE' })).statusCode).toBe(400);
    expect((await api.post(reports(renovation), { lang: 'en' })).statusCode).toBe(400);
  });
});

describe('is_outdated', () => {
  it('turns true after an item is added, after an item is edited and after the estate is edited; a new report is current', async () => {
    const id = await newRenovation(api, world.estate_id);
    const first = await makeReport(id);
    expect(first.is_outdated).toBe(false);

    const item = await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    expect((await listed(id)).find((r) => r.id === first.id)?.is_outdated).toBe(true);

    const second = await makeReport(id);
    expect(second.is_outdated).toBe(false);
    expect((await listed(id)).find((r) => r.id === second.id)?.is_outdated).toBe(false);
    expect((await api.patch(`/renovations/${id}/items/${item.id}`, { count: 2 })).statusCode).toBe(200);
    expect((await listed(id)).find((r) => r.id === second.id)?.is_outdated).toBe(true);

    const third = await makeReport(id);
    expect((await listed(id)).find((r) => r.id === third.id)?.is_outdated).toBe(false);
    const patched = await api.patch(`/estates/${world.estate_id}`, { description: 'New kitchen in 2025' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await listed(id)).find((r) => r.id === third.id)?.is_outdated).toBe(true);

    const fourth = await makeReport(id);
    expect(fourth.is_outdated).toBe(false);
    // Newest first.
    expect((await listed(id)).map((r) => r.id)).toEqual([fourth.id, third.id, second.id, first.id]);
  });
});

describe('the old-style report', () => {
  it('answers { id, name, url, mimetype }, the same report while it is current, a new one once it is outdated', async () => {
    const id = await newRenovation(api, world.estate_id);
    const res = await api.get(`/renovations/${id}/report`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(Object.keys(report).sort()).toEqual(['id', 'mimetype', 'name', 'url']);
    expect(report.mimetype).toBe('application/pdf');
    expect((await download(report.url)).headers['content-type']).toBe('application/pdf');
    expect((await api.get(`/v1/renovations/${id}/report`)).json().id).toBe(report.id);

    await created(await api.post(`/renovations/${id}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    const again = (await api.get(`/renovations/${id}/report`)).json();
    expect(again.id).not.toBe(report.id);
    expect((await listed(id)).map((r) => r.id)).toEqual([again.id, report.id]);
  });
});

describe('access', () => {
  it("answers another tenant's renovation with 404 on every report route", async () => {
    const other = stack.as((await stack.tenant('Other agency', 'owner@other.example')).token);
    expect((await other.post(reports(renovation), { language: 'en' })).statusCode).toBe(404);
    expect((await other.get(reports(renovation))).statusCode).toBe(404);
    expect((await other.get(`/renovations/${renovation}/report`)).statusCode).toBe(404);
  });
});

describe('the referral page', () => {
  it("of an estate made by a trajectory job shows the plan's reachable label and its steps, in the language asked", async () => {
    const job = await api.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', {
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 150,
      zip_code: '9000',
      country: 'BE',
      roof_type: 'INCLINED',
      inclined_roof_insulation_type: 'NONE',
      outer_wall_insulation_type: 'NONE',
      window_glazing_type: 'SINGLE_GLAZING',
      heating_type: 'GAS',
      heating_device: 'NON_CONDENSING_BOILER',
      street: 'Veldstraat',
      house_number: '12',
      place: 'Gent',
    });
    expect(job.statusCode, job.body).toBe(200);
    const finished = await untilFinished(job.json().id);
    const plan = finished.metadata;
    expect(plan.steps.length).toBeGreaterThan(0);

    const estate = (await api.get(`/estates/${finished.estate_id}`)).json();
    const path = new URL(estate.referral_link).pathname;
    const page = await stack.app.inject({ method: 'GET', url: path });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(esc(plan.energy_efficiency_indication));
    expect(page.body).toContain(esc(componentName('nl-BE', plan.steps[0].renovation_component_type)));
    // The house number is not shown (no agency setting allows it yet).
    expect(page.body).not.toContain('Veldstraat 12');

    const french = await stack.app.inject({ method: 'GET', url: `${path}?lang=fr-BE&utm_source=advert` });
    expect(french.statusCode).toBe(200);
    expect(french.body).toContain(esc(componentName('fr-BE', plan.steps[0].renovation_component_type)));
  });

  it('of an estate without a trajectory shows its basics', async () => {
    const estate = (await api.get(`/estates/${world.estate_id}`)).json();
    const page = await stack.app.inject({ method: 'GET', url: new URL(estate.referral_link).pathname });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Gent');
  });

  it('answers an unknown token with a 404 page', async () => {
    const page = await stack.app.inject({ method: 'GET', url: `/r/${'A'.repeat(32)}` });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/^<!doctype html>/i);
  });
});

async function untilFinished(id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.get(`/v1/calculation-jobs/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    if (job.calculation_job_status === 'FINISHED') return (await untilRenovation(api, job.metadata.renovation_id), job);
    if (['FAILED', 'STOPPED'].includes(job.calculation_job_status) || Date.now() > deadline) throw new Error(`job ${id}: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
