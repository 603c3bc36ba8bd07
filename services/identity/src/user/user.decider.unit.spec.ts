import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { userDecider } from './user.decider.ts';

const spec = deciderSpec(userDecider);
const USER = '22222222-2222-4222-8222-222222222222';
const registered = {
  type: 'UserRegistered' as const,
  data: { user_id: USER, email_address: 'an@old.example', first_name: 'An', last_name: 'Peeters' },
};
const requested = (token_hash = 'a'.repeat(64)) => ({
  type: 'UserEmailChangeRequested' as const,
  data: { user_id: USER, email_address: 'an@new.example', token_hash, expires_at: '2026-01-02T00:00:00.000Z' },
});
const confirm = (token_hash: string, now = '2026-01-01T12:00:00.000Z') => ({
  type: 'ConfirmEmailChange' as const,
  user_id: USER,
  token_hash,
  now,
});
const changed = { type: 'UserUpdated' as const, data: { user_id: USER, changes: { email_address: 'an@new.example' } } };

describe('user decider: email changes wait for the new address to confirm', () => {
  it('records a request without changing the address', () => {
    spec
      .given([registered])
      .when({
        type: 'RequestEmailChange',
        user_id: USER,
        email_address: 'an@new.example',
        token_hash: 'a'.repeat(64),
        expires_at: '2026-01-02T00:00:00.000Z',
      })
      .then([requested()]);
  });

  it('an edit of the names never changes the address', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateUser', user_id: USER, changes: { email_address: 'x@y.example', first_name: 'Anna' } as never })
      .then([{ type: 'UserUpdated', data: { user_id: USER, changes: { first_name: 'Anna' } } }]);
  });

  it('confirms with the code before it expires, once', () => {
    spec
      .given([registered, requested()])
      .when(confirm('a'.repeat(64)))
      .then([changed]);
    spec
      .given([registered, requested(), changed])
      .when(confirm('a'.repeat(64)))
      .thenFails(400, /not valid or has expired/);
  });

  it('refuses a wrong, expired or replaced code', () => {
    spec
      .given([registered, requested()])
      .when(confirm('b'.repeat(64)))
      .thenFails(400);
    spec
      .given([registered, requested()])
      .when(confirm('a'.repeat(64), '2026-01-02T00:00:00.000Z'))
      .thenFails(400);
    spec
      .given([registered, requested(), requested('c'.repeat(64))])
      .when(confirm('a'.repeat(64)))
      .thenFails(400);
    spec
      .given([registered])
      .when(confirm('a'.repeat(64)))
      .thenFails(400);
  });
});
