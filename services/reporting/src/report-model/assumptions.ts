import { hasTranslation, t } from '../i18n/index.ts';
import type { ReportLanguage } from '../report-model.ts';

/**
 * What the figures assume, in the report's language: one sentence per data-quality flag of the
 * energy model, from the translation files by the flag's code (the model's own messages are English
 * and stay out of a report in another language). A code without a sentence gets the generic one.
 */
export function assumptionsOf(language: ReportLanguage, flags: ReadonlyArray<{ field: string; code: string }>): string[] {
  const out = new Set<string>();
  for (const flag of flags) {
    const fieldKey = `report.field.${flag.field}`;
    const field = hasTranslation(language, fieldKey) ? t(language, fieldKey) : flag.field.replaceAll('_', ' ');
    const key = hasTranslation(language, `report.flag.${flag.code}`) ? `report.flag.${flag.code}` : 'report.flag.OTHER';
    out.add(t(language, key, { field }));
  }
  return [...out];
}
