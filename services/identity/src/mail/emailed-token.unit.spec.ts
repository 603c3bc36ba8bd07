import { describe, expect, it } from 'vitest';
import { newEmailedToken, readEmailedToken, sameHash } from './emailed-token.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const INV = '22222222-2222-4222-8222-222222222222';

describe('emailed tokens', () => {
  it('carry their ids and a secret whose hash alone is stored', () => {
    const { token, token_hash } = newEmailedToken(ORG, INV);
    expect(token.startsWith(`${ORG}.${INV}.`)).toBe(true);
    expect(token).not.toContain(token_hash);
    const read = readEmailedToken(token, 2)!;
    expect(read.ids).toEqual([ORG, INV]);
    expect(sameHash(token_hash, read.token_hash)).toBe(true);
    expect(sameHash(token_hash, newEmailedToken(ORG, INV).token_hash)).toBe(false);
  });

  it('refuse anything of another shape', () => {
    const { token } = newEmailedToken(ORG, INV);
    expect(readEmailedToken(token, 1)).toBeNull();
    expect(readEmailedToken(`${ORG}.not-a-uuid.${'a'.repeat(43)}`, 2)).toBeNull();
    expect(readEmailedToken(`${ORG}.${INV}.short`, 2)).toBeNull();
    expect(sameHash('zz', 'zz')).toBe(false);
  });
});
