import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { IdentitySubjects } from '@renopath/contracts';
import { createMemoryBus, type MemoryBus } from '@renopath/platform';
import { TokenVerifier } from './auth.ts';

const ISSUER = 'renopath';
const AUDIENCE = 'renopath-api';

async function keyPair() {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const token = () =>
    new SignJWT({ org: randomUUID(), client_id: randomUUID(), scope: 'estates' })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(randomUUID())
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti(randomUUID())
      .sign(privateKey);
  return { jwk, token };
}

let bus: MemoryBus | null = null;
afterEach(async () => bus?.close());

describe('TokenVerifier', () => {
  it('lets requests that meet a new key while the key set is being fetched wait for that fetch, not fail', async () => {
    bus = createMemoryBus();
    const first = await keyPair();
    const rotated = await keyPair();
    let published = [first.jwk];
    let fetches = 0;
    await bus.handle(IdentitySubjects.jwks, async () => {
      fetches += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { keys: published };
    });
    let skew = 0;
    const verifier = new TokenVerifier({ bus, issuer: ISSUER, audience: AUDIENCE, now: () => Date.now() + skew });
    await verifier.verify(`Bearer ${await first.token()}`);
    expect(fetches).toBe(1);

    // The identity service rotated; past the refresh interval, two requests carry tokens of the new key at once.
    published = [first.jwk, rotated.jwk];
    skew = 20_000;
    const results = await Promise.allSettled([
      verifier.verify(`Bearer ${await rotated.token()}`),
      verifier.verify(`Bearer ${await rotated.token()}`),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(fetches).toBe(2);
  });

  it('closes its revocation feed when it cannot load the clients revoked earlier', async () => {
    const memory = createMemoryBus();
    bus = memory;
    await memory.handle(IdentitySubjects.jwks, async () => ({ keys: [] }));
    const closed: string[] = [];
    const consume: MemoryBus['consume'] = async (name, options, handler) => {
      const subscription = await memory.consume(name, options, handler);
      return { close: async () => (closed.push(name), subscription.close()) };
    };
    const verifier = new TokenVerifier({
      bus: Object.assign(Object.create(memory) as MemoryBus, { consume }),
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    await expect(verifier.start('revocations-test')).rejects.toThrow(/no responders/);
    expect(closed).toEqual(['revocations-test']);
  });
  it('answers a token it verified before from its cache, and still refuses it once expired or revoked', async () => {
    bus = createMemoryBus();
    const keys = await keyPair();
    await bus.handle(IdentitySubjects.jwks, async () => ({ keys: [keys.jwk] }));
    let skew = 0;
    const verifier = new TokenVerifier({ bus, issuer: ISSUER, audience: AUDIENCE, now: () => Date.now() + skew });
    const token = await keys.token();
    const actor = await verifier.verify(`Bearer ${token}`);
    // The scheme is case-insensitive, cached or not; anything around the token is still malformed.
    await expect(verifier.verify(`bearer ${token}`)).resolves.toEqual(actor);
    await expect(verifier.verify(`Bearer ${token}`)).resolves.toEqual(actor);
    await expect(verifier.verify(`Bearer ${token} `)).rejects.toThrow('malformed bearer token');
    await expect(verifier.verify(`Bearer  ${token}`)).rejects.toThrow('malformed bearer token');
    verifier.markRevoked(actor.client_id);
    await expect(verifier.verify(`Bearer ${token}`)).rejects.toThrow('client revoked');

    const other = await keys.token();
    const second = await verifier.verify(`Bearer ${other}`);
    expect(second.client_id).not.toBe(actor.client_id);
    await expect(verifier.verify(`Bearer ${other}`)).resolves.toEqual(second); // now the header answered last
    skew = 2 * 3600 * 1000; // past the token's hour
    await expect(verifier.verify(`Bearer ${other}`)).rejects.toThrow('token expired');
    await expect(verifier.verify(`Bearer ${other}`)).rejects.toThrow(); // and stays refused
    skew = 0;
    await expect(verifier.verify(`Bearer ${token}`)).rejects.toThrow('client revoked');
  });
});
