import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF } from './files.ts';
import { ADMIN_TOKEN, startStack, type Stack } from './stack.ts';

/** Holes 4, 5, 7 and the input parts of 8 of the attack issue, each held over HTTP. */

let stack: Stack;
let owner: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
});
afterAll(async () => stack?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const tokenRequest = (client_id: string, client_secret: string, headers: Record<string, string> = {}) =>
  stack.app.inject({
    method: 'POST',
    url: '/v1/oauth/token',
    headers: { 'x-service-client-id': client_id, 'x-service-client-secret': client_secret, ...headers },
  });

/** A token signed with the service's own key (an insider, or the service) with claims of the test's choosing. */
async function signedWithServiceKey(claims: Record<string, unknown>, timing: { iat: number; exp: number }) {
  const [key] = (
    JSON.parse(readFileSync(join(stack.dataDir, 'identity', 'signing-keys.json'), 'utf8')) as Array<{ kid: string; private_jwk: JWK }>
  ).slice(-1);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: key!.kid, typ: 'JWT' })
    .setIssuedAt(timing.iat)
    .setExpirationTime(timing.exp)
    .sign(await importJWK(key!.private_jwk, 'EdDSA'));
}

describe('hole 4: secret verification cannot starve other work or tell which client ids exist', () => {
  it('answers an unknown client id exactly like a known one with a wrong secret', async () => {
    const known = await tokenRequest(stack.bootstrap.client_id, 'f'.repeat(64));
    const unknown = await tokenRequest('7d9c2f7e-1111-4222-8333-944455556666', 'f'.repeat(64));
    expect(known.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
  });

  it('limits wrong secrets per client id whatever address they come from (429 with Retry-After)', async () => {
    const client = (await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id })).json() as {
      client_id: string;
      client_secret: string;
    };
    for (let i = 0; i < 10; i++) {
      expect((await tokenRequest(client.client_id, 'a'.repeat(64), { 'x-forwarded-for': `198.51.100.${i}` })).statusCode).toBe(400);
    }
    const blocked = await tokenRequest(client.client_id, 'a'.repeat(64), { 'x-forwarded-for': '198.51.100.77' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: [expect.any(String)] });
    // Other clients are not held back.
    expect((await tokenRequest(stack.bootstrap.client_id, stack.bootstrap.client_secret)).statusCode).toBe(200);
  });

  it('limits wrong secrets per address whatever client ids it tries (with rate limits on)', async () => {
    const s = await startStack({ RENOPATH_RATE_LIMIT_PER_SECOND: '1000', RENOPATH_RATE_LIMIT_BURST: '1000' });
    try {
      const guess = (i: number) =>
        s.app.inject({
          method: 'POST',
          url: '/v1/oauth/token',
          headers: {
            'x-service-client-id': `7d9c2f7e-3333-4222-8333-${String(i).padStart(12, '0')}`,
            'x-service-client-secret': 'd'.repeat(64),
          },
        });
      // 20 guesses, then one every 30 s (token.ts): what refilled while the first 20 were checked (on a
      // busy machine they can take longer than that) may still pass, and the guess after it is refused.
      // One after the other: identity checks one secret at a time, and 20 at once would wait behind each
      // other past the bus timeout on a busy machine (what the flood test below is about).
      const started = performance.now();
      const first: Array<{ statusCode: number }> = [];
      for (let i = 0; i < 20; i++) first.push(await guess(i));
      expect(first.map((r) => r.statusCode)).toEqual(Array(20).fill(400));
      let blocked = await guess(20);
      for (let extra = 0; blocked.statusCode === 400; extra++) {
        expect(extra, 'more guesses passed than refilled').toBeLessThan(Math.floor((performance.now() - started) / 30_000));
        blocked = await guess(21 + extra);
      }
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it('keeps uploads flowing while a flood of wrong secrets is being checked', async () => {
    const estate = (await stack.as(owner).post('/estates', { name: 'Flooded' })).json() as { id: string };
    const order: string[] = [];
    // Distinct unknown ids: the per-id limit does not cut the flood short, every one costs a hash.
    const flood = Array.from({ length: 24 }, (_, i) =>
      tokenRequest(`7d9c2f7e-2222-4222-8333-${String(i).padStart(12, '0')}`, 'b'.repeat(64)).then((res) => (order.push('token'), res)),
    );
    const upload = stack
      .as(owner)
      .upload(`/estates/${estate.id}/files`, [{ name: 'file', filename: 'epc.pdf', content: PDF }])
      .then((res) => (order.push('upload'), res));
    const [uploaded, ...answers] = await Promise.all([upload, ...flood]);
    expect(uploaded.statusCode).toBe(201);
    // Not starved: the upload is answered before most of the flood (before, it waited behind every hash).
    expect(order.indexOf('upload')).toBeLessThan(12);
    for (const res of answers) {
      expect([400, 503]).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ statusCode: res.statusCode, message: [expect.any(String)] });
    }
  });
});

