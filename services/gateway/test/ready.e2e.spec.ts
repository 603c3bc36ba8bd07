import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryBus, type BlobStore } from '@renopath/platform';
import { buildGateway } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

describe('GET /ready', () => {
  it('answers 503 in the error shape of API.md 2, with Retry-After, while the identity service is unreachable', async () => {
    const bus = createMemoryBus();
    const { app } = buildGateway({
      bus,
      config: loadGatewayConfig({ LOG_LEVEL: 'silent' }),
      logger: pino({ level: 'silent' }),
      blobs: {} as BlobStore,
      downloadSecret: randomBytes(32),
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: ['identity service is not reachable'] });
    } finally {
      await app.close();
      await bus.close();
    }
  });
});
