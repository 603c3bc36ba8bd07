import { describe, expect, it } from 'vitest';
import { displayName } from './uploads.ts';

describe('upload names', () => {
  it('keep the last path segment, without control characters, at most 255 characters', () => {
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('C:\\\\Users\\\\an\\\\plan.pdf')).toBe('plan.pdf');
    expect(displayName('report\u0000\n2026.pdf')).toBe('report2026.pdf');
    expect(displayName('  offerte dak.pdf ')).toBe('offerte dak.pdf');
    expect(displayName('x'.repeat(300))).toHaveLength(255);
    expect(displayName('../')).toBe('');
  });
});
