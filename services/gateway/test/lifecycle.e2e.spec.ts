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
  it('answers /ready with 503 in the error shape of docs/http-contract.md "Errors", with Retry-After, until it holds identity\'s key set, then while it stops', async () => {
    const bus = createMemoryBus();
    const gateway = gatewayOn(bus, { RENOPATH_ADMIN_TOKEN: 'operator-token-0123456789', RENOPATH_BUS_TIMEOUT_MS: '300' });
    const { app } = gateway;
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: ["identity's key set is not loaded yet"] });
      await bus.handle(IdentitySubjects.jwks, async () => ({ keys: [] }));
      await bus.handle(IdentitySubjects.revokedClients, async () => ({ client_ids: [] }));
      await gateway.start();
      // Ready with contexts down: it names them, and their routes answer for themselves.
      await bus.handle(settleSubject('renovations'), async () => ({ position: null, complete: true }));
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        contexts: {
          identity: 'reachable',
          estates: 'unreachable',
          renovations: 'reachable',
          calculations: 'unreachable',
          reporting: 'unreachable',
        },
      });
      // A route whose context does not answer (identity's admin API here): 503 with Retry-After, the gateway still ready.
      const down = await app.inject({
        method: 'POST',
        url: '/admin/organizations',
        headers: { authorization: 'Bearer operator-token-0123456789' },
        payload: {
          name: 'Immo Peeters',
          country: 'BE',
          owner: { email_address: 'an@peeters.example', first_name: 'An', last_name: 'Peeters' },
        },
      });
      expect([down.statusCode, down.headers['retry-after']]).toEqual([503, '5']);
      expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      // SIGTERM: not ready any more, so the load balancer sends it nothing new while it finishes.
      gateway.drain();
      const stopping = await app.inject({ method: 'GET', url: '/ready' });
      expect([stopping.statusCode, stopping.headers['retry-after'], stopping.json().message]).toEqual([
        503,
        '5',
        ['the gateway is shutting down'],
      ]);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
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
    const { app } = gatewayOn(bus, {
      RENOPATH_ADMIN_TOKEN: 'operator-token-0123456789',
      RENOPATH_RATE_LIMIT_PER_SECOND: '1',
      RENOPATH_RATE_LIMIT_BURST: '3',
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const guess = await app.inject({
          method: 'POST',
          url: '/admin/api-clients',
          headers: { authorization: `Bearer guess-${i}-0123456789abcdef` },
          payload: {},
        });
        statuses.push(guess.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
      await bus.close();
    }
  });
});