describe('hole 5: proxy trust is a hop count or a list of proxies', () => {
  const hit = (s: Stack, forwardedFor: string) =>
    s.app.inject({ method: 'POST', url: '/v1/oauth/token', headers: { 'x-forwarded-for': forwardedFor }, payload: {} });

  it('refuses RENOPATH_TRUST_PROXY=true at start-up with a clear message', async () => {
    await expect(startStack({ RENOPATH_TRUST_PROXY: 'true' })).rejects.toThrow(
      /RENOPATH_TRUST_PROXY must be the number of proxies.*would trust any client/,
    );
    await expect(startStack({ RENOPATH_TRUST_PROXY: '10.0.0.0/33' })).rejects.toThrow(/not an address: 10\.0\.0\.0\/33/);
  });

  it('unset, X-Forwarded-For does not change the address limits are counted under', async () => {
    const s = await startStack({ RENOPATH_RATE_LIMIT_PER_SECOND: '0.01', RENOPATH_RATE_LIMIT_BURST: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await hit(s, `203.0.113.${i}`)).statusCode);
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await s.close();
    }
  });

  it('behind one proxy, only the address that proxy saw counts: spoofed hops before it do not', async () => {
    for (const trust of ['1', '127.0.0.1/8']) {
      const s = await startStack({ RENOPATH_TRUST_PROXY: trust, RENOPATH_RATE_LIMIT_PER_SECOND: '0.01', RENOPATH_RATE_LIMIT_BURST: '2' });
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await hit(s, `10.9.9.${i}, 203.0.113.50`)).statusCode);
        expect(statuses).toEqual([400, 400, 429]);
        // Another client behind the same proxy has its own allowance.
        expect((await hit(s, '203.0.113.51')).statusCode).toBe(400);
      } finally {
        await s.close();
      }
    }
  });
});

describe("hole 7: correlation ids are the service's own", () => {
  it('echoes a client x-request-id but never uses it as the correlation id of the events', async () => {
    const audit = await stack.clientToken(stack.bootstrap.user_id, ['estates', 'audit']);
    const post = (name: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/estates',
        headers: { authorization: `Bearer ${owner}`, 'x-request-id': 'crm-req-1' },
        payload: { name },
      });
    const first = await post('Correlated one');
    const second = await post('Correlated two');
    expect(first.headers['x-request-id']).toBe('crm-req-1');
    const correlation = first.headers['x-correlation-id'] as string;
    expect(correlation).toMatch(UUID);
    expect(second.headers['x-correlation-id']).not.toBe(correlation);
    const history = (await stack.as(audit).get(`/v1/estates/${first.json().id}/history`)).json() as Array<{ correlation_id: string }>;
    expect(history.map((e) => e.correlation_id)).toEqual([correlation]);
    const other = (await stack.as(audit).get(`/v1/estates/${second.json().id}/history`)).json() as Array<{ correlation_id: string }>;
    expect(other[0]!.correlation_id).toBe(second.headers['x-correlation-id']);
  });
});

describe('hole 8: text, oversized error bodies, the admin token and future tokens', () => {
  it('refuses NUL, ESC and other controls in a description, and keeps line breaks', async () => {
    for (const description of ['a\u0000b', 'colour \u001b[31m red', 'bell\u0007']) {
      const res = await stack.as(owner).post('/estates', { description });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(['description must not contain control characters other than tabs and line breaks']);
    }
    const ok = await stack.as(owner).post('/estates', { description: 'Two lines\nand\ta tab' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().description).toBe('Two lines\nand\ta tab');
  });

  it('refuses unpaired surrogates and bidi overrides in names', async () => {
    const raw = (url: string, method: 'POST' | 'PATCH', json: string) =>
      stack.app.inject({ method, url, headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, payload: json });
    const lone = await raw('/estates', 'POST', '{"name":"Villa \\ud800"}');
    expect(lone.statusCode).toBe(400);
    expect(lone.json().message).toEqual(['name must be valid Unicode text (it contains an unpaired surrogate)']);
    for (const bidi of ['\u202e', '\u2066', '\u202a']) {
      const res = await stack.as(owner).post('/estates', { name: `Villa ${bidi}fdp.exe` });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(['name must not contain bidirectional override or isolate characters']);
    }
    const user = await stack.as(owner).patch(`/users/${stack.bootstrap.user_id}`, { first_name: 'An\u202ena' });
    expect(user.statusCode).toBe(400);
    // Real names in any script (and emoji, which are surrogate pairs) stay welcome.
    expect((await stack.as(owner).post('/estates', { name: 'Ĳsselmeer 🏠 Œuvre مرحبا' })).statusCode).toBe(201);
  });

  it('answers a body of 40,000 unknown keys with a short error', async () => {
    const body = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 1]));
    const res = await stack.as(owner).post('/estates', body);
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThan(4096);
    const messages = res.json().message as string[];
    expect(messages).toHaveLength(21);
    expect(messages[0]).toBe('k0 is not an allowed field');
    expect(messages[20]).toBe('... and 39980 more problems');
  });

  it('refuses admin tokens that are a prefix or an extension of the real one', async () => {
    for (const given of [ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}x`, 'x', ADMIN_TOKEN.toUpperCase()]) {
      const res = await stack.app.inject({
        method: 'POST',
        url: '/admin/api-clients',
        headers: { authorization: `Bearer ${given}` },
        payload: { user_id: stack.bootstrap.user_id },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id })).statusCode).toBe(201);
  });

  it('refuses a token issued in the future, and accepts one issued now', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: 'renopath',
      aud: 'renopath-api',
      sub: stack.bootstrap.user_id,
      org: stack.bootstrap.organization_id,
      client_id: stack.bootstrap.client_id,
      scope: 'estates',
      jti: 'j-1',
    };
    const future = await signedWithServiceKey(claims, { iat: now + 3600, exp: now + 7200 });
    expect((await stack.as(future).get('/users/me')).statusCode).toBe(401);
    const present = await signedWithServiceKey({ ...claims, jti: 'j-2' }, { iat: now, exp: now + 600 });
    expect((await stack.as(present).get('/users/me')).statusCode).toBe(200);
  });
});
