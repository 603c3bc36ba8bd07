import { fold, vocabulary, wordPattern, type DocumentKind } from './vocabulary.ts';

// Value readers: a number, year, date, label or address out of a label's text, as the document writes it.

const NUMBER = /[-−]?\s?\d+(?:[.,]\d+)*/;

/** Dutch and Belgian numbers: "1.234,5" and "180,5"; a dot before exactly three digits groups thousands. */
export function parseDutchNumber(raw: string): number | undefined {
  let s = raw.replace(/\s/g, '').replace('−', '-');
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, '');
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export function readNumber(value: string): number | undefined {
  const m = NUMBER.exec(value);
  return m ? parseDutchNumber(m[0]) : undefined;
}

/** A score: the number that carries the kWh unit, else the only number of the value. */
export function readScore(value: string): number | undefined {
  const withUnit = /([-−]?\s?\d+(?:[.,]\d+)*)\s*kwh/i.exec(value);
  if (withUnit) return parseDutchNumber(withUnit[1]!);
  const all = value.match(new RegExp(NUMBER.source, 'g')) ?? [];
  return all.length === 1 ? parseDutchNumber(all[0]!) : undefined;
}

export function readLabel(value: string, labels: string[]): string | undefined {
  const re = /(?<![A-Za-z0-9+])(A\+{1,4}|[A-G])(?![A-Za-z0-9+])/g;
  for (let m = re.exec(value); m; m = re.exec(value)) if (labels.includes(m[1]!)) return m[1];
  return undefined;
}

export function readYear(value: string): number | undefined {
  const m = /(?<!\d)(1[5-9]\d\d|2\d\d\d)(?!\d)/.exec(value);
  return m ? Number(m[1]) : undefined;
}

export function readText(value: string): string | undefined {
  const t = value.trim();
  return t.length > 0 && t.length <= 255 ? t : undefined;
}

export function readCertificateNumber(value: string): string | undefined {
  const m = /[A-Za-z0-9][A-Za-z0-9\-/.]{3,}/.exec(value);
  return m && /\d/.test(m[0]) ? m[0] : undefined;
}

/** "12", "12A", "12 B", "12-3" or "12/3"; a word after the number ("12 bus 3") is not its addition. */
export function readHouseNumber(value: string): { number: string; extra?: string } | undefined {
  const m = /^(\d+)(?:\s*[-/]\s*([A-Za-z0-9]{1,6})|\s?([A-Za-z]{1,2})(?![A-Za-z]))?/.exec(value.trim());
  if (!m) return undefined;
  const extra = m[2] ?? m[3];
  return extra ? { number: m[1]!, extra } : { number: m[1]! };
}

export function readZip(value: string, kind: DocumentKind): string | undefined {
  if (kind === 'ENERGY_LABEL_NL') {
    const m = /(?<!\d)([1-9]\d{3})\s?([A-Z]{2})(?![A-Za-z])/.exec(value);
    return m ? `${m[1]} ${m[2]}` : undefined;
  }
  const m = /(?<!\d)([1-9]\d{3})(?!\d)/.exec(value);
  return m ? m[1] : undefined;
}

export interface AddressParts {
  street?: string;
  house_number?: string;
  house_number_extra?: string;
  zip_code?: string;
  place?: string;
}

/** "Kerkstraat 12 bus 3, 9000 Gent" or "Dorpsstraat 12 A, 1234 AB Utrecht". */
export function readAddressLine(value: string, kind: DocumentKind): AddressParts | undefined {
  const zipPattern = kind === 'ENERGY_LABEL_NL' ? '[1-9]\\d{3}\\s?[A-Z]{2}' : '[1-9]\\d{3}';
  const re = new RegExp(`^(.+?)\\s+(\\d+)\\s*(?:(?:bus|-|/)\\s*)?([A-Za-z0-9]{1,6})?\\s*(?:,\\s*|\\s+)(${zipPattern})\\s+(.+)$`);
  const m = re.exec(value.trim());
  if (m) {
    const zip = readZip(m[4]!, kind)!;
    return { street: m[1]!, house_number: m[2]!, ...(m[3] ? { house_number_extra: m[3] } : {}), zip_code: zip, place: m[5]!.trim() };
  }
  const streetOnly = /^(.+?)\s+(\d+)\s*([A-Za-z0-9]{1,6})?$/.exec(value.trim());
  if (streetOnly)
    return { street: streetOnly[1]!, house_number: streetOnly[2]!, ...(streetOnly[3] ? { house_number_extra: streetOnly[3] } : {}) };
  return undefined;
}

/** dd.mm.yyyy, dd-mm-yyyy, dd/mm/yyyy, yyyy-mm-dd or "12 mei 2023", as a UTC day. */
export function readDate(value: string): Date | undefined {
  const numeric = /(?<!\d)(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?!\d)/.exec(value);
  if (numeric) return utcDay(Number(numeric[3]), Number(numeric[2]), Number(numeric[1]));
  const iso = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/.exec(value);
  if (iso) return utcDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const folded = fold(value);
  const worded = /(?<!\d)(\d{1,2})\s+([a-z]+)\s+(\d{4})(?!\d)/.exec(folded);
  const month = worded ? vocabulary.values.months[worded[2]!] : undefined;
  if (worded && month) return utcDay(Number(worded[3]), month, Number(worded[1]));
  return undefined;
}

export function utcDay(year: number, month: number, day: number): Date | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : undefined;
}

export function addYears(d: Date, years: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()));
}

export function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The number after one of the words, as in "Rd 3,5" or "U-waarde: 0,24". */
export function numberAfter(folded: string, words: readonly string[]): number | undefined {
  for (const w of words) {
    const re = new RegExp(`${wordPattern(w, '').source}\\s*(?:=|:)?\\s*(\\d+(?:[.,]\\d+)?)`);
    const m = re.exec(folded);
    if (m) return parseDutchNumber(m[1]!);
  }
  return undefined;
}

export function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
