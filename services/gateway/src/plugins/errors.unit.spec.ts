import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { BusUnavailableError } from '@renopath/platform';
import { handleError } from './errors.ts';

/** One route that throws what it is given, behind the gateway's error handler. */
async function answerTo(error: unknown) {
  const app = Fastify();
  app.setErrorHandler(handleError);
  app.get('/x', async () => {
    throw error;
  });
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return res;
}

describe('handleError', () => {
  it.each([
    [
      'the Idempotency-Key store refusing connections',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['PostgreSQL shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a context not answering on the bus', new BusUnavailableError('qry.estates.get-estate', 'no responders')],
  ])('answers %s with 503 and Retry-After, without the cause', async (_, error) => {
    const res = await answerTo(error);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: ['a backing service is unavailable; try again shortly'],
    });
    expect(res.body).not.toMatch(/5432|ECONNREFUSED|administrator/);
  });

  it('answers a bug with a bare 500', async () => {
    const res = await answerTo(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});
