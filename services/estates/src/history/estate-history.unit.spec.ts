import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@renopath/platform';
import { historyEntry } from './estate-history.ts';

const BUYER = {
  user_id: '11111111-1111-4111-8111-111111111111',
  organization_id: '22222222-2222-4222-8222-222222222222',
  client_id: 'buyer-client',
  scopes: [],
};
const event = (type: string, data: Record<string, unknown>, client_id = 'staff-client'): RecordedEvent =>
  ({
    event_id: 'e1',
    type,
    stream: 'estate-x',
    revision: 1n,
    position: 1n,
    occurred_at: '2026-01-01T00:00:00.000Z',
    data,
    metadata: { actor: { user_id: 'staff', client_id }, correlation_id: 'c', causation_id: null },
  }) as RecordedEvent;

describe('estate history entries', () => {
  it('never show an upload key', () => {
    const entry = historyEntry(event('EstateFileAdded', { file_id: 'f', name: 'plan.pdf', blob_key: 'uploads/abc' }), {
      actor: BUYER,
      client: false,
    });
    expect(entry.data).toEqual({ file_id: 'f', name: 'plan.pdf' });
  });

  it("show a CLIENT neither other members' details nor staff client ids, but their own", () => {
    const other = historyEntry(
      event('EstateMemberAdded', { user_id: 'someone-else', email_address: 'x@y.example', first_name: 'X', last_name: 'Y' }),
      { actor: BUYER, client: true },
    );
    expect(other.data).toEqual({ user_id: 'someone-else' });
    expect(other.actor).toEqual({ user_id: 'staff', client_id: null });
    const renamed = historyEntry(
      event('EstateMemberDetailsUpdated', { user_id: 'someone-else', changes: { email_address: 'z@y.example' } }),
      { actor: BUYER, client: true },
    );
    expect(renamed.data).toEqual({ user_id: 'someone-else', changes: {} });
    const own = historyEntry(event('EstateMemberAdded', { user_id: BUYER.user_id, email_address: 'me@y.example' }, 'buyer-client'), {
      actor: BUYER,
      client: true,
    });
    expect(own.data).toMatchObject({ email_address: 'me@y.example' });
    expect(own.actor.client_id).toBe('buyer-client');
  });

  it('show staff everything but upload keys', () => {
    const entry = historyEntry(event('EstateMemberAdded', { user_id: 'someone-else', email_address: 'x@y.example' }), {
      actor: BUYER,
      client: false,
    });
    expect(entry.data).toMatchObject({ email_address: 'x@y.example' });
    expect(entry.actor.client_id).toBe('staff-client');
  });
});
