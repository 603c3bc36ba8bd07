import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF } from './files.ts';
import { multipart, startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
});
afterAll(async () => stack?.close());

const post = (url: string, payload: object, key: string, bearer = owner) =>
  stack.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}`, 'idempotency-key': key }, payload });

describe('Idempotency-Key on POST (docs/http-contract.md "Idempotency and read-your-writes")', () => {
  it('answers a repeated request with the first answer and does the work once', async () => {
    const first = await post('/estates', { name: 'Once', address: { zip_code: '9000' } }, 'crm-create-1');
    expect(first.statusCode).toBe(201);
    const again = await post('/v1/estates', { address: { zip_code: '9000' }, name: 'Once' }, 'crm-create-1');
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const named = (await stack.as(owner).get('/estates')).json().filter((e: { name: string }) => e.name === 'Once');
    expect(named).toHaveLength(1);
  });

  it('answers 422 when the key comes back with another body, and 400 for a malformed key', async () => {
    expect((await post('/estates', { name: 'A' }, 'crm-create-2')).statusCode).toBe(201);
    const other = await post('/estates', { name: 'B' }, 'crm-create-2');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: ['Idempotency-Key was already used with a different request'],
    });
    expect((await post('/estates', { name: 'C' }, 'has spaces in it')).statusCode).toBe(400);
  });

  it('keeps keys per API client, and lets a failed request be retried under its key', async () => {
    const other = await stack.tenant('Other agency', 'idem@other.example');
    expect((await post('/estates', { name: 'Mine' }, 'shared-key')).statusCode).toBe(201);
    expect((await post('/estates', { name: 'Theirs' }, 'shared-key', other.token)).statusCode).toBe(201);
    expect((await post('/estates', { year_built: 5 }, 'retry-me')).statusCode).toBe(400);
    expect((await post('/estates', { year_built: 1950 }, 'retry-me')).statusCode).toBe(201);
  });

  it('replays an upload with a fresh download link, storing the file once', async () => {
    const estate = (await stack.as(owner).post('/estates', {})).json();
    const { payload, contentType } = multipart([{ name: 'file', filename: 'epc.pdf', content: PDF }]);
    const upload = () =>
      stack.app.inject({
        method: 'POST',
        url: `/estates/${estate.id}/files`,
        headers: { authorization: `Bearer ${owner}`, 'content-type': contentType, 'idempotency-key': 'up-1' },
        payload,
      });
    const first = await upload();
    const again = await upload();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().url).toMatch(/signature=/);
    expect((await stack.as(owner).get(`/estates/${estate.id}`)).json().files).toHaveLength(1);
  });
});
