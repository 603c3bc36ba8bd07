import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';

/** JWT forgeries: every one is a bare 401 (docs/http-contract.md "Errors"), on a read and on a write. */

let stack: Stack;
let valid: string;
let serviceKey: { kid: string; private_jwk: JWK; public_jwk: JWK };

beforeAll(async () => {
  stack = await startStack();
  valid = await stack.token();
  serviceKey = (JSON.parse(readFileSync(join(stack.contextDir('identity'), 'signing-keys.json'), 'utf8')) as Array<typeof serviceKey>).at(
    -1,
  )!;
});
afterAll(async () => stack?.close());

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({
  iss: 'renopath',
  aud: 'renopath-api',
  sub: stack.bootstrap.user_id,
  org: stack.bootstrap.organization_id,
  client_id: stack.bootstrap.client_id,
  scope: 'estates organization audit',
  jti: `j-${Math.random()}`,
  iat: now(),
  exp: now() + 600,
});

/** Signed with the service's real key: only the claims are wrong. */
async function withServiceKey(payload: Record<string, unknown>, header: Record<string, unknown> = {}) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'EdDSA', kid: serviceKey.kid, typ: 'JWT', ...header })
    .sign(await importJWK(serviceKey.private_jwk, 'EdDSA'));
}

/** Signed by hand with the real key, for headers jose refuses to produce. */
function rawWithServiceKey(header: Record<string, unknown>, payload: Record<string, unknown>) {
  const input = `${b64(header)}.${b64(payload)}`;
  const key = createPrivateKey({ key: serviceKey.private_jwk as never, format: 'jwk' });
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

async function forgeries(): Promise<Array<[string, string]>> {
  const [header, payload, signature] = valid.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const attacker = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const attackerJwk = await exportJWK(attacker.publicKey);
  const publicKeyBytes = new TextEncoder().encode(JSON.stringify(serviceKey.public_jwk));
  const { exp: _exp, iat: _iat, ...timeless } = claims();
  return [
    ['alg none, empty signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    ['alg none, some signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.${b64('x')}`],
    [
      'HS256 keyed with the public JWK',
      await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: serviceKey.kid }).sign(publicKeyBytes),
    ],
    [
      'HS256 keyed with the public key x',
      await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', kid: serviceKey.kid })
        .sign(Buffer.from(String(serviceKey.public_jwk.x), 'base64url')),
    ],
    [
      'another key, unknown kid',
      await new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', kid: 'attacker-key' }).sign(attacker.privateKey),
    ],
    [
      'another key, the real kid',
      await new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', kid: serviceKey.kid }).sign(attacker.privateKey),
    ],
    [
      'another key, embedded in the header',
      await new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', jwk: attackerJwk }).sign(attacker.privateKey),
    ],
    ['expired', await withServiceKey({ ...timeless, iat: now() - 7200, exp: now() - 3600 })],
    ['issued in the future', await withServiceKey({ ...timeless, iat: now() + 3600, exp: now() + 7200 })],
    ['no exp', await withServiceKey({ ...timeless, iat: now() })],
    ['wrong audience', await withServiceKey({ ...claims(), aud: 'another-api' })],
    ['wrong issuer', await withServiceKey({ ...claims(), iss: 'https://evil.example' })],
    ['no org', await withServiceKey({ ...claims(), org: undefined })],
    ['unknown critical header', rawWithServiceKey({ alg: 'EdDSA', kid: serviceKey.kid, crit: ['x-evil'], 'x-evil': true }, claims())],
    ['RS256 header on an EdDSA signature', rawWithServiceKey({ alg: 'RS256', kid: serviceKey.kid }, claims())],
    ['tampered payload (scope)', `${header}.${b64({ ...decoded, scope: `${String(decoded['scope'])} audit` })}.${signature}`],
    ['tampered payload (org)', `${header}.${b64({ ...decoded, org: '7d9c2f7e-1111-4222-8333-944455556666' })}.${signature}`],
    ['tampered header (kid)', `${b64({ alg: 'EdDSA', kid: 'other' })}.${payload}.${signature}`],
    ['truncated signature', `${header}.${payload}.${signature.slice(0, -4)}`],
    ['two segments', `${header}.${payload}`],
  ];
}

describe('JWT forgeries', () => {
  it('a genuine token works (the forgeries below differ from it in one way each)', async () => {
    expect((await stack.as(valid).get('/users/me')).statusCode).toBe(200);
    expect((await stack.as(await withServiceKey(claims())).get('/users/me')).statusCode).toBe(200);
  });

  it('answers every forged token with a bare 401, on reads and writes', async () => {
    const accepted: string[] = [];
    for (const [name, token] of await forgeries()) {
      for (const res of [await stack.as(token).get('/users/me'), await stack.as(token).post('/estates', { name: name.slice(0, 200) })]) {
        if (res.statusCode !== 401) accepted.push(`${name}: ${res.statusCode}`);
        else expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized' });
      }
    }
    expect(accepted).toEqual([]);
  });
});
