import { FIELD_KEYS, fold, vocabulary, wordPattern, type DocumentKind, type FieldKey } from './vocabulary.ts';

// Segmentation: which text of the document belongs to which label.

/** A label's text: what the document states under one field key. */
export interface Segment {
  key: FieldKey;
  value: string;
}

interface LabelWord {
  key: FieldKey;
  folded: string;
  pattern: RegExp;
}

function labelWords(kind: DocumentKind): LabelWord[] {
  const out: LabelWord[] = [];
  const table = vocabulary.fields[kind];
  for (const key of FIELD_KEYS) for (const word of table[key] ?? []) out.push({ key, folded: fold(word), pattern: wordPattern(word) });
  // At one position the longest label wins ("vloer boven kelder" over "vloer").
  return out.sort((a, b) => b.folded.length - a.folded.length);
}

interface Hit {
  key: FieldKey;
  start: number;
  end: number;
}

/** Label occurrences that count: at the start of the line (after bullets) or followed by a colon. */
function hitsOf(line: string, words: LabelWord[]): Hit[] {
  const folded = fold(line);
  const leading = /^[\s•\-*–·>]*(?:\d+[.)]\s*)?/.exec(folded)![0].length;
  const hits: Hit[] = [];
  for (const w of words) {
    w.pattern.lastIndex = 0;
    for (let m = w.pattern.exec(folded); m; m = w.pattern.exec(folded)) {
      const start = m.index;
      const end = start + m[0].length;
      if (start === leading || /^\s*:/.test(folded.slice(end))) hits.push({ key: w.key, start, end });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Hit[] = [];
  for (const h of hits) if (!kept.some((k) => h.start < k.end && k.start < h.end)) kept.push(h);
  return kept.sort((a, b) => a.start - b.start);
}

/** How many lines a heading's value may run over (a section's first lines). */
const CONTINUATION_LINES = 3;

export function segmentsOf(kind: DocumentKind, lines: string[]): Segment[] {
  const words = labelWords(kind);
  const hits = lines.map((line) => hitsOf(line, words));
  const segments: Segment[] = [];
  lines.forEach((line, i) => {
    const lineHits = hits[i]!;
    lineHits.forEach((hit, j) => {
      const next = lineHits[j + 1];
      let value = stripSeparators(line.slice(hit.end, next ? next.start : line.length));
      if (!value && !next) {
        // A heading alone on its line: its value is in the lines below, up to the next label.
        const below: string[] = [];
        for (let k = i + 1; k < lines.length && below.length < CONTINUATION_LINES; k++) {
          if (hits[k]!.length > 0) break;
          below.push(lines[k]!);
        }
        value = below.join(' ');
      }
      segments.push({ key: hit.key, value });
    });
  });
  return segments;
}

function stripSeparators(s: string): string {
  // A dash before a digit is a minus sign ("-12 kWh"), not a separator.
  return s
    .replace(/^(?:[\s:=.]|[-–](?!\s?\d))+/, '')
    .replace(/[\s|,;]+$/, '')
    .trim();
}
