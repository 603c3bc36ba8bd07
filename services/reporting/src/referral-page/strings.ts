import { hasTranslation, t } from '../i18n/index.ts';
import type { ReportLanguage } from '../report-model.ts';
import pageEn from '../../data/i18n/page.en.json' with { type: 'json' };

/** The page's own strings (data/i18n/page.<language>.json); English names the keys every language carries. */
export type PageKey = keyof typeof pageEn;

/** A page string with its `{name}` placeholders filled; values are inserted as given (the caller escapes). */
export function pageText(language: ReportLanguage, key: PageKey, values: Record<string, string | number> = {}): string {
  return t(language, `page.${key}`, values);
}

/** A string keyed by a data value (estate type, scale) when the page knows it, else null. */
export function pageTextOf(language: ReportLanguage, key: string): string | null {
  return hasTranslation(language, `page.${key}`) ? t(language, `page.${key}`) : null;
}
