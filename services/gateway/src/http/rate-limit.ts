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
