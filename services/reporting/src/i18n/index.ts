import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPORT_LANGUAGES, type ReportLanguage } from '../report-model.ts';

/**
 * Translations live in data/i18n/<namespace>.<language>.json, one flat object of key -> text per file.
 * A key names its namespace first: `t('fr-BE', 'report.cover.current')` reads `cover.current` from
 * report.fr-BE.json, `t('en', 'components.HEAT_PUMP')` reads components.en.json; the referral page adds
 * its own page.<language>.json and calls `t(language, 'page....')`.
 */
const I18N_DIR = fileURLToPath(new URL('../../data/i18n/', import.meta.url));

export { REPORT_LANGUAGES, type ReportLanguage };

export class MissingTranslationError extends Error {
  constructor(
    readonly language: ReportLanguage,
    readonly key: string,
  ) {
    super(`no ${language} translation for ${key}`);
    this.name = 'MissingTranslationError';
  }
}

const cache = new Map<string, Readonly<Record<string, string>>>();

/** The whole translation file of a namespace in a language (empty when the file does not exist). */
export function translations(language: ReportLanguage, namespace: string): Readonly<Record<string, string>> {
  const id = `${namespace}.${language}`;
  const hit = cache.get(id);
  if (hit) return hit;
  // Namespaces are file names chosen in code, never user input; refusing path characters keeps it so.
  if (!/^[a-z][a-z0-9-]*$/.test(namespace)) throw new Error(`invalid translation namespace ${namespace}`);
  const file = `${I18N_DIR}${id}.json`;
  const table: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  cache.set(id, Object.freeze(table));
  return table;
}

function split(key: string): [string, string] {
  const dot = key.indexOf('.');
  if (dot <= 0) throw new Error(`translation key ${key} has no namespace`);
  return [key.slice(0, dot), key.slice(dot + 1)];
}

export function hasTranslation(language: ReportLanguage, key: string): boolean {
  const [namespace, rest] = split(key);
  return Object.hasOwn(translations(language, namespace), rest);
}

/**
 * The text of a key in a language, `{name}` placeholders filled from params. A missing key throws:
 * a report falling back to another language is what the translation files exist to prevent.
 */
export function t(language: ReportLanguage, key: string, params: Record<string, string | number> = {}): string {
  const [namespace, rest] = split(key);
  const table = translations(language, namespace);
  if (!Object.hasOwn(table, rest)) throw new MissingTranslationError(language, key);
  return table[rest]!.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A catalogue component type's name; an unknown type (a catalogue newer than the files) shows as its code. */
export function componentName(language: ReportLanguage, type: string): string {
  return hasTranslation(language, `components.${type}`) ? t(language, `components.${type}`) : type;
}

/** The Intl locale of a report language: English reports follow British conventions (day-month-year, euro). */
export function localeOf(language: ReportLanguage): string {
  return language === 'en' ? 'en-GB' : language;
}

/** Reports are about homes in Belgium and the Netherlands: dates are shown in their (shared) time zone. */
const TIME_ZONE = 'Europe/Brussels';

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(id, format);
  }
  return format;
}

export function formatNumber(language: ReportLanguage, value: number, maximumFractionDigits = 0): string {
  return numberFormat(localeOf(language), { maximumFractionDigits }).format(value);
}

/** Euros; whole euros unless asked otherwise (estimates are not precise to the cent). */
export function formatMoney(language: ReportLanguage, amount: number, fractionDigits = 0): string {
  return numberFormat(localeOf(language), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(amount);
}

/** A percentage given in percent (12.5 -> "12,5 %"). */
export function formatPercent(language: ReportLanguage, percent: number, maximumFractionDigits = 1): string {
  return numberFormat(localeOf(language), { style: 'percent', maximumFractionDigits }).format(percent / 100);
}

/** A date (ISO string or Date) in the language's long form, e.g. "23 november 2026". */
export function formatDate(language: ReportLanguage, date: string | Date): string {
  const value = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(value.getTime())) return String(date);
  const locale = localeOf(language);
  const parts = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: TIME_ZONE }).formatToParts(value);
  // French writes the first of the month as an ordinal ("1er juillet"); Intl gives the cardinal.
  const firstAsOrdinal = locale.startsWith('fr');
  return parts.map((p) => (firstAsOrdinal && p.type === 'day' && p.value === '1' ? '1er' : p.value)).join('');
}

export function isReportLanguage(value: unknown): value is ReportLanguage {
  return typeof value === 'string' && (REPORT_LANGUAGES as readonly string[]).includes(value);
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * A text that depends on a count, by the language's plural rules (`Intl.PluralRules`): the key's
 * `.one`, `.other` (or another category the language has) variant, `{count}` filled in as a number
 * of the locale. `tn('en', 'page.steps_count', 1)` reads `steps_count.one`: "1 step".
 */
export function tn(language: ReportLanguage, key: string, count: number, params: Record<string, string | number> = {}): string {
  const locale = localeOf(language);
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  const category = rules.select(count);
  const variant = hasTranslation(language, `${key}.${category}`) ? `${key}.${category}` : `${key}.other`;
  return t(language, variant, { count: formatNumber(language, count), ...params });
}

/** A date (YYYY-MM-DD) in the language's long form without a time zone shift. */
export function formatDay(language: ReportLanguage, day: string): string {
  return formatDate(language, `${day}T12:00:00Z`);
}
