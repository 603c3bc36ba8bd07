import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import type { RenovationCommand, RenovationEvent } from '@renopath/contracts';
import { renovationDecider } from './renovation.decider.ts';
import { flemishHouse, GENERAL, IN_ROOM, ON_ROOF } from './testing.ts';

const spec = deciderSpec(renovationDecider);
const RENOVATION = '11111111-2222-4333-8444-555555555555';
const ITEM = '99999999-8888-4777-8666-555555555555';
const YEAR = 2026;
const estate = flemishHouse();

/** Runs commands one after the other from nothing, as the store would, and returns every event. */
function history(...commands: RenovationCommand[]): RenovationEvent[] {
  const events: RenovationEvent[] = [];
  for (const c of commands) events.push(...renovationDecider.decide(c, fold(renovationDecider, events)));
  return events;
}
const create: RenovationCommand = { type: 'CreateRenovation', renovation_id: RENOVATION, renovation_name: null, estate, year: YEAR };
const addRoofItem: RenovationCommand = {
  type: 'AddRenovationItem',
  renovation_id: RENOVATION,
  item_id: ITEM,
  placement: ON_ROOF,
  renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE',
  count: 1,
  estate,
  year: YEAR,
};

describe('renovation decider', () => {
  it('creates a renovation with the figures of no items: the estate as it is', () => {
    const events = history(create);
    expect(events.map((e) => e.type)).toEqual(['RenovationCreated', 'RenovationValued']);
    expect(events[0]!.data).toEqual({
      renovation_id: RENOVATION,
      estate_id: estate.estate_id,
      organization_id: estate.organization_id,
      renovation_name: null,
    });
    const valued = events[1] as Extract<RenovationEvent, { type: 'RenovationValued' }>;
    expect(valued.data.valuation.totals).toEqual({
      estimated_cost: 0,
      estimated_vat_cost: 0,
      subsidy_amount: 0,
      total_estimated_cost_incl_vat: 0,
    });
    expect(valued.data.valuation.energy_efficiency_type).toBe('EPC_FLANDERS');
  });

  it('adds an item and revalues, once: the same item id again decides nothing', () => {
    const events = history(create, addRoofItem);
    expect(events.map((e) => e.type)).toEqual(['RenovationCreated', 'RenovationValued', 'RenovationItemAdded', 'RenovationValued']);
    expect(events[2]!.data).toMatchObject({ item_id: ITEM, root_renovation_component_type: 'ROOF_INSULATION', placement: ON_ROOF });
    spec.given(events).when(addRoofItem).then([]);
  });

  it('refuses items in a renovation that does not exist or is deleted (404)', () => {
    spec
      .given([])
      .when(addRoofItem)
      .thenFails(404, /renovation not found/);
    const deleted = history(create, { type: 'DeleteRenovation', renovation_id: RENOVATION, reason: 'DELETED' });
    spec.given(deleted).when(addRoofItem).thenFails(404);
    spec.given(deleted).when({ type: 'DeleteRenovation', renovation_id: RENOVATION, reason: 'DELETED' }).thenFails(404);
    spec.given(deleted).when({ type: 'DeleteRenovation', renovation_id: RENOVATION, reason: 'ESTATE_DELETED' }).then([]);
  });

  it('refuses a type of another scope, an unknown type (400) and a part the estate does not have (404)', () => {
    const created = history(create);
    spec
      .given(created)
      .when({ ...addRoofItem, placement: GENERAL })
      .thenFails(400, /not allowed in the general scope/);
    spec
      .given(created)
      .when({ ...addRoofItem, renovation_component_type: 'NOPE' })
      .thenFails(400, /not a renovation component type/);
    spec
      .given(created)
      .when({ ...addRoofItem, placement: { ...ON_ROOF, roof_id: '00000000-0000-4000-8000-000000000000' } })
      .thenFails(404, /roof not found/);
    spec
      .given(created)
      .when({ ...addRoofItem, placement: IN_ROOM })
      .thenFails(400, /not allowed in the room scope/);
  });

  it('reconciles with the estate: items of a removed part go, figures follow a part edit, nothing when nothing changed', () => {
    const events = history(create, addRoofItem);
    spec.given(events).when({ type: 'ReconcileWithEstate', renovation_id: RENOVATION, estate, year: YEAR }).then([]);
    const bigger = flemishHouse({ roofs: [{ ...estate.roofs[0]!, surface_m2: 100 }] });
    const edited = renovationDecider.decide(
      { type: 'ReconcileWithEstate', renovation_id: RENOVATION, estate: bigger, year: YEAR },
      fold(renovationDecider, events),
    );
    expect(edited.map((e) => e.type)).toEqual(['RenovationValued']);
    expect((edited[0] as Extract<RenovationEvent, { type: 'RenovationValued' }>).data.valuation.items[ITEM]!.quantity).toBe(100);
    const removed = renovationDecider.decide(
      { type: 'ReconcileWithEstate', renovation_id: RENOVATION, estate: flemishHouse({ roofs: [] }), year: YEAR },
      fold(renovationDecider, events),
    );
    expect(removed[0]).toEqual({
      type: 'RenovationItemRemoved',
      data: { renovation_id: RENOVATION, item_id: ITEM, reason: 'PART_REMOVED' },
    });
  });

  it('edits and removes an item only in its own place', () => {
    const events = history(create, addRoofItem);
    spec
      .given(events)
      .when({ type: 'RemoveRenovationItem', renovation_id: RENOVATION, item_id: ITEM, placement: GENERAL, estate, year: YEAR })
      .thenFails(404, /renovation item not found/);
    const updated = renovationDecider.decide(
      {
        type: 'UpdateRenovationItem',
        renovation_id: RENOVATION,
        item_id: ITEM,
        placement: ON_ROOF,
        changes: { count: 2 },
        estate,
        year: YEAR,
      },
      fold(renovationDecider, events),
    );
    expect(updated[0]).toEqual({
      type: 'RenovationItemUpdated',
      data: { renovation_id: RENOVATION, item_id: ITEM, changes: { count: 2 } },
    });
  });
});
