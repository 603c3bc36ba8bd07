import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { IdentitySubjects } from '@renopath/contracts';
import { createMemoryBus, type BlobStore, type Bus } from '@renopath/platform';
import { settleSubject } from '@renopath/platform/service/settlement.ts';
import { buildGateway } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

const gatewayOn = (bus: Bus, env: Record<string, string> = {}) =>
  buildGateway({
    bus,
    config: loadGatewayConfig({ LOG_LEVEL: 'silent', ...env }),
    logger: pino({ level: 'silent' }),
    blobs: {} as BlobStore,
    downloadSecret: randomBytes(32),
  });

describe('gateway lifecycle', () => {
  it('answers /ready with 503 in the error shape of docs/http-contract.md "Errors", with Retry-After, until identity and every context answer', async () => {
    const bus = createMemoryBus();
    const { app } = gatewayOn(bus);
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: ['identity service is not reachable', 'estates service is not reachable', 'renovations service is not reachable', 'calculations service is not reachable', 'reporting service is not reachable'],
      });
      // Peers arrive in any order; the gateway names what is still missing, then is ready.
      await bus.handle(IdentitySubjects.jwks, async () => ({ keys: [] }));
      await bus.handle(settleSubject('renovations'), async () => ({ position: null, complete: true }));
      await bus.handle(settleSubject('calculations'), async () => ({ position: null, complete: true }));
      await bus.handle(settleSubject('reporting'), async () => ({ position: null, complete: true }));
      expect((await app.inject({ method: 'GET', url: '/ready' })).json().message).toEqual(['estates service is not reachable']);
      await bus.handle(settleSubject('estates'), async () => ({ position: null, complete: true }));
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    } finally {
      await app.close();
      await bus.close();
    }
  });

  it('stops following revocations when the app closes, though the bus stays open', async () => {
    const bus = createMemoryBus();
    await bus.handle(IdentitySubjects.jwks, async () => ({ keys: [] }));
    await bus.handle(IdentitySubjects.revokedClients, async () => ({ client_ids: [] }));
    const closed: string[] = [];
    const consume: Bus['consume'] = async (name, options, handler) => {
      const subscription = await bus.consume(name, options, handler);
      return { close: async () => (closed.push(name), subscription.close()) };
    };
    const gateway = gatewayOn(Object.assign(Object.create(bus) as Bus, { consume }));
    await gateway.start();
    await gateway.app.close();
    expect(closed).toEqual([expect.stringMatching(/^gateway-revocations-/)]);
    await bus.close();
  });

  it('limits guesses at the admin token per address (429 with Retry-After)', async () => {
    const bus = createMemoryBus();
    const { app } = gatewayOn(bus, { RENOPATH_ADMIN_TOKEN: 'operator-token-0123456789', RENOPATH_RATE_LIMIT_PER_SECOND: '1', RENOPATH_RATE_LIMIT_BURST: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const guess = await app.inject({ method: 'POST', url: '/admin/api-clients', headers: { authorization: `Bearer guess-${i}-0123456789abcdef` }, payload: {} });
        statuses.push(guess.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
      await bus.close();
    }
  });
});
