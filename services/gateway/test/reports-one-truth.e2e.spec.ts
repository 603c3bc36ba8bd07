import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '@renopath/calculations/epc-document/index.ts';
import { formatNumber } from '@renopath/reporting/i18n/index.ts';
import { foreignStringsIn, internalTagsIn, plain } from '@renopath/reporting/i18n/testing.ts';
import type { ReportLanguage } from '@renopath/reporting/report-model.ts';
import { startStack, type Stack } from './stack.ts';
import { created, type Api } from './renovations.fixtures.ts';
import { untilRenovation } from './jobs.ts';

/**
 * One truth about a home: an estate created with the score of its EPC, a trajectory job for the same
 * client record (`external_id`), the renovation the job made, its PDF report in every language and
 * the estate's public page all show the same current score and label and the same label after each
 * step; a new score marks the reports outdated.
 */
let stack: Stack;
let api: Api;
const LANGUAGES: ReportLanguage[] = ['nl-BE', 'fr-BE', 'en', 'nl-NL'];
const JOB = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const LABEL = '(A\\+{0,4}|[B-G])';

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
});
afterAll(async () => stack?.close());

async function untilFinished(id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await api.get(`/v1/calculation-jobs/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    if (job.calculation_job_status === 'FINISHED') return (await untilRenovation(api, job.metadata.renovation_id), job);
    if (['FAILED', 'STOPPED'].includes(job.calculation_job_status) || Date.now() > deadline) throw new Error(`job ${id}: ${res.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function reportText(renovation_id: string, language: ReportLanguage) {
  const res = await api.post(`/v1/renovations/${renovation_id}/reports`, { language });
  expect(res.statusCode, res.body).toBe(200);
  const report = res.json() as { id: string; url: string; is_outdated: boolean };
  const { pathname, search } = new URL(report.url);
  const file = await stack.app.inject({ method: 'GET', url: `${pathname}${search}` });
  expect(file.statusCode).toBe(200);
  // Line by line: the steps table is read by its rows.
  return { report, text: (await extractPdfText(new Uint8Array(file.rawPayload))).split('\n').map(plain).join('\n') };
}

/** The label after each step as the report's steps table prints it: the step's number, its work and phase, its label, then its cost. */
function stepLabels(text: string, count: number): string[] {
  const out: string[] = [];
  for (let order = 1; order <= count; order++) {
    const row = new RegExp(`(?:^|\\n)${order} [^\\n]*? ${LABEL} (?:€ ?[\\d.,]+|[\\d .,]+ €)`).exec(text);
    out.push(row?.[1] ?? `step ${order} not found`);
  }
  return out;
}

describe('an estate with an EPC score and a job for the same client record', () => {
  it('show the same score and labels in the job, the renovation, the report in four languages and the public page', async () => {
    const estate = await created(
      await api.post('/estates', {
        external_id: 'crm-epc-410',
        address: { street: 'Veldstraat', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' },
        year_built: 1960,
        estate_type: 'HOUSE',
        estate_format: 'SEMI_OPEN',
        habitable_space_m2: 150,
        energy_context: { epc_score: 410 },
      }),
    );
    const job = await api.post(JOB, {
      external_id: 'crm-epc-410',
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
    });
    expect(job.statusCode, job.body).toBe(200);
    const done = await untilFinished(job.json().id);
    expect(done.estate_id).toBe(estate.id);
    const plan = done.metadata;
    // The client's score calibrates the job as it calibrates the renovation and its reports.
    expect(plan.current.epc_score).toBe(410);
    expect(plan.current.epc_label).toBe('E');
    expect(plan.data_quality.sources.energy_efficiency_score).toBe('INPUT');
    const labels: string[] = plan.steps.map((s: { epc_label_after: string }) => s.epc_label_after);
    expect(labels.length).toBeGreaterThan(2);

    const renovation = (await api.get(`/renovations/${plan.renovation_id}`)).json();
    expect(renovation.energy_efficiency_indication).toBe(plan.energy_efficiency_indication);

    for (const language of LANGUAGES) {
      const { text } = await reportText(plan.renovation_id, language);
      expect(text, language).toContain(`${plan.current.epc_label} ${plain(formatNumber(language, plan.current.epc_score))} kWh/m²`);
      expect(stepLabels(text, labels.length), language).toEqual(labels);
      expect(text, language).toContain(plain(formatNumber(language, plan.final_epc_score)));
      expect(foreignStringsIn(language, text), language).toEqual([]);
      expect(internalTagsIn(text), language).toEqual([]);
    }

    const link = new URL((await api.get(`/estates/${estate.id}`)).json().referral_link).pathname;
    for (const language of ['nl-BE', 'fr-BE', 'en'] as const) {
      const page = await stack.app.inject({ method: 'GET', url: `${link}?lang=${language}` });
      expect(page.statusCode).toBe(200);
      const badges = [...page.body.matchAll(/<span class="badge"[^>]*>([^<]+)<\/span>/g)].map((m) => m[1]);
      expect(badges, language).toEqual(labels);
      const current = /<div class="label-card current">[\s\S]*?<p class="big-label"[^>]*>([^<]+)<\/p>\s*<p class="score">([^<]+)<\/p>/.exec(
        page.body,
      );
      expect(current?.[1]).toBe(plan.current.epc_label);
      expect(plain(current?.[2] ?? '')).toContain(plain(formatNumber(language, plan.current.epc_score)));
      const body = plain(page.body.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' '));
      expect(internalTagsIn(body), language).toEqual([]);
    }
    // A job, then four PDFs made and read back: longer than one request on a machine with two cores.
  }, 180_000);

  it('marks the reports outdated when the score changes, and the next report calibrates to the new score', async () => {
    const estate = await created(
      await api.post('/estates', {
        address: { street: 'Kouter', house_number: '3', zip_code: '9000', place: 'Gent', country: 'BE' },
        year_built: 1960,
        estate_type: 'HOUSE',
        estate_format: 'SEMI_OPEN',
        habitable_space_m2: 140,
        energy_context: { epc_score: 410, heating_type: 'GAS', heating_device: 'NON_CONDENSING_BOILER' },
      }),
    );
    const renovation = (await created(await api.post('/renovations', { estate_id: estate.id }))).id as string;
    await created(await api.post(`/renovations/${renovation}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
    const first = await reportText(renovation, 'en');
    expect(first.text).toContain('E 410 kWh/m²');
    const patched = await api.patch(`/estates/${estate.id}`, { energy_context: { epc_score: 330 } });
    expect(patched.statusCode, patched.body).toBe(200);
    const listed = (await api.get(`/v1/renovations/${renovation}/reports`)).json() as Array<{ id: string; is_outdated: boolean }>;
    expect(listed.find((r) => r.id === first.report.id)?.is_outdated).toBe(true);
    const second = await reportText(renovation, 'en');
    expect(second.report.is_outdated).toBe(false);
    expect(second.text).toContain('D 330 kWh/m²');
  }, 90_000);
});
