import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { TrajectoryPlan } from '@renopath/contracts';
import { formatMoney, t } from '../i18n/index.ts';
import { renderReportPdf } from '../pdf/index.ts';
import { sampleReportModel } from '../pdf/testing.ts';
import { renderReferralPage } from '../referral-page/index.ts';
import { REPORT_LANGUAGES, type ReportLanguage } from '../report-model.ts';
import { moneyOf } from './money.ts';

/**
 * What people see of the household's money: the PDF and the public page say the bill before and after,
 * the monthly repayment against the monthly saving, and which figures come from the meter, in every
 * report language.
 */
const loan = {
  product: 'Mijn VerbouwLening',
  provider: 'Energiehuis',
  rate_percent: 2.75,
  term_months: 300,
  principal_eur: 60_000,
  monthly_payment_eur: 276.79,
  conditions: [],
  source: 'https://wooneco.be/aanbod/bedrag-mijn-verbouwlening/ (2024)',
};
const financing = (saving: number, withLoan: boolean) => ({
  grant_eur: 9_519.48,
  loan: withLoan ? loan : null,
  monthly_bill_saving_eur: Math.round((saving / 12) * 100) / 100,
  payback_years: 58,
  payback_years_with_support: 50.8,
});
function plan(metered: boolean, withLoan = true): Pick<TrajectoryPlan, 'current' | 'steps' | 'totals' | 'calibration'> {
  const steps = [{ cost_savings_eur_per_year: 900.5 }, { cost_savings_eur_per_year: 422.5 }] as TrajectoryPlan['steps'];
  return {
    current: {
      epc_score: 361,
      epc_label: 'D',
      primary_energy_kwh_per_year: 43_000,
      heating_need_kwh_per_year: 26_000,
      co2_kg_per_year: 8_800,
      energy_cost_eur_per_year: 1_900,
    },
    steps,
    totals: {
      estimated_cost: 72_200,
      estimated_vat_cost: 4_500,
      subsidy_amount: 9_519.48,
      total_estimated_cost_incl_vat: 76_700,
      net_cost: 67_180.52,
      financing: financing(1_323, withLoan),
    },
    calibration: metered
      ? {
          method: 'MONTHLY',
          carrier: 'GAS',
          heat_loss_w_per_k: 312.8,
          heat_loss_interval_w_per_k: { low: 301.1, high: 324.4 },
          modelled_heat_loss_w_per_k: 516,
          baseload_kwh_year: 2_349,
          metered_kwh_year: 16_462,
          modelled_kwh_year: 25_188,
          ratio: 0.654,
          climate: 'Uccle',
          bill_eur_per_year: 1_900,
          bill_interval_eur_per_year: { low: 1_850, high: 1_950 },
          from_meter: [],
          note: '',
        }
      : undefined,
  };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) out.push(item.str);
  }
  return out.join(' ').replace(/\s+/g, ' ');
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)));

describe('moneyOf', () => {
  it("bill after = bill today less the steps' savings; the meter flag follows the calibration", () => {
    const m = moneyOf(plan(true))!;
    expect(m.bill_after_eur_per_year).toBeCloseTo(1_900 - 1_323, 2);
    expect(m.from_meter).toBe(true);
    expect(m.bill_today_interval).toEqual({ low: 1_850, high: 1_950 });
    expect(moneyOf(plan(false))!.from_meter).toBe(false);
    const old = plan(false);
    expect(moneyOf({ ...old, totals: { ...old.totals, financing: undefined } })).toBeNull();
  });
});

describe.each(REPORT_LANGUAGES)('%s: the page and the PDF show the money', (lang: ReportLanguage) => {
  const sample = sampleReportModel(lang);
  const eur = (x: number, digits = 0) => formatMoney(lang, x, digits);

  it('the public page: bill before and after, repayment against saving, the meter named', () => {
    const html = oneLine(
      renderReferralPage({ ...sample, money: moneyOf(plan(true))! }, { languages: [lang], hrefFor: () => '#', showHouseNumber: false }),
    );
    expect(html).toContain(oneLine(t(lang, 'page.money.title')));
    expect(html).toContain(oneLine(t(lang, 'page.money.bill_today_meter')));
    for (const amount of [eur(1_900), eur(577), eur(276.79, 2), eur(110.25, 2)]) expect(html).toContain(oneLine(amount));
    expect(html).toContain('Mijn VerbouwLening');
    const modelled = oneLine(
      renderReferralPage(
        { ...sample, money: moneyOf(plan(false, false))! },
        { languages: [lang], hrefFor: () => '#', showHouseNumber: false },
      ),
    );
    expect(modelled).toContain(oneLine(t(lang, 'page.money.bill_today_model')));
    expect(modelled).toContain(oneLine(t(lang, 'page.money.no_loan')));
    expect(oneLine(renderReferralPage(sample, { languages: [lang], hrefFor: () => '#', showHouseNumber: false }))).not.toContain(
      oneLine(t(lang, 'page.money.title')),
    );
  });

  it('the PDF: the same figures', async () => {
    const text = await pdfText(await renderReportPdf({ ...sample, money: moneyOf(plan(true))! }));
    expect(text).toContain(t(lang, 'report.money.title'));
    expect(text).toContain(t(lang, 'report.money.bill_today_meter'));
    for (const amount of [eur(577), eur(276.79, 2), eur(110.25, 2)]) expect(text.replace(/\s/g, '')).toContain(amount.replace(/\s/g, ''));
  });
});
