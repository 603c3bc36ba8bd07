import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { fold } from '@renopath/platform/service/decider.ts';
import type { RenovationEvent } from '@renopath/contracts';
import { renovationDecider } from './renovation.decider.ts';
import { flemishHouse, GENERAL, ON_ROOF, twoStepTrajectory } from './testing.ts';

const spec = deciderSpec(renovationDecider);
const RENOVATION = '11111111-2222-4333-8444-555555555555';
const JOB = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968';
const WALLS = '99999999-8888-4777-8666-555555555555';
const ROOF = '99999999-8888-4777-8666-555555555556';
const YEAR = 2026;
const estate = flemishHouse();

const create = twoStepTrajectory({ renovation_id: RENOVATION, calculation_job_id: JOB, walls: WALLS, roof: ROOF }, estate, YEAR);
const decided = renovationDecider.decide(create, renovationDecider.initialState());
const figures = (events: RenovationEvent[], item: string) => fold(renovationDecider, events).valuation!.items[item]!;

describe('renovation decider: CreateRenovationFromTrajectory', () => {
  it("creates the renovation, its items with the plan's quantities and the figures in one decision", () => {
    // The items ride on the created event: one event for the renovation and its steps, one for the figures.
    expect(decided.map((e) => e.type)).toEqual(['RenovationCreated', 'RenovationValued']);
    const created = decided[0]!.type === 'RenovationCreated' ? decided[0]!.data : null;
    expect(created?.items?.map((i) => i.item_id)).toEqual([WALLS, ROOF]);
    expect(created?.items?.[0]).toMatchObject({
      item_id: WALLS,
      quantity: 143.96,
      step: 1,
      root_renovation_component_type: 'OUTER_WALL_INSULATION',
    });
    // The estate gives 120 m2 of wall and an 80 m2 roof: the plan's own quantities win.
    expect(figures(decided, WALLS).quantity).toBe(143.96);
    expect(figures(decided, ROOF).quantity).toBe(75.5);
  });

  it("keeps the plan's quantity through estate changes; a new type follows the estate again", () => {
    const changed = flemishHouse({
      fields: { ...estate.fields, energy_context: { ...estate.fields.energy_context, outer_wall_surface: 20 } },
    });
    const after = renovationDecider.decide(
      { type: 'ReconcileWithEstate', renovation_id: RENOVATION, estate: changed, year: YEAR },
      fold(renovationDecider, decided),
    );
    expect(figures([...decided, ...after], WALLS).quantity).toBe(143.96);
    const retyped = renovationDecider.decide(
      {
        type: 'UpdateRenovationItem',
        renovation_id: RENOVATION,
        item_id: WALLS,
        placement: GENERAL,
        changes: { renovation_component_type: 'INTERIOR_WALL_INSULATION' },
        estate: changed,
        year: YEAR,
      },
      fold(renovationDecider, [...decided, ...after]),
    );
    expect(retyped[0]!.data).toMatchObject({ changes: { renovation_component_type: 'INTERIOR_WALL_INSULATION', quantity: null } });
    expect(figures([...decided, ...after, ...retyped], WALLS).quantity).toBe(20);
  });

  it('decides nothing for the same command again and refuses other contents under the same id (409)', () => {
    spec.given(decided).when(create).then([]);
    spec
      .given(decided)
      .when({ ...create, estate: flemishHouse({ members: ['abcdef01-2345-4678-89ab-cdef01234567'] }), year: YEAR + 1 })
      .then([]);
    spec
      .given(decided)
      .when({ ...create, renovation_name: 'Other' })
      .thenFails(409);
    spec
      .given(decided)
      .when({ ...create, items: create.items.slice(0, 1) })
      .thenFails(409);
  });

  it('refuses items the estate cannot hold: an unknown roof (404), a type outside its scope (400), a repeated id (400)', () => {
    const elsewhere = { ...ON_ROOF, roof_id: '00000000-0000-4000-8000-000000000000' };
    spec
      .given([])
      .when({ ...create, items: [{ ...create.items[1]!, placement: elsewhere }] })
      .thenFails(404, /roof not found/);
    spec
      .given([])
      .when({ ...create, items: [{ ...create.items[1]!, placement: GENERAL }] })
      .thenFails(400, /not allowed in the general scope/);
    spec
      .given([])
      .when({ ...create, items: [create.items[0]!, { ...create.items[1]!, item_id: WALLS }] })
      .thenFails(400, /used twice/);
    spec
      .given([])
      .when({ ...create, estate: flemishHouse({ deleted: true }) })
      .thenFails(404, /estate not found/);
  });
});
