import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allNodes } from '@renopath/catalog';
import { describe, expect, it } from 'vitest';
import { REPORT_LANGUAGES } from '../report-model.ts';
import { componentName, formatDate, formatMoney, formatPercent, MissingTranslationError, t, translations } from './index.ts';

const namespaces = [
  ...new Set(
    readdirSync(fileURLToPath(new URL('../../data/i18n/', import.meta.url)))
      .map((f) => /^([a-z][a-z0-9-]*)\.[A-Za-z-]+\.json$/.exec(f)?.[1])
      .filter((n): n is string => n !== undefined),
  ),
];

describe('translations', () => {
  it('name every catalogue component type in every language', () => {
    for (const language of REPORT_LANGUAGES) {
      const names = translations(language, 'components');
      const missing = allNodes()
        .map((n) => n.renovation_component_type)
        .filter((type) => !names[type]?.trim());
      expect(missing, language).toEqual([]);
    }
  });

  it('have every key of every file in every language, none empty', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['report', 'components']));
    for (const namespace of namespaces) {
      const keys = new Set(REPORT_LANGUAGES.flatMap((l) => Object.keys(translations(l, namespace))));
      for (const language of REPORT_LANGUAGES) {
        const table = translations(language, namespace);
        const missing = [...keys].filter((k) => typeof table[k] !== 'string' || table[k]!.trim() === '');
        expect(missing, `${namespace}.${language}`).toEqual([]);
      }
    }
  });

  it('keep the same placeholders in every language', () => {
    for (const namespace of namespaces) {
      for (const [key, text] of Object.entries(translations('en', namespace))) {
        const expected = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        for (const language of REPORT_LANGUAGES) {
          const got = [...(translations(language, namespace)[key] ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
          expect(got, `${namespace}.${language}.${key}`).toEqual(expected);
        }
      }
    }
  });

  it('fill placeholders and refuse a missing key rather than fall back to another language', () => {
    expect(t('nl-BE', 'report.footer.page', { page: 2, pages: 5 })).toBe('Pagina 2 van 5');
    expect(t('fr-BE', 'report.footer.page', { page: 2, pages: 5 })).toBe('Page 2 sur 5');
    expect(() => t('en', 'report.no.such.key')).toThrow(MissingTranslationError);
    expect(componentName('fr-BE', 'HEAT_PUMP_AIR_WATER')).toBe('Pompe à chaleur air-eau');
    expect(componentName('en', 'NOT_IN_THE_CATALOGUE')).toBe('NOT_IN_THE_CATALOGUE');
  });
});

describe('locale formats', () => {
  // Intl's spaces differ per locale (no-break, narrow no-break): compare with plain spaces.
  const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

  it('writes euros the way each language does', () => {
    expect(plain(formatMoney('nl-BE', 12345.6))).toBe('€ 12.346');
    expect(plain(formatMoney('nl-NL', 12345.6, 2))).toBe('€ 12.345,60');
    expect(plain(formatMoney('fr-BE', 12345.6))).toBe('12 346 €');
    expect(plain(formatMoney('en', 12345.6, 2))).toBe('€12,345.60');
  });

  it('writes dates and percentages the way each language does', () => {
    expect(formatDate('nl-BE', '2026-03-14T10:30:00Z')).toBe('14 maart 2026');
    expect(formatDate('fr-BE', '2026-03-14T10:30:00Z')).toBe('14 mars 2026');
    // The first of the month is an ordinal in French, and only in French.
    expect(formatDate('fr-BE', '2026-07-01T10:00:00Z')).toBe('1er juillet 2026');
    expect(formatDate('fr-BE', '2026-07-11T10:00:00Z')).toBe('11 juillet 2026');
    expect(formatDate('nl-BE', '2026-07-01T10:00:00Z')).toBe('1 juli 2026');
    expect(formatDate('en', '2026-03-14T10:30:00Z')).toBe('14 March 2026');
    // Late evening UTC is already the next day in Belgium.
    expect(formatDate('nl-NL', '2026-03-14T23:30:00Z')).toBe('15 maart 2026');
    expect(plain(formatPercent('fr-BE', 14.5))).toBe('14,5 %');
    expect(plain(formatPercent('en', 14.5))).toBe('14.5%');
  });
});
