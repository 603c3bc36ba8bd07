import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts the request against its client's budget (bearer routes, after auth) or its address's; null when the limit is off. */
    limit: onRequestAsyncHookHandler | null;
  }
}

export interface RateLimitOptions {
  perSecond: number;
  burst: number;
  /** Set: every gateway replica counts in this Redis, so N replicas allow the limit once, not N times. */
  redisUrl: string | null;
}

/** How long the plugin waits for Redis at start before it counts in a store that is not there yet (fails open). */
const REDIS_READY_WAIT_MS = 3000;

/**
 * The request rate limit (docs/http-contract.md "Authentication, roles and rate limits": 50 requests/s, burst 100 by default) through `@fastify/rate-limit`:
 * `burst` requests per window of `burst / perSecond` seconds, per client id on bearer routes and per
 * address on the token, admin and public routes, in memory or, in distributed mode, in a Redis the
 * replicas share. Over the budget: 429 with Retry-After in the error shape of docs/http-contract.md "Errors".
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    if (!(options.perSecond > 0 && options.burst > 0)) {
      app.decorate('limit', null);
      return;
    }
    let redis: Redis | null = null;
    if (options.redisUrl) {
      // No offline queue: while Redis is away a request is not held, it is let through (below), and counted again once it is back.
      redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
      // ioredis reconnects by itself and reports each failed attempt: say it once per outage, not every two seconds.
      let down = false;
      redis.on('error', (err: Error) => {
        if (!down) app.log.warn({ err: err.message }, 'rate-limit store (redis) unavailable; requests pass uncounted until it is back');
        down = true;
      });
      redis.on('ready', () => {
        if (down) app.log.info('rate-limit store (redis) is back');
        down = false;
      });
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
      await waitReady(redis);
    }
    await app.register(rateLimit, {
      global: false,
      max: Math.max(1, Math.floor(options.burst)),
      timeWindow: Math.max(1000, Math.round((options.burst / options.perSecond) * 1000)),
      ...(redis ? { redis, nameSpace: 'renopath-rate-limit:' } : {}),
      // A store that fails (Redis down) must not take the API down with it: the request passes and is logged.
      skipOnError: true,
      keyGenerator: (request: FastifyRequest) => (request.actor ? `client:${request.actor.client_id}` : `ip:${request.ip}`),
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, ['rate limit exceeded; slow down'], { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) }),
    });
    app.decorate('limit', app.rateLimit() as onRequestAsyncHookHandler);
  },
  { name: 'renopath-rate-limit', dependencies: ['renopath-auth'] },
);

async function waitReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, REDIS_READY_WAIT_MS);
    redis.once('ready', done);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
  });
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
