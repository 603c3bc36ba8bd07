import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryBus, type BlobStore } from '@renopath/platform';
import { startMetricsServer } from '@renopath/platform/observability/metrics-server.ts';
import type { LoopLoad, LoopProbe, OverloadLimits } from '@renopath/platform/observability/overload-limits.ts';
import { buildGateway } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

/**
 * Load shedding (docs/operations.md "Overload"): past its limits the gateway answers 503 with
 * Retry-After in the error shape at once, never another 5xx nor a wait for the bus, and serves
 * normally again once the load is gone. The limits here are tiny so that a test can pass them.
 */
const LIMITS: OverloadLimits = { maxEventLoopDelayMs: 20, maxEventLoopUtilization: 0, maxHeapUsedBytes: 0, retryAfterS: 7 };

const gatewayWith = (overload: OverloadLimits, contextLoops: LoopProbe[] = []) =>
  buildGateway({
    bus: createMemoryBus(),
    config: loadGatewayConfig({ LOG_LEVEL: 'silent' }),
    logger: pino({ level: 'silent' }),
    blobs: {} as BlobStore,
    downloadSecret: randomBytes(32),
    overload,
    contextLoops,
  });

/** Keeps this thread's event loop busy, as a request that computes for `ms` would. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spinning
  }
}

const SHED_BODY = { statusCode: 503, error: 'Service Unavailable', message: [expect.stringMatching(/overloaded/)] };

async function expectShed(res: Response, retryAfterS: number) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe(String(retryAfterS));
  expect(await res.json()).toEqual(SHED_BODY);
}

describe('overload', () => {
  it('sheds with 503 and Retry-After while its event loop is late, no other 5xx, then serves again', async () => {
    const { app } = gatewayWith(LIMITS);
    try {
      // Over a socket, as a client meets it: the event loop turns between requests.
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const statuses: number[] = [];
      // Each round blocks the loop as a heavy request would, then asks: once a sample sees the loop that
      // late, the answer is a 503 of its own, not a request queued behind the work.
      for (let round = 0; round < 60 && !statuses.includes(503); round++) {
        busy(150);
        const res = await fetch(`${base}/openapi.json`);
        statuses.push(res.status);
        if (res.status === 503) await expectShed(res, LIMITS.retryAfterS);
        else await res.arrayBuffer();
      }
      expect(statuses).toContain(503);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      // The liveness probe is never shed: a busy process is not a dead one.
      busy(150);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      // The load stops: the next samples see a prompt loop, and the same request is served.
      await vi.waitFor(
        async () => {
          const res = await fetch(`${base}/openapi.json`);
          await res.arrayBuffer();
          expect(res.status).toBe(200);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await app.close();
    }
  });

  it("sheds while a context thread's loop is over the limit or does not answer, and serves once it is back", async () => {
    let load: LoopLoad | null = { delayMs: 0, utilization: 0.1 };
    const probe: LoopProbe = async () => load;
    const { app } = gatewayWith({ ...LIMITS, maxEventLoopDelayMs: 500 }, [probe]);
    const openapi = () => app.inject({ method: 'GET', url: '/openapi.json' });
    try {
      await app.ready();
      expect((await openapi()).statusCode).toBe(200);
      // The thread's own loop is late: the gateway in front of it sheds.
      load = { delayMs: 900, utilization: 1 };
      await vi.waitFor(async () => expect((await openapi()).statusCode).toBe(503), { timeout: 10_000, interval: 100 });
      const shed = await openapi();
      expect(shed.headers['retry-after']).toBe(String(LIMITS.retryAfterS));
      expect(shed.json()).toEqual(SHED_BODY);
      // The thread does not answer at all (its loop is stuck): the same.
      load = null;
      await vi.waitFor(async () => expect((await openapi()).statusCode).toBe(503), { timeout: 10_000, interval: 100 });
      load = { delayMs: 3, utilization: 0.2 };
      await vi.waitFor(async () => expect((await openapi()).statusCode).toBe(200), { timeout: 10_000, interval: 100 });
    } finally {
      await app.close();
    }
  });

  it('with the delay limit at 0, a late loop is never shed', async () => {
    const { app } = buildGateway({
      bus: createMemoryBus(),
      config: loadGatewayConfig({ LOG_LEVEL: 'silent' }),
      logger: pino({ level: 'silent' }),
      blobs: {} as BlobStore,
      downloadSecret: randomBytes(32),
      overload: { ...LIMITS, maxEventLoopDelayMs: 0 },
    });
    try {
      await app.ready();
      busy(300);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      busy(300);
      expect((await app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("a context process's health server answers 503 with Retry-After while overloaded, and always serves /metrics", async () => {
    let load: LoopLoad | null = null;
    const server = await startMetricsServer(0, [], { overload: { ...LIMITS, maxEventLoopDelayMs: 500 }, loops: [async () => load] });
    const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);
    try {
      const health = await get('/health');
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe(String(LIMITS.retryAfterS));
      expect(await health.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: [expect.stringMatching(/overloaded/)],
      });
      expect((await get('/metrics')).status).toBe(200);
      load = { delayMs: 1, utilization: 0.1 };
      await vi.waitFor(async () => expect((await get('/health')).status).toBe(200), { timeout: 10_000, interval: 100 });
    } finally {
      await server.close();
    }
  });
});
