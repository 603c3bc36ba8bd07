import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@renopath/platform';
import { fold } from '@renopath/platform/service/decider.ts';
import type { RenovationCommand, RenovationEvent } from '@renopath/contracts';
import { renovationDecider } from '../renovation/renovation.decider.ts';
import { flemishHouse, ON_ROOF, twoStepTrajectory } from '../renovation/testing.ts';
import { replayRenovation } from './renovation-views.projection.ts';
import { renderOverview, renderRecord } from './renovation-views.render.ts';

const RENOVATION = '11111111-2222-4333-8444-555555555555';
const estate = flemishHouse();

/** Events as the store records them, one second apart. */
function recorded(commands: RenovationCommand[]) {
  const events: RenovationEvent[] = [];
  for (const c of commands) events.push(...renovationDecider.decide(c, fold(renovationDecider, events)));
  return events.map(
    (e, i) =>
      ({
        ...e,
        revision: BigInt(i),
        position: BigInt(i + 1),
        occurred_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      }) as unknown as RecordedEvent,
  );
}

describe('renovation views', () => {
  const events = recorded([
    { type: 'CreateRenovation', renovation_id: RENOVATION, renovation_name: 'Dak', estate, year: 2026 },
    {
      type: 'AddRenovationItem',
      renovation_id: RENOVATION,
      item_id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      placement: ON_ROOF,
      renovation_component_type: 'ROOF_COVERING_TILES',
      count: 1,
      estate,
      year: 2026,
    },
    { type: 'DeleteRenovation', renovation_id: RENOVATION, reason: 'DELETED' },
  ]);

  it('given the events, the record carries the totals and the overview the items by place', () => {
    const doc = replayRenovation(events.slice(0, 4))!;
    const record = renderRecord(doc);
    expect(record).toMatchObject({
      id: RENOVATION,
      estate_id: estate.estate_id,
      renovation_name: 'Dak',
      energy_efficiency_type: 'EPC_FLANDERS',
    });
    const overview = renderOverview(doc, estate);
    expect(overview.details.roofs).toEqual([
      { roof_id: ON_ROOF.roof_id, items: [expect.objectContaining({ renovation_component_type: 'ROOF_COVERING_TILES' })] },
    ]);
    const all = [...overview.details.roofs.flatMap((r) => r.items), ...overview.details.derived];
    expect(overview.summary.total_estimated_cost).toBeCloseTo(
      all.reduce((s, i) => s + i.estimated_cost, 0),
      2,
    );
    expect(record.estimated_cost).toBe(overview.summary.total_estimated_cost);
  });

  it('replays to any moment: a deletion sets renovation_deleted_at, earlier moments do not have it', () => {
    expect(replayRenovation(events.slice(0, 2))!.items).toEqual([]);
    expect(replayRenovation(events.slice(0, 4))!.deleted_at).toBeNull();
    expect(replayRenovation(events)!.deleted_at).toBe(events.at(-1)!.occurred_at);
    expect(replayRenovation([])).toBeNull();
  });
});

describe("a trajectory's renovation: its items on the created event", () => {
  const JOB = '99999999-8888-4777-8666-555555555555';
  const WALLS = 'aaaaaaaa-0000-4000-8000-000000000001';
  const ROOF = 'aaaaaaaa-0000-4000-8000-000000000002';
  const [created, valued] = recorded([
    twoStepTrajectory({ renovation_id: RENOVATION, calculation_job_id: JOB, walls: WALLS, roof: ROOF }, estate, 2026, 140),
  ]);

  it('the read model holds the items the decider holds, with the figures valued for them', () => {
    const doc = replayRenovation([created!, valued!])!;
    const state = fold(renovationDecider, [created!, valued!] as unknown as RenovationEvent[]);
    expect(doc.items).toEqual(state.items);
    expect(doc.items.map((i) => [i.item_id, i.quantity, i.step])).toEqual([
      [WALLS, 140, 1],
      [ROOF, 75.5, 2],
    ]);
    expect(Object.keys(doc.valuation!.items).sort()).toEqual([WALLS, ROOF].sort());
  });

  it('a renovation recorded before, with an item event per step, reads the same', () => {
    const { items, ...rest } = (created as unknown as Extract<RenovationEvent, { type: 'RenovationCreated' }>).data;
    const older = [
      { ...created!, data: rest },
      ...items!.map((item, i) => ({
        ...created!,
        type: 'RenovationItemAdded',
        data: { renovation_id: RENOVATION, ...item },
        revision: BigInt(i + 1),
      })),
      valued!,
    ] as unknown as RecordedEvent[];
    expect(replayRenovation(older)!.items).toEqual(replayRenovation([created!, valued!])!.items);
    expect(fold(renovationDecider, older as unknown as RenovationEvent[]).items).toEqual(
      fold(renovationDecider, [created!, valued!] as unknown as RenovationEvent[]).items,
    );
  });
});
