import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailAddress, EMAIL_PATTERN, multiLine, singleLine, TEXT_MESSAGES, textProblem } from './text.ts';

describe('free text rules', () => {
  it('refuse controls, unpaired surrogates and bidi overrides; keep every script and emoji', () => {
    expect(textProblem('Ĳsselmeer 🏠 Œuvre مرحبا 東京')).toBeNull();
    expect(textProblem('a\u0000b')).toBe(TEXT_MESSAGES.controls);
    expect(textProblem('a\u009bb')).toBe(TEXT_MESSAGES.controls);
    expect(textProblem('line\nbreak')).toBe(TEXT_MESSAGES.controls);
    expect(textProblem('line\nbreak\ttab\r\n', true)).toBeNull();
    expect(textProblem('esc\u001b[0m', true)).toBe(TEXT_MESSAGES.controlsMultiLine);
    expect(textProblem('x\ud800')).toBe(TEXT_MESSAGES.surrogates);
    expect(textProblem('\udc00x')).toBe(TEXT_MESSAGES.surrogates);
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])
      expect(textProblem(`a${c}b`)).toBe(TEXT_MESSAGES.bidi);
  });

  it('as zod schemas: trimmed, bounded, with a message naming the problem', () => {
    expect(singleLine(5).parse('  Ann ')).toBe('Ann');
    expect(singleLine(5).safeParse('').success).toBe(false);
    expect(singleLine(5).safeParse('a\u202eb').error?.issues[0]?.message).toBe(TEXT_MESSAGES.bidi);
    expect(multiLine(20).parse('two\nlines')).toBe('two\nlines');
    expect(multiLine(20).safeParse('nul\u0000').error?.issues[0]?.message).toBe(TEXT_MESSAGES.controlsMultiLine);
  });

  it('email addresses: a deliverable local part and a host of valid DNS labels', () => {
    const valid = ['an@peeters.example', 'jan.de.smet+crm@immo-peeters.be', "o'brien@example.co.uk", 'x@a.io', 'koper@xn--mnchen-3ya.de'];
    const invalid = [
      'buyer2@example-.com',
      'a@-example.com',
      'a@example',
      'a@exa_mple.com',
      '.a@example.com',
      'a.@example.com',
      'a..b@example.com',
      'a@example..com',
      'a b@example.com',
      'a@example.c0m',
    ];
    expect(valid.filter((address) => !emailAddress().safeParse(address).success)).toEqual([]);
    expect(invalid.filter((address) => emailAddress().safeParse(address).success)).toEqual([]);
    expect(emailAddress().safeParse('buyer2@example-.com').error?.issues[0]?.message).toBe('must be an email address');
    // The OpenAPI document publishes the same pattern the server checks.
    expect(z.toJSONSchema(emailAddress())).toMatchObject({ format: 'email', pattern: EMAIL_PATTERN.source });
  });
});
