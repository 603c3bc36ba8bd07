import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@renopath/platform';
import { changeOf } from './change-log.reactor.ts';

const R = '30000000-0000-4000-8000-000000000001';
const E = '30000000-0000-4000-8000-000000000002';
const envelope = (context: string, type: string, stream: string, data: Record<string, unknown>): EventEnvelope => ({
  context,
  event_id: 'x',
  type,
  stream,
  revision: 1,
  position: 1,
  occurred_at: '2026-11-23T10:00:00.000Z',
  data,
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
});

describe('what outdates a report', () => {
  it("a renovation's events change its renovation; an estate's events its estate", () => {
    expect(
      changeOf(envelope('renovations', 'RenovationItemRemoved', `renovation-${R}`, { renovation_id: R, item_id: E, reason: 'REMOVED' })),
    ).toEqual({ key: `renovation:${R}`, at: '2026-11-23T10:00:00.000Z' });
    expect(changeOf(envelope('estates', 'EstateUpdated', `estate-${E}`, { estate_id: E, changes: { year_built: 1961 } }))).toEqual({
      key: `estate:${E}`,
      at: '2026-11-23T10:00:00.000Z',
    });
  });

  it('membership changes and events that do not match their contract change nothing', () => {
    expect(
      changeOf(
        envelope('estates', 'EstateMemberRemoved', `estate-${E}`, {
          estate_id: E,
          organization_id: E,
          user_id: E,
          reason: 'REMOVED_FROM_ESTATE',
        }),
      ),
    ).toBeNull();
    expect(changeOf(envelope('estates', 'EstateUpdated', `estate-${E}`, { estate_id: 'not-a-uuid' }))).toBeNull();
  });
});
