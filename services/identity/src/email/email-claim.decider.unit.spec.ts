import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { emailClaimDecider, emailStream } from './email-claim.decider.ts';

const spec = deciderSpec(emailClaimDecider);
const claimed = { type: 'EmailAddressClaimed' as const, data: { email_address: 'a@b.example', user_id: 'u1' } };

describe('email claim decider', () => {
  it('gives an address to one user only, case-insensitively', () => {
    spec.given([]).when({ type: 'ClaimEmailAddress', email_address: ' A@B.example ', user_id: 'u1' }).then([claimed]);
    spec.given([claimed]).when({ type: 'ClaimEmailAddress', email_address: 'a@b.example', user_id: 'u1' }).then([]);
    spec.given([claimed]).when({ type: 'ClaimEmailAddress', email_address: 'a@b.example', user_id: 'u2' }).thenFails(409);
    expect(emailStream('A@B.example')).toBe(emailStream('a@b.example '));
  });

  it('frees an address only for its holder', () => {
    spec.given([claimed]).when({ type: 'ReleaseEmailAddress', email_address: 'a@b.example', user_id: 'u2' }).then([]);
    spec
      .given([claimed])
      .when({ type: 'ReleaseEmailAddress', email_address: 'a@b.example', user_id: 'u1' })
      .then([{ type: 'EmailAddressReleased', data: { email_address: 'a@b.example', user_id: 'u1' } }]);
  });
});

describe('email claim decider, as a platform claim', () => {
  it('is free again once released, and a second release records nothing', () => {
    const released = { type: 'EmailAddressReleased' as const, data: { email_address: 'a@b.example', user_id: 'u1' } };
    spec.given([claimed, released]).when({ type: 'ReleaseEmailAddress', email_address: 'a@b.example', user_id: 'u1' }).then([]);
    spec
      .given([claimed, released])
      .when({ type: 'ClaimEmailAddress', email_address: 'a@b.example', user_id: 'u2' })
      .then([{ type: 'EmailAddressClaimed', data: { email_address: 'a@b.example', user_id: 'u2' } }]);
  });
});
