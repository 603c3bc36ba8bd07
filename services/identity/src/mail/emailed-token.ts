import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@renopath/contracts';

/**
 * Single-use codes sent to an address: `<ids>.<secret>`. The ids say which stream holds the
 * request; only the secret's SHA-256 is stored (in the event), so neither the event store nor the
 * bus ever carries a usable code. 256 random bits: guessing is hopeless, a slow hash unneeded.
 */
export function newEmailedToken(...ids: string[]): { token: string; token_hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: [...ids, secret].join('.'), token_hash: hashOf(secret) };
}

/** The ids and the hash of the secret of a token, or null when it is not one of ours. */
export function readEmailedToken(token: string, idCount: number): { ids: string[]; token_hash: string } | null {
  const parts = token.split('.');
  if (parts.length !== idCount + 1) return null;
  const secret = parts.at(-1)!;
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const ids = parts.slice(0, idCount).map((id) => id.toLowerCase());
  if (!ids.every(isUuid)) return null;
  return { ids, token_hash: hashOf(secret) };
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Compares stored and given hashes in constant time. */
export function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}
