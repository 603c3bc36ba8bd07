import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedOnly, startStack, type Stack } from './stack.ts';

let stack: Stack;
let good: string;

beforeAll(async () => {
  stack = await startStack();
  good = await stack.token();
});
afterAll(async () => stack?.close());

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const parts = (jwt: string) => jwt.split('.') as [string, string, string];
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(parts(jwt)[1], 'base64url').toString());
const headerOf = (jwt: string) => JSON.parse(Buffer.from(parts(jwt)[0], 'base64url').toString());

async function expect401(token: string) {
  const res = await stack.as(token).get('/users/me');
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized' });
}

describe('bearer-token verification (forgery attempts)', () => {
  it('accepts the genuine token', async () => {
    expect((await stack.as(good).get('/users/me')).statusCode).toBe(200);
  });

  it('rejects no token, a malformed header and garbage', async () => {
    const none = await stack.app.inject({ method: 'GET', url: '/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ statusCode: 401, error: 'Unauthorized' });
    const basic = await stack.app.inject({ method: 'GET', url: '/users/me', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);
    await expect401('not.a.jwt');
  });

  it('accepts the scheme in any case (RFC 7235)', async () => {
    const lower = await stack.app.inject({ method: 'GET', url: '/users/me', headers: { authorization: `bearer ${good}` } });
    expect(lower.statusCode).toBe(200);
  });

  it('rejects alg "none" with the genuine claims', async () => {
    const forged = `${b64({ alg: 'none', typ: 'JWT' })}.${parts(good)[1]}.`;
    const res = await stack.app.inject({ method: 'GET', url: '/users/me', headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(401);
    const forgedWithSig = `${b64({ alg: 'none', typ: 'JWT', kid: headerOf(good).kid })}.${parts(good)[1]}.${parts(good)[2]}`;
    await expect401(forgedWithSig);
  });

  it('rejects a flipped signature and tampered claims', async () => {
    const [h, p, s] = parts(good);
    const sig = Buffer.from(s, 'base64url');
    sig[0] = sig[0]! ^ 0xff;
    await expect401(`${h}.${p}.${sig.toString('base64url')}`);
    const elevated = b64({ ...claimsOf(good), scope: 'audit estates', org: '00000000-0000-4000-8000-000000000000' });
    await expect401(`${h}.${elevated}.${s}`);
  });

  it('rejects HS256 signed with the public key (algorithm confusion)', async () => {
    const { keys } = (await stack.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const secret = new TextEncoder().encode(JSON.stringify(keys[0]));
    const forged = await new SignJWT(claimsOf(good)).setProtectedHeader({ alg: 'HS256', kid: keys[0].kid }).sign(secret);
    await expect401(forged);
  });

  it('rejects a token signed by another key with a known kid', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const forged = await new SignJWT(claimsOf(good)).setProtectedHeader({ alg: 'EdDSA', kid: headerOf(good).kid }).sign(privateKey);
    await expect401(forged);
    const otherKid = await new SignJWT(claimsOf(good)).setProtectedHeader({ alg: 'EdDSA', kid: 'unknown-kid' }).sign(privateKey);
    await expect401(otherKid);
  });

  it.skipIf(embeddedOnly('stack.running.identity.keys'))(
    'rejects a wrong audience, a wrong issuer and an expired token (genuinely signed)',
    async () => {
      // Tokens signed with the service's own key, so only the pinned claim can make them fail.
      const ring = stack.running.identity.keys;
      const base = {
        sub: stack.bootstrap.user_id,
        org: stack.bootstrap.organization_id,
        client_id: stack.bootstrap.client_id,
        scope: 'estates organization',
      };
      await expect401(await ring.sign({ ...base, iss: 'renopath', aud: 'someone-else' }, 3600));
      await expect401(await ring.sign({ ...base, iss: 'evil', aud: 'renopath-api' }, 3600));
      const ok = await ring.sign({ ...base, iss: 'renopath', aud: 'renopath-api' }, 3600);
      expect((await stack.as(ok).get('/users/me')).statusCode).toBe(200);
      const expired = await ring.sign({ ...base, iss: 'renopath', aud: 'renopath-api' }, -120);
      await expect401(expired);
    },
  );
});
