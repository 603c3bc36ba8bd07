/**
 * Per-client token buckets (API.md 3: 50 requests/s, burst 100 by default). A rate of 0 turns the
 * limit off. Buckets idle long enough to be full again are dropped so memory stays bounded.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweeps = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled() {
    return this.perSecond > 0 && this.burst > 0;
  }

  /** Takes one token; returns 0 when allowed, else the seconds to wait before a retry. */
  take(key: string): number {
    if (!this.enabled) return 0;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  private sweep(now: number) {
    const refill = (this.burst / this.perSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.at > refill) this.buckets.delete(key);
  }
}

/**
 * Failed attempts per key (a client id's wrong secrets): `allowed` failures, then one more every
 * `refillSeconds`. Only failures count, so the client's own correct requests are never held back
 * while nobody guesses. Idle keys are dropped once their allowance is full again.
 */
export class FailureLimiter {
  private readonly keys = new Map<string, { tokens: number; at: number }>();
  private sweeps = 0;

  constructor(
    private readonly allowed: number,
    private readonly refillSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when another attempt may be made, else the seconds to wait. */
  blockedFor(key: string): number {
    const entry = this.refilled(key);
    if (!entry || entry.tokens >= 1) return 0;
    return Math.max(1, Math.ceil((1 - entry.tokens) * this.refillSeconds));
  }

  fail(key: string) {
    const entry = this.refilled(key) ?? { tokens: this.allowed, at: this.now() };
    entry.tokens = Math.max(0, entry.tokens - 1);
    this.keys.set(key, entry);
    if (++this.sweeps % 1_000 === 0) this.sweep();
  }

  private refilled(key: string) {
    const entry = this.keys.get(key);
    if (!entry) return null;
    const now = this.now();
    entry.tokens = Math.min(this.allowed, entry.tokens + (now - entry.at) / 1000 / this.refillSeconds);
    entry.at = now;
    return entry;
  }

  private sweep() {
    const full = this.allowed * this.refillSeconds * 1000;
    const now = this.now();
    for (const [key, entry] of this.keys) if (now - entry.at > full) this.keys.delete(key);
  }
}
