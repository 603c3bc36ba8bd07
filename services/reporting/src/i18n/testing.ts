import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeRegExp } from '@renopath/contracts';
import { REPORT_LANGUAGES, translations } from './index.ts';
import type { ReportLanguage } from '../report-model.ts';

/**
 * Test helpers: does a text in one language hold strings of another? Shared by the renderer's tests
 * and the end-to-end report tests, so both hold the PDFs to the same rule.
 */

/** Intl writes no-break and narrow no-break spaces; the text layer may give either or a plain space. */
export const plain = (s: string) => s.replace(/[\u00a0\u202f\s]+/g, ' ');

const CONDITIONS = JSON.parse(readFileSync(fileURLToPath(new URL('../../data/grant-conditions.json', import.meta.url)), 'utf8')) as {
  conditions: Array<{ text: Record<ReportLanguage, string> }>;
};

function strings(language: ReportLanguage): Set<string> {
  return new Set([
    ...['report', 'components'].flatMap((ns) => Object.values(translations(language, ns))),
    ...CONDITIONS.conditions.map((c) => c.text[language]),
  ]);
}

/** Texts of the other languages' files that this language does not also use, cut at their placeholders. */
const foreignCache = new Map<ReportLanguage, string[]>();
export function foreignStrings(language: ReportLanguage): string[] {
  const hit = foreignCache.get(language);
  if (hit) return hit;
  const own = strings(language);
  const ownFragments = new Set([...own].flatMap((s) => s.split(/\{\w+\}/).map((f) => f.trim())));
  const foreign = new Set<string>();
  for (const other of REPORT_LANGUAGES.filter((l) => l !== language)) {
    for (const s of strings(other)) {
      if (own.has(s)) continue;
      for (const fragment of s.split(/\{\w+\}/).map((f) => f.trim())) {
        // A fragment that is a whole-word part of this language's own text ("Veiligheidscoördinator" in "Veiligheidscoördinator (V&G)") is no sign of another language.
        if (fragment.length > 3 && !ownFragments.has(fragment) && ![...own].some((o) => occurs(plain(o), fragment))) foreign.add(fragment);
      }
    }
  }
  foreignCache.set(language, [...foreign]);
  return [...foreign];
}

/** Whole words only: the English "Architect" is not a mistake inside the French "Architecte". */
export const occurs = (text: string, fragment: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(plain(fragment))}(?![\\p{L}\\p{N}])`, 'u').test(text);

/** The other languages' strings found in a report's text, grant conditions included. */
export function foreignStringsIn(language: ReportLanguage, text: string): string[] {
  const own = plain(text);
  return foreignStrings(language).filter((s) => occurs(own, s));
}

/**
 * What only a developer should read, found in a report's or a page's text: the catalogue's evidence
 * tags (`[I]`, `[F]`, `[3P]`), its notes ("not modelled"), codes (`HEAT_PUMP_AIR_WATER`, `MIDDLE`).
 */
export function internalTagsIn(text: string): string[] {
  const patterns = [/\[(?:I|F|3P)\]/g, /not modelled/gi, /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g, /\b(?:LOW|MIDDLE|HIGH)\b/g];
  return patterns.flatMap((re) => [...plain(text).matchAll(re)].map((m) => m[0]));
}
