import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JSON Canonicalization Scheme): object members sorted by the UTF-16 code units of their
 * names, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (which is what
 * the RFC specifies, section 3.2.2). Values that JSON cannot carry (NaN, Infinity, undefined in an
 * array) are refused rather than silently changed: a hash must name exactly one document.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value
      .map((v) => {
        if (v === undefined || typeof v === 'function') throw new TypeError('canonical JSON has no undefined array element');
        return canonicalJson(v);
      })
      .join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
    // Default sort compares UTF-16 code units, as the RFC asks (not locale order, not code points).
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot carry a ${typeof value}`);
}

/** SHA-256 (lower-case hex) of a value's canonical JSON in UTF-8: a passport's `content_sha256`. */
export function contentSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
