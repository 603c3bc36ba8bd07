import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryBus, openFsBlobStore } from '@renopath/platform';
import { buildGateway } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

describe('request logs', () => {
  it("carry the request ids but never a signed link's signature", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const dir = mkdtempSync(join(tmpdir(), 'renopath-log-'));
    const bus = createMemoryBus();
    const blobs = await openFsBlobStore({ root: dir });
    const { app } = buildGateway({
      bus,
      blobs,
      config: loadGatewayConfig({ LOG_LEVEL: 'info' }),
      logger: pino({ level: 'info' }, sink),
      downloadSecret: Buffer.alloc(32, 7),
    });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/downloads/abc/plan.pdf?expires=1&signature=TOP-SECRET',
        headers: { 'x-request-id': 'req-77' },
      });
      expect(res.statusCode).toBe(403);
      const log = lines.join('');
      // The client's id is logged apart from ours (the correlation id is the service's own).
      expect(log).toContain('"client_request_id":"req-77"');
      expect(log).toContain(`"reqId":"${res.headers['x-correlation-id']}"`);
      expect(log).toContain('signature=[redacted]');
      expect(log).not.toContain('TOP-SECRET');
    } finally {
      await app.close();
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
