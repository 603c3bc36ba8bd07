import { describe, expect, it } from 'vitest';
import { canonicalJson, contentSha256 } from './canonical-json.ts';

describe('RFC 8785 canonical JSON', () => {
  it('sorts members by UTF-16 code units, drops whitespace, keeps array order', () => {
    expect(canonicalJson({ b: [3, 1], a: { d: true, c: null } })).toBe('{"a":{"c":null,"d":true},"b":[3,1]}');
    // RFC 8785 section 3.2.3's example: "\u20ac" (euro) sorts before "\ud83d\ude00" (an emoji, a surrogate pair) and after "\r".
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '1': 4 })).toBe('{"\\r":2,"1":4,"€":1,"😀":3}');
  });

  it('writes numbers as ECMAScript does (the RFC sample values)', () => {
    expect(canonicalJson([333333333.3333333, 1e30, 4.5, 0.002, 1e-27, -0])).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0]');
  });

  it('refuses what JSON cannot carry rather than hashing something else', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson([undefined])).toThrow();
  });

  it('gives the same hash whatever the order members were written in, and another for any change', () => {
    expect(contentSha256({ a: 1, b: 'x' })).toBe(contentSha256({ b: 'x', a: 1 }));
    expect(contentSha256({ a: 1, b: 'x' })).not.toBe(contentSha256({ a: 1, b: 'y' }));
    expect(contentSha256({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
