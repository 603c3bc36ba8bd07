import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SigningKeys } from './signing-keys.ts';

const claims = { iss: 'iss', aud: 'aud', sub: 'u', org: 'o', client_id: 'c', scope: 'estates' };
const DAY = 86_400_000;

describe('SigningKeys', () => {
  let dir: string | null = null;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  it('makes one new key when several tokens are signed at once as rotation falls due', async () => {
    dir = await mkdtemp(join(tmpdir(), 'signing-keys-'));
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const keys = await SigningKeys.open({ file: join(dir, 'keys.json'), rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date(now) });
    now += DAY + 1;
    // Concurrent rotations each generated a key and raced on one temp file (ENOENT on the second rename).
    const tokens = await Promise.all(Array.from({ length: 4 }, () => keys.sign(claims, 3600)));
    expect(tokens).toHaveLength(4);
    expect(keys.jwks().keys).toHaveLength(2);
    const reopened = await SigningKeys.open({ file: join(dir, 'keys.json'), rotateAfterMs: DAY, tokenTtlMs: 3600_000, now: () => new Date(now) });
    expect(reopened.jwks().keys.map((k) => k['kid'])).toEqual(keys.jwks().keys.map((k) => k['kid']));
  });
});
