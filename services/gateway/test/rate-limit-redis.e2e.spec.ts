import { randomBytes, randomInt } from 'node:crypto';
import { connect } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus, type BlobStore, type Bus } from '@renopath/platform';
import { buildGateway, type Gateway } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

/**
 * The rate limit counted in a store the gateway replicas share: with RENOPATH_RATE_LIMIT_REDIS_URL two
 * gateways allow the budget once between them, not once each. Run against the real Redis on
 * 127.0.0.1:6379; skipped (with a [skip] line) when nothing listens there.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
const redisListens = await new Promise<boolean>((resolve) => {
  const socket = connect({ host: '127.0.0.1', port: 6379 });
  socket.setTimeout(1000);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => (socket.destroy(), resolve(false)));
});
if (!redisListens)
  console.warn('[skip] rate-limit-redis.e2e: no Redis listens on 127.0.0.1:6379; the shared rate-limit store is not tested');

const BURST = 4;
let bus: Bus;
const gateways: Gateway[] = [];
const gatewayWith = (env: Record<string, string>) => {
  const gateway = buildGateway({
    bus,
    // Each run counts under its own client address (X-Forwarded-For from one trusted proxy), so runs never share a budget.
    config: loadGatewayConfig({
      LOG_LEVEL: 'silent',
      RENOPATH_TRUST_PROXY: '1',
      RENOPATH_RATE_LIMIT_PER_SECOND: '0.1',
      RENOPATH_RATE_LIMIT_BURST: String(BURST),
      ...env,
    }),
    logger: pino({ level: 'silent' }),
    blobs: {} as BlobStore,
    downloadSecret: randomBytes(32),
  });
  gateways.push(gateway);
  return gateway.app;
};
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
// A token request without credentials: refused (400) by the gateway itself, and counted against the address.
const tokenRequest = (app: Gateway['app'], from: string) =>
  app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'x-forwarded-for': from }, payload: {} });

beforeAll(() => {
  bus = createMemoryBus();
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.app.close();
  await bus?.close();
});

describe.skipIf(!redisListens)('the rate limit shared through Redis', () => {
  it('two gateways allow one budget between them, then both answer 429 with Retry-After in the error shape', async () => {
    const [a, b] = [gatewayWith({ RENOPATH_RATE_LIMIT_REDIS_URL: REDIS_URL }), gatewayWith({ RENOPATH_RATE_LIMIT_REDIS_URL: REDIS_URL })];
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i++) statuses.push((await tokenRequest(i % 2 === 0 ? a! : b!, from)).statusCode);
    expect(statuses).toEqual(Array(BURST).fill(400));
    for (const app of [a!, b!]) {
      const limited = await tokenRequest(app, from);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: ['rate limit exceeded; slow down'] });
    }
    // Another client's budget is its own.
    expect((await tokenRequest(b!, address())).statusCode).toBe(400);
  });

  it('without the shared store each gateway counts alone (the reason the store exists)', async () => {
    const [a, b] = [gatewayWith({}), gatewayWith({})];
    const from = address();
    for (let i = 0; i < BURST; i++) expect((await tokenRequest(a!, from)).statusCode).toBe(400);
    expect((await tokenRequest(a!, from)).statusCode).toBe(429);
    expect((await tokenRequest(b!, from)).statusCode).toBe(400);
  });
});
