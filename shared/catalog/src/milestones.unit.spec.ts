import { describe, expect, it } from 'vitest';
import { appliesIfLet, milestonesFor } from './milestones.ts';
import { PLANNER_DATA } from './planner-data.ts';

/**
 * The dated rules (docs/domain.md "The planner", 8): data with who they bind, their trigger, deadline,
 * source and the day they were last checked; the household's purchase date and occupancy pick them.
 */
/** The scales' ladders from best to worst (only the target's check reads them here). */
const LADDERS: Record<string, string[]> = {
  EPC_FLANDERS: ['A+', 'A', 'B', 'C', 'D', 'E', 'F'],
  EPC_WALLONIA: ['A++', 'A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'],
  EPC_BRUSSELS: ['A++', 'A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'],
  ENERGY_LABEL_NL: ['A++++', 'A+++', 'A++', 'A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'],
};
const labelsOf = (scale: string) => LADDERS[scale]!;
const DAY_MS = 24 * 60 * 60 * 1000;
const rules = [...PLANNER_DATA.renovation_obligation.rows, ...PLANNER_DATA.milestones];

describe('dated rules', () => {
  it('were each checked against their source within the last year (a stale rule fails here until someone checks it again)', () => {
    const maxAge = PLANNER_DATA.dated_rules.max_age_days;
    const stale = rules.filter((r) => (Date.now() - Date.parse(`${r.checked_on}T00:00:00Z`)) / DAY_MS > maxAge);
    expect(stale.map((r) => `${r.id} checked on ${r.checked_on}`)).toEqual([]);
  });

  it('each name who they bind, their trigger and a source; a fixed-date rule its deadline', () => {
    for (const r of rules) {
      expect(r.source, r.id).toMatch(/^https?:\/\//);
      if (r.trigger === 'FIXED_DATE') expect(r.deadline, r.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("Wallonia: no buyers' obligation for a deed in 2026 (postponed); deeds from 2028 reach D within five years of the deed", () => {
    const labels = labelsOf('EPC_WALLONIA');
    expect(milestonesFor('WALLONIA', 'F', labels, '2026-08-01').filter((m) => m.kind === 'OBLIGATION')).toEqual([]);
    const [m] = milestonesFor('WALLONIA', 'F', labels, '2028-02-01', { deedGiven: true }).filter((x) => x.kind === 'OBLIGATION');
    expect(m).toMatchObject({ label: 'D', deadline: '2033-02-01', binds: 'BUYER' });
    expect(m!.applies_because).toContain('2028-02-01');
    expect(m!.applies_because).not.toContain('assumed');
    const [c] = milestonesFor('WALLONIA', 'E', labels, '2031-05-01').filter((x) => x.kind === 'OBLIGATION');
    expect(c).toMatchObject({ label: 'C', deadline: '2036-05-01' });
  });

  it('Brussels: every home with label F or G must reach E by 2033, whoever owns it', () => {
    const labels = labelsOf('EPC_BRUSSELS');
    const [m] = milestonesFor('BRUSSELS', 'G', labels, '2020-01-01').filter((x) => x.kind === 'OBLIGATION');
    expect(m).toMatchObject({ label: 'E', deadline: '2033-01-01', binds: 'OWNER' });
    expect(milestonesFor('BRUSSELS', 'D', labels, '2020-01-01').some((x) => x.kind === 'OBLIGATION')).toBe(false);
  });

  it('Netherlands: the rental minimum D from 2029 binds a landlord, not an owner-occupier', () => {
    const labels = labelsOf('ENERGY_LABEL_NL');
    const rented = milestonesFor('NETHERLANDS', 'F', labels, '2026-07-01', { occupancy: 'RENTED' });
    expect(rented.find((m) => m.kind === 'RENTAL_NORM')).toMatchObject({ label: 'D', deadline: '2029-01-01', binds: 'LANDLORD' });
    const owner = milestonesFor('NETHERLANDS', 'F', labels, '2026-07-01', { occupancy: 'OWNER_OCCUPIED' });
    expect(owner.some((m) => m.kind === 'RENTAL_NORM')).toBe(false);
  });

  it('Netherlands: with occupancy not given, the rental norm is at most listed as applying if the home is let', () => {
    const labels = labelsOf('ENERGY_LABEL_NL');
    expect(milestonesFor('NETHERLANDS', 'F', labels, '2026-07-01').some((m) => m.binds === 'LANDLORD')).toBe(false);
    const ifLet = milestonesFor('NETHERLANDS', 'F', labels, '2026-07-01', { ifLet: true }).find((m) => m.binds === 'LANDLORD');
    expect(ifLet?.applies_because).toMatch(/if the home is let/);
    expect(appliesIfLet(ifLet!, {})).toBe(true);
    expect(appliesIfLet(ifLet!, { occupancy: 'RENTED' })).toBe(false);
  });

  it('Flanders: the deadline is five years after the deed, and the rule is the deed year’s (D from 2023, C from 2028)', () => {
    const labels = labelsOf('EPC_FLANDERS');
    expect(milestonesFor('FLANDERS', 'E', labels, '2024-06-01')[0]).toMatchObject({ label: 'D', deadline: '2029-06-01' });
    expect(milestonesFor('FLANDERS', 'E', labels, '2028-06-01')[0]).toMatchObject({ label: 'C', deadline: '2033-06-01' });
  });
});
