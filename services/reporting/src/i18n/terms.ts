import termsEn from '../../data/i18n/terms.en.json' with { type: 'json' };
import { hasTranslation, t, type ReportLanguage } from './index.ts';

/**
 * The words the PDF report and the public page share (data/i18n/terms.<language>.json): the names of
 * the label scales, the current and reachable label, an unknown label, the estate types. One
 * definition per language, so the page and the report a homeowner compares say the same thing.
 */
export type TermKey = keyof typeof termsEn;

export function term(language: ReportLanguage, key: TermKey, values: Record<string, string | number> = {}): string {
  return t(language, `terms.${key}`, values);
}

/** A term keyed by a data value (an estate type, a scale) when there is one, else null. */
export function termOf(language: ReportLanguage, key: string): string | null {
  return hasTranslation(language, `terms.${key}`) ? t(language, `terms.${key}`) : null;
}
