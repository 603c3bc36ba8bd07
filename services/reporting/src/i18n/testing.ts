import { REPORT_LANGUAGES, translations } from './index.ts';
import type { ReportLanguage } from '../report-model.ts';

/**
 * Test helpers: does a text in one language hold strings of another? Shared by the renderer's tests
 * and the end-to-end report tests, so both hold the PDFs to the same rule.
 */

/** Intl writes no-break and narrow no-break spaces; the text layer may give either or a plain space. */
export const plain = (s: string) => s.replace(/[\u00a0\u202f\s]+/g, ' ');

function strings(language: ReportLanguage): Set<string> {
  return new Set(['report', 'components'].flatMap((ns) => Object.values(translations(language, ns))));
}

/** Texts of the other languages' files that this language does not also use, cut at their placeholders. */
export function foreignStrings(language: ReportLanguage): string[] {
  const own = strings(language);
  const ownFragments = new Set([...own].flatMap((s) => s.split(/\{\w+\}/).map((f) => f.trim())));
  const foreign = new Set<string>();
  for (const other of REPORT_LANGUAGES.filter((l) => l !== language)) {
    for (const s of strings(other)) {
      if (own.has(s)) continue;
      for (const fragment of s.split(/\{\w+\}/).map((f) => f.trim())) {
        if (fragment.length > 3 && !ownFragments.has(fragment)) foreign.add(fragment);
      }
    }
  }
  return [...foreign];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whole words only: the English "Architect" is not a mistake inside the French "Architecte". */
export const occurs = (text: string, fragment: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(plain(fragment))}(?![\\p{L}\\p{N}])`, 'u').test(text);

/** The other languages' strings found in a report's text (quoted grant conditions left out: they keep the scheme's wording). */
export function foreignStringsIn(language: ReportLanguage, text: string): string[] {
  const own = plain(text.replace(/“[^”]*”/g, ' '));
  return foreignStrings(language).filter((s) => occurs(own, s));
}
