import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { requestLogger } from './request-logger.ts';

/** A pino logger whose lines land in `lines`, without their timestamps. */
function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      const { time: _time, ...line } = JSON.parse(String(chunk)) as Record<string, unknown>;
      lines.push(line);
      done();
    },
  });
  const logger = pino(
    { level, serializers: { req: (req: { url: string }) => ({ url: req.url }) } },
    stream,
  ) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

/** The same calls on a request logger and on the child Fastify would make by default. */
function both(level: string, use: (log: FastifyBaseLogger) => void) {
  const lazy = capture(level);
  const eager = capture(level);
  const bindings = { reqId: 'r-1', client_request_id: 'c-1' };
  use(requestLogger(lazy.logger, bindings, {}));
  use(eager.logger.child(bindings, {}));
  return { lazy: lazy.lines, eager: eager.lines };
}

describe('request logger', () => {
  it('writes the lines the child logger writes, with its bindings and serializers, at every level', async () => {
    const boom = new Error('boom');
    for (const level of ['trace', 'info', 'warn', 'silent']) {
      const { lazy, eager } = both(level, (log) => {
        log.info({ req: { url: '/x', secret: 'no' } }, 'incoming request');
        log.debug('details %s', 'here');
        log.warn({ err: boom }, 'a warning');
        log.error('an error');
        log.child({ nested: true }).warn('from a child');
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(lazy).toEqual(eager);
    }
  });

  it('follows a level set on it, and reports the level in force', async () => {
    const { lazy, eager } = both('warn', (log) => {
      expect(log.level).toBe('warn');
      log.info('not yet');
      log.level = 'debug';
      expect(log.level).toBe('debug');
      log.debug('now');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lazy).toEqual(eager);
    expect(lazy.map((l) => l['msg'])).toEqual(['now']);
  });

  it('makes a route with its own level or serializers its child at once', () => {
    const { logger } = capture('warn');
    const child = requestLogger(logger, { reqId: 'r' }, { level: 'debug' });
    expect(child.level).toBe('debug');
  });
});
