import type { ReportLanguage, ReportMoney } from '../report-model.ts';
import { formatMoney, formatNumber, formatPercent, t } from './index.ts';

/**
 * The household's money in words, the same for the PDF (`report.money.*`) and the public page
 * (`page.money.*`): the bill before and after, the monthly repayment against the monthly saving, the
 * paybacks, and a note saying which figures come from the meter.
 */
export function moneyText(
  lang: ReportLanguage,
  namespace: 'report' | 'page',
  m: ReportMoney,
): { title: string; rows: Array<[string, string]>; note: string } {
  const k = (key: string, params: Record<string, string | number> = {}) => t(lang, `${namespace}.money.${key}`, params);
  const eur = (x: number) => formatMoney(lang, x);
  const today = m.bill_today_interval
    ? k('per_year_interval', {
        amount: eur(m.bill_today_eur_per_year),
        low: eur(m.bill_today_interval.low),
        high: eur(m.bill_today_interval.high),
      })
    : k('per_year', { amount: eur(m.bill_today_eur_per_year) });
  const rows: Array<[string, string]> = [
    [k(m.from_meter ? 'bill_today_meter' : 'bill_today_model'), today],
    [k('bill_after'), k('per_year', { amount: eur(m.bill_after_eur_per_year) })],
    [k('saving_month'), k('per_month', { amount: formatMoney(lang, m.monthly_saving_eur, 2) })],
  ];
  if (m.loan)
    rows.push([
      k('repayment', {
        product: m.loan.product,
        rate: formatPercent(lang, m.loan.rate_percent, 2),
        years: formatNumber(lang, m.loan.term_months / 12, 1),
      }),
      k('per_month', { amount: formatMoney(lang, m.loan.monthly_payment_eur, 2) }),
    ]);
  rows.push([
    k('payback'),
    m.payback_years !== null && m.payback_years_with_support !== null
      ? k('payback_value', {
          years: formatNumber(lang, m.payback_years, 1),
          with_support: formatNumber(lang, m.payback_years_with_support, 1),
        })
      : k('payback_none'),
  ]);
  const notes = [m.loan ? null : k('no_loan')];
  notes.push(
    m.metered
      ? k('meter_note', { method: k(`method.${m.metered.method}`), ratio: formatPercent(lang, m.metered.ratio * 100, 0) })
      : k('model_note'),
  );
  return { title: k('title'), rows, note: notes.filter((n): n is string => n !== null).join(' ') };
}
