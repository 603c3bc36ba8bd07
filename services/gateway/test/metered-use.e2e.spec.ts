import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';

/**
 * metered_use through the API: every bad reading is refused naming `metered_use...` (406 for the shape,
 * 422 for readings the described home cannot use), and good readings give a plan whose bill is
 * calibrated, whose steps carry their financing, and whose EPC score is the same as without them.
 */
let stack: Stack;
let api: ReturnType<Stack['as']>;
const URL = '/v1/calculation-jobs/suggested-renovation-trajectory-calculation';
const base = {
  year_built: 1930,
  estate_format: 'CLOSED',
  habitable_space_m2: 120,
  zip_code: '9000',
  country: 'BE',
  heating_type: 'GAS',
  heating_device: 'NON_CONDENSING_BOILER',
};
const months = (n: number, from = 2024) =>
  Array.from({ length: n }, (_, i) => ({
    month: `${from + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
    gas_kwh: [3200, 2800, 2300, 1500, 800, 400, 350, 350, 600, 1300, 2200, 3000][i % 12]!,
  }));

beforeAll(async () => {
  stack = await startStack();
  api = stack.as(await stack.token());
});
afterAll(async () => stack?.close());

async function refused(metered_use: unknown, status: 406 | 422): Promise<string[]> {
  const res = await api.post(URL, { ...base, metered_use });
  expect(res.statusCode, res.body).toBe(status);
  const message = res.json().message as string[];
  expect(
    message.some((m) => m.startsWith('metered_use')),
    message.join('\n'),
  ).toBe(true);
  return message;
}

async function finished(body: unknown) {
  const res = await api.post(URL, body);
  expect(res.statusCode, res.body).toBe(200);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await api.get(`/v1/calculation-jobs/${res.json().id}`)).json();
    if (['FINISHED', 'FAILED', 'STOPPED'].includes(job.calculation_job_status)) return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.calculation_job_status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('bad metered_use answers 4xx naming it', () => {
  it.each([
    ['a negative yearly figure', { gas_kwh: -10 }],
    ['gas in kWh and in m3', { gas_kwh: 12000, gas_m3: 1200 }],
    ['an impossible month', { gas_kwh: 12000, monthly: [{ month: '2025-13', gas_kwh: 100 }] }],
    ['a month in the future', { gas_kwh: 12000, monthly: [{ month: '2999-01', gas_kwh: 100 }] }],
    ['a negative monthly reading', { monthly: months(12).map((m, i) => (i === 3 ? { ...m, gas_kwh: -5 } : m)) }],
    ['a month given twice', { monthly: [...months(12), months(1)[0]] }],
    ['eleven months without a yearly figure', { monthly: months(11) }],
    ['a reading without any carrier', { monthly: [...months(12), { month: '2023-12' }] }],
    ['nothing at all', {}],
    ['an unknown field', { gas_kwh: 12000, water_m3: 80 }],
    ['period_end without a yearly figure', { period_end: '2025-06', monthly: months(12) }],
  ])('406: %s', async (_name, metered_use) => {
    await refused(metered_use, 406);
  });

  it('422: a yearly figure more than ten times what the described home would use', async () => {
    const message = await refused({ gas_kwh: 2_000_000 }, 422);
    expect(message.join()).toContain('metered_use.gas_kwh');
  });

  it('422: monthly readings that come to more than ten times the model', async () => {
    const message = await refused({ monthly: months(12).map((m) => ({ ...m, gas_kwh: m.gas_kwh * 200 })) }, 422);
    expect(message.join()).toContain('metered_use.monthly');
  });
});

describe('good metered_use', () => {
  it('calibrates the bill, finances every step, and leaves the EPC score as without it', async () => {
    const [plain, metered] = await Promise.all([finished(base), finished({ ...base, metered_use: { monthly: months(24) } })]);
    expect(metered.calculation_job_status, JSON.stringify(metered.error ?? null)).toBe('FINISHED');
    const a = plain.metadata;
    const b = metered.metadata;
    expect(b.current.epc_score).toBe(a.current.epc_score);
    expect(b.final_epc_score).toBe(a.final_epc_score);
    expect(b.steps.map((s: { epc_score_after: number }) => s.epc_score_after)).toEqual(
      a.steps.map((s: { epc_score_after: number }) => s.epc_score_after),
    );
    expect(b.calibration.method).toBe('MONTHLY');
    expect(b.current.energy_cost_eur_per_year).toBe(b.calibration.bill_eur_per_year);
    expect(a.calibration).toBeUndefined();
    for (const s of b.steps) expect(s.financing).toBeDefined();
    expect(b.totals.financing.loan.product).toBe('Mijn VerbouwLening');
  });
});
