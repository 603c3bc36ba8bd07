import { describe, expect, it } from 'vitest';
import type { RenovationHistoryEntry } from '@renopath/contracts';
import { itemOrderOf } from './report.handlers.ts';

const entry = (type: string, data: Record<string, unknown>, revision: number): RenovationHistoryEntry => ({
  event_id: `e${revision}`,
  type,
  revision,
  occurred_at: '2026-12-04T10:00:00.000Z',
  actor: { user_id: null, client_id: 'client' },
  correlation_id: 'c',
  causation_id: null,
  data,
});

describe("a report's item order", () => {
  it("puts a trajectory's items, stated on its created event, in their steps' order, then the items a client added", () => {
    const history = [
      entry(
        'RenovationCreated',
        {
          renovation_id: 'r',
          items: [
            { item_id: 'roof', step: 2 },
            { item_id: 'walls', step: 1 },
            { item_id: 'vent', step: 1 },
          ],
        },
        0,
      ),
      entry('RenovationValued', { renovation_id: 'r' }, 1),
      entry('RenovationItemAdded', { renovation_id: 'r', item_id: 'solar' }, 2),
    ];
    expect(itemOrderOf(history)).toEqual(['walls', 'vent', 'roof', 'solar']);
  });

  it('reads a renovation recorded with an item event per step the same way', () => {
    const history = [
      entry('RenovationCreated', { renovation_id: 'r' }, 0),
      entry('RenovationItemAdded', { renovation_id: 'r', item_id: 'roof', step: 2 }, 1),
      entry('RenovationItemAdded', { renovation_id: 'r', item_id: 'walls', step: 1 }, 2),
      entry('RenovationItemAdded', { renovation_id: 'r', item_id: 'solar' }, 3),
    ];
    expect(itemOrderOf(history)).toEqual(['walls', 'roof', 'solar']);
  });
});
