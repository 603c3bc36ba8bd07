import { z } from 'zod';

/**
 * What free text may hold, in one place: names, addresses and descriptions are shown to people, in
 * PDFs and in other systems, so characters that are never data there are refused at the edge:
 * - C0 and C1 control characters and DEL (NUL ends strings in C, ESC drives terminals); a
 *   description keeps tab and line breaks;
 * - unpaired UTF-16 surrogates (not text: they break UTF-8 encoders and databases);
 * - bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069), which make
 *   a name read differently from what it is ("Trojan Source").
 */

const CONTROLS_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export const TEXT_MESSAGES = {
  controls: 'must not contain control characters',
  controlsMultiLine: 'must not contain control characters other than tabs and line breaks',
  surrogates: 'must be valid Unicode text (it contains an unpaired surrogate)',
  bidi: 'must not contain bidirectional override or isolate characters',
} as const;

/** The problem with `value` as free text, or null when it is fine. */
export function textProblem(value: string, multiLine = false): string | null {
  if ((multiLine ? CONTROLS_MULTI_LINE : CONTROLS_SINGLE_LINE).test(value)) {
    return multiLine ? TEXT_MESSAGES.controlsMultiLine : TEXT_MESSAGES.controls;
  }
  if (LONE_SURROGATE.test(value)) return TEXT_MESSAGES.surrogates;
  if (BIDI_CONTROLS.test(value)) return TEXT_MESSAGES.bidi;
  return null;
}

/** The rules as a zod refinement, for strings declared with other bounds (`z.string().max(n).superRefine(textRules(true))`). */
export const textRules = (multiLine: boolean) => (value: string, ctx: z.core.$RefinementCtx<string>) => {
  const problem = textProblem(value, multiLine);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
};

/**
 * The same rules as a JSON Schema `pattern` (ECMAScript, `u` flag as JSON Schema reads it), so the
 * OpenAPI document states them: none of the refused characters (in `u` mode `\ud800-\udfff` can only
 * be an unpaired surrogate), and for a trimmed required text at least one character that is not a space.
 */
const REFUSED_SINGLE_LINE = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
const REFUSED_MULTI_LINE = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
export const TEXT_PATTERNS = {
  singleLine: `^[^${REFUSED_SINGLE_LINE}]*[^\\s${REFUSED_SINGLE_LINE}][^${REFUSED_SINGLE_LINE}]*$`,
  multiLine: `^[^${REFUSED_MULTI_LINE}]*$`,
} as const;

const checked = (schema: z.ZodString, multiLine: boolean) =>
  schema.superRefine(textRules(multiLine)).meta({ pattern: multiLine ? TEXT_PATTERNS.multiLine : TEXT_PATTERNS.singleLine });

/** A name, a street, a title: one line, trimmed, 1 to `max` characters. */
export const singleLine = (max: number) => checked(z.string().trim().min(1).max(max), false);

/** A description or a note: line breaks and tabs allowed, trimmed, at most `max` characters (may be empty). */
export const multiLine = (max: number) => checked(z.string().trim().max(max), true);

/**
 * An email address that mail can be delivered to: a local part of the usual characters (no quotes,
 * no leading, trailing or double dot) and a host of DNS labels (RFC 1035 2.3.1: letters, digits and
 * hyphens, neither first nor last) ending in a top-level domain of letters. Zod's own email check
 * lets a label end in a hyphen (`example-.com`), which no host name does; the invitation would be
 * queued to an address that cannot exist. The same pattern is published in the OpenAPI document.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?!\.)(?!.*\.\.)[A-Za-z0-9._%+'-]+(?<!\.)@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * An email address (EMAIL_PATTERN: a local part of at most 64 characters, DNS labels of at most 63), at
 * most 254 characters: the longest address SMTP can carry (RFC 5321 4.5.3.1.3, a path of 256 with its
 * angle brackets), and the limits JSON Schema's `format: email` validators apply.
 */
export const emailAddress = () => z.email({ pattern: EMAIL_PATTERN, error: 'must be an email address' }).max(254);

/**
 * A list whose values must all differ: refused with "must not repeat a value", and published as
 * `uniqueItems` so the document states it.
 */
export const distinct = <T extends z.ZodArray<z.ZodType>>(list: T) =>
  list.refine((values) => new Set(values).size === values.length, { message: 'must not repeat a value' }).meta({ uniqueItems: true });

/** `text` as a regular expression that matches it literally (its special characters escaped). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
