import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeRegExp } from '@renopath/contracts';
import type { ReportLanguage } from '../report-model.ts';
import { componentName, t } from './index.ts';

/**
 * Grant conditions in the report's language (data/grant-conditions.json): the catalogue words each
 * condition in English with its evidence tags; a homeowner reads the file's plain text in their
 * language. A condition the file does not know yet is not shown in English: the renderers say that
 * the scheme has further conditions instead.
 */
interface ConditionsFile {
  conditions: Array<{ condition: string; text: Record<ReportLanguage, string> }>;
  not_eligible: { patterns: Array<{ reason: string; text: Record<ReportLanguage, string> }> };
}

const FILE = fileURLToPath(new URL('../../data/grant-conditions.json', import.meta.url));
let data: {
  byCondition: Map<string, Record<ReportLanguage, string>>;
  patterns: Array<{ re: RegExp; names: string[]; text: Record<ReportLanguage, string> }>;
} | null = null;

function load() {
  if (data) return data;
  const file = JSON.parse(readFileSync(FILE, 'utf8')) as ConditionsFile;
  data = {
    byCondition: new Map(file.conditions.map((c) => [c.condition, c.text])),
    patterns: file.not_eligible.patterns.map((p) => {
      const names = [...p.reason.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const body = p.reason
        .split(/\{\w+\}/)
        .map(escapeRegExp)
        .join('(.+?)');
      return { re: new RegExp(`^Not eligible for (.+?): ${body}\\.$`), names: ['scheme', ...names], text: p.text };
    }),
  };
  return data;
}

/** Every catalogue condition the file translates (its tests hold the catalogue to it). */
export function knownConditions(): string[] {
  return [...load().byCondition.keys()];
}

/** A condition in the language, or null when the file does not know it. */
export function conditionText(language: ReportLanguage, condition: string): string | null {
  const { byCondition, patterns } = load();
  const known = byCondition.get(condition);
  if (known) return known[language];
  for (const p of patterns) {
    const m = p.re.exec(condition);
    if (!m) continue;
    const values: Record<string, string> = {};
    p.names.forEach((name, i) => {
      const value = m[i + 1]!;
      // Component types named by the catalogue ("one of ROOF_INSULATION, ...") are shown by their names.
      values[name] =
        name === 'items'
          ? value
              .split(', ')
              .map((type) => componentName(language, type))
              .join(', ')
          : value;
    });
    return p.text[language].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }
  return null;
}

/** The conditions of a grant as the report shows them: each translated, the unknown ones summed up in one line. */
export function conditionLines(language: ReportLanguage, conditions: readonly string[]): string[] {
  const lines: string[] = [];
  let unknown = 0;
  for (const condition of conditions) {
    const text = conditionText(language, condition);
    if (text === null) unknown++;
    else if (!lines.includes(text)) lines.push(text);
  }
  if (unknown > 0) lines.push(t(language, 'report.grants.conditions_more'));
  return lines;
}
