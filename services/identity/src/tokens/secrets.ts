import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { DomainError } from '@renopath/platform';

/** API-client secrets: 64 hex characters, stored only as a slow scrypt hash (docs/http-contract.md "Authentication, roles and rate limits"). */

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs ~128 MiB a hash; 2^15 keeps a token request
// near 100 ms on a 2-core machine while staying far slower than a fast hash for an attacker.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;
/**
 * Verified when the client id is unknown (or revoked), so that answer costs what a known id's
 * does: timing does not tell which ids exist. Same parameters as real hashes; no secret matches it.
 */
const DUMMY_HASH = [
  'scrypt',
  PARAMS.N,
  PARAMS.r,
  PARAMS.p,
  'cmVub3BhdGgtZHVtbXktc2FsdA==',
  Buffer.alloc(KEYLEN, 0x5a).toString('base64'),
].join('$');

/**
 * scrypt runs on libuv's thread pool, which file I/O (uploads, the blob store) shares. At most
 * SCRYPT_CONCURRENCY hashes run at once, so a flood of wrong secrets holds one of its threads and
 * no more; a short queue absorbs bursts, and past it the request is turned away (503, retry later)
 * instead of waiting without end.
 */
const SCRYPT_CONCURRENCY = 1;
const SCRYPT_QUEUE = 32;

export class ScryptGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueLimit: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit) throw new DomainError(503, ['too many token requests at once; try again shortly']);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `active` stays counted.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  get queued() {
    return this.waiting.length;
  }
}

const gate = new ScryptGate(SCRYPT_CONCURRENCY, SCRYPT_QUEUE);

const scrypt = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  gate.run(
    () =>
      new Promise<Buffer>((resolve, reject) => scryptCb(secret, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)))),
  );

export const newSecret = () => randomBytes(32).toString('hex');
/** Standard Webhooks secrets are base64 with a `whsec_` prefix. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether `secret` matches the stored hash. `null` (no such client) costs the same as a real check
 * and answers false.
 */
export async function verifySecret(secret: string, stored: string | null): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = (stored ?? DUMMY_HASH).split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(secret, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(key, expected) && stored !== null;
}
