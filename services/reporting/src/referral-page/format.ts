import { componentName, formatDate, formatMoney, formatNumber, localeOf } from '../i18n/index.ts';
import type { ReportLanguage } from '../report-model.ts';

/** Whole euros: the page is an estimate for a prospective buyer, cents would suggest a precision it has not. */
export const money = (language: ReportLanguage, euros: number) => formatMoney(language, euros);

/** Axis ticks: short (`€ 40K`) so they fit beside the chart on a phone. */
export const compactMoney = (language: ReportLanguage, euros: number) =>
  new Intl.NumberFormat(localeOf(language), {
    style: 'currency',
    currency: 'EUR',
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(euros);

export const number = (language: ReportLanguage, value: number, maximumFractionDigits = 0) =>
  formatNumber(language, value, maximumFractionDigits);

export const longDate = (language: ReportLanguage, iso: string) => formatDate(language, iso);

export { componentName };
