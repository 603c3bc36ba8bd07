import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore, type EventStore } from '@renopath/platform';
import { SecretBox } from '../webhook-secrets/secret-box.ts';
import { DOCUMENT_KEYS_STREAM, SIGNING_KEYS_STREAM, SigningKeys } from './signing-keys.ts';

const claims = { iss: 'iss', aud: 'aud', sub: 'u', org: 'o', client_id: 'c', scope: 'estates' };
const DAY = 86_400_000;

const verifies = async (token: string, keys: SigningKeys, at = new Date()) =>
  (
    await jwtVerify(token, createLocalJWKSet((await keys.jwks()) as unknown as JSONWebKeySet), {
      issuer: 'iss',
      audience: 'aud',
      currentDate: at,
    })
  ).payload.sub;

describe('SigningKeys', () => {
  let dir: string | null = null;
  const stores: EventStore[] = [];
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
    for (const store of stores.splice(0)) await store.close();
  });

  const store = () => {
    const eventStore = openSqliteEventStore({ file: ':memory:' });
    stores.push(eventStore);
    return eventStore;
  };

  it('makes one new key when several tokens are signed at once as rotation falls due', async () => {
    dir = await mkdtemp(join(tmpdir(), 'signing-keys-'));
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const keys = await SigningKeys.open({
      file: join(dir, 'keys.json'),
      rotateAfterMs: DAY,
      tokenTtlMs: 3600_000,
      now: () => new Date(now),
    });
    now += DAY + 1;
    // Concurrent rotations each generated a key and raced on one temp file (ENOENT on the second rename).
    const tokens = await Promise.all(Array.from({ length: 4 }, () => keys.sign(claims, 3600)));
    expect(tokens).toHaveLength(4);
    expect((await keys.jwks()).keys).toHaveLength(2);
    const reopened = await SigningKeys.open({
      file: join(dir, 'keys.json'),
      rotateAfterMs: DAY,
      tokenTtlMs: 3600_000,
      now: () => new Date(now),
    });
    expect((await reopened.jwks()).keys.map((k) => k['kid'])).toEqual((await keys.jwks()).keys.map((k) => k['kid']));
  });

  describe('shared by replicas through the event store', () => {
    it('replicas that start at once make one key between them, and each verifies what the other signed', async () => {
      const eventStore = store();
      const secrets = new SecretBox(randomBytes(32));
      const options = { file: null, shared: { eventStore, secrets }, rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date() };
      const [a, b] = await Promise.all([SigningKeys.open(options), SigningKeys.open(options)]);
      const fromA = await a.sign(claims, 3600);
      const fromB = await b.sign(claims, 3600);
      expect(decodeProtectedHeader(fromA).kid).toBe(decodeProtectedHeader(fromB).kid);
      expect(await verifies(fromA, b)).toBe('u');
      expect(await verifies(fromB, a)).toBe('u');
      const stream = await eventStore.readStream(SIGNING_KEYS_STREAM);
      expect(stream).toHaveLength(1);
      // The private key is in the store only sealed.
      expect(JSON.stringify(stream[0]!.data)).not.toContain('"d"');
    });

    it('a rotation by one replica is what the other signs with next, and the JWKS keeps the retired key', async () => {
      const eventStore = store();
      const secrets = new SecretBox(randomBytes(32));
      let now = Date.parse('2026-01-01T00:00:00.000Z');
      const options = { file: null, shared: { eventStore, secrets }, rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date(now) };
      const a = await SigningKeys.open(options);
      const b = await SigningKeys.open(options);
      // Signed a minute before its key is due: it stays valid an hour, through the rotation.
      now += DAY - 60_000;
      const before = await b.sign(claims, 3600);
      now += 60_001;
      const rotated = await a.sign(claims, 3600);
      const next = await b.sign(claims, 3600);
      expect(decodeProtectedHeader(rotated).kid).not.toBe(decodeProtectedHeader(before).kid);
      expect(decodeProtectedHeader(next).kid).toBe(decodeProtectedHeader(rotated).kid);
      expect((await a.jwks()).keys.map((k) => k['kid'])).toEqual([decodeProtectedHeader(before).kid, decodeProtectedHeader(rotated).kid]);
      expect(await verifies(before, a, new Date(now))).toBe('u');
      expect(await eventStore.readStream(SIGNING_KEYS_STREAM)).toHaveLength(2);
      // Past the last token the retired key could have signed, it leaves the JWKS.
      now += 3600_000 + 1;
      expect((await b.jwks()).keys.map((k) => k['kid'])).toEqual([decodeProtectedHeader(rotated).kid]);
    });

    it('a replica with another secrets key signs with a key of its own, which every replica publishes', async () => {
      const eventStore = store();
      const options = { file: null, rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date() };
      const a = await SigningKeys.open({ ...options, shared: { eventStore, secrets: new SecretBox(randomBytes(32)) } });
      const b = await SigningKeys.open({ ...options, shared: { eventStore, secrets: new SecretBox(randomBytes(32)) } });
      const fromA = await a.sign(claims, 3600);
      const fromB = await b.sign(claims, 3600);
      expect(decodeProtectedHeader(fromA).kid).not.toBe(decodeProtectedHeader(fromB).kid);
      expect(await verifies(fromB, a)).toBe('u');
      expect(await verifies(fromA, b)).toBe('u');
      // Signing again adds nothing: each keeps its own fresh key.
      await a.sign(claims, 3600);
      await b.sign(claims, 3600);
      expect(await eventStore.readStream(SIGNING_KEYS_STREAM)).toHaveLength(2);
    });

    it('the keys of a replica from before the ring was shared join it, so their tokens stay valid', async () => {
      dir = await mkdtemp(join(tmpdir(), 'signing-keys-'));
      const file = join(dir, 'keys.json');
      const options = { file, rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date() };
      const alone = await SigningKeys.open(options);
      const old = await alone.sign(claims, 3600);
      const eventStore = store();
      const secrets = new SecretBox(randomBytes(32));
      const a = await SigningKeys.open({ ...options, shared: { eventStore, secrets } });
      // Another replica, with no copy of its own, learns the key from the stream.
      const b = await SigningKeys.open({ ...options, file: null, shared: { eventStore, secrets } });
      expect(await verifies(old, b)).toBe('u');
      expect(decodeProtectedHeader(await b.sign(claims, 3600)).kid).toBe(decodeProtectedHeader(old).kid);
      expect(decodeProtectedHeader(await a.sign(claims, 3600)).kid).toBe(decodeProtectedHeader(old).kid);
    });
  });

  it('a document ring signs compact JWS with its own keys, apart from the token keys, and both replicas sign with the same key', async () => {
    const eventStore = store();
    const secrets = new SecretBox(randomBytes(32));
    const now = () => new Date('2026-01-01T00:00:00.000Z');
    const tokens = await SigningKeys.open({ file: null, shared: { eventStore, secrets }, rotateAfterMs: DAY, tokenTtlMs: 3600_000, now });
    const documents = {
      file: null,
      shared: { eventStore, secrets },
      stream: DOCUMENT_KEYS_STREAM,
      rotateAfterMs: 100 * 365 * DAY,
      tokenTtlMs: 0,
      now,
    };
    const a = await SigningKeys.open(documents);
    const b = await SigningKeys.open(documents);
    const jws = await a.signJws({ content_sha256: 'ab' }, 'renovation-passport+jws');
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet((await b.jwks()) as unknown as JSONWebKeySet));
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ content_sha256: 'ab' });
    expect(protectedHeader.typ).toBe('renovation-passport+jws');
    expect(decodeProtectedHeader(await b.signJws({}, 'x')).kid).toBe(protectedHeader.kid);
    // The token ring does not hold the document key: a passport signature never passes as a token.
    expect((await tokens.jwks()).keys.map((k) => k['kid'])).not.toContain(protectedHeader.kid);
  });
});
