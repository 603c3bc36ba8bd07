import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSecretsKey, SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));
  it('round-trips a secret and hides it', () => {
    const sealed = box.seal('whsec_abc', 'client-1');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'client-1')).toBe('whsec_abc');
  });
  it('refuses a ciphertext moved to another client, tampered or under another key', () => {
    const sealed = box.seal('whsec_abc', 'client-1');
    expect(() => box.open(sealed, 'client-2')).toThrow();
    expect(() => box.open(`${sealed.slice(0, -2)}AA`, 'client-1')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'client-1')).toThrow();
  });
  it('reads a 32-byte key as hex or base64, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(parseSecretsKey('too short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });
});
