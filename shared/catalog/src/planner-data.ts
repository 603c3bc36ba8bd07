import { z } from 'zod';
import {
  FacadeMaterial,
  GlazingType,
  HeritageStatus,
  InstallationAge,
  InsulationLevel,
  PlanElement,
  Region,
  VentilationType,
  type PropertyDescription,
} from '@renopath/contracts';
import plannerJson from '../data/planner.json' with { type: 'json' };
import { DATA } from './data.ts';
import { evaluate } from './predicates.ts';

/** The trajectory planner's figures (data/planner.json), validated at import like every catalogue file. */
const sourced = { id: z.string().regex(/^[A-Z0-9_]+$/), year: z.number().int(), source: z.string().min(5), note: z.string().min(3) };

const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/**
 * Who a dated rule binds and what starts its clock (docs/domain.md "The planner", 8): a buyer from the
 * deed, a landlord from a letting, every owner (or the co-owners) by a fixed date; and when the rule was
 * last checked against its source.
 */
const dated = {
  binds: z.enum(['BUYER', 'OWNER', 'LANDLORD', 'CO_OWNERS']),
  trigger: z.enum(['DEED_DATE', 'LETTING_DATE', 'FIXED_DATE']),
  /** FIXED_DATE: the date the label must be reached by. */
  deadline: isoDate().optional(),
  checked_on: isoDate(),
};

const PlannerData = z.strictObject({
  description: z.string(),
  targets: z.array(z.strictObject({ ...sourced, region: Region, label: z.string(), worst_label_meeting_target: z.string() })).length(4),
  renovation_obligation: z.strictObject({
    region: Region,
    within_years: z.number().int().positive(),
    rows: z
      .array(
        z.strictObject({
          ...sourced,
          ...dated,
          deeds_from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          label: z.string(),
          applies_to_labels: z.array(z.string()).min(1),
        }),
      )
      .min(1),
  }),
  state_order_rules: z.strictObject({ ...sourced, rules: z.array(z.string()) }),
  standards: z.strictObject({
    ...sourced,
    insulation_good_enough: z.array(InsulationLevel).min(1),
    glazing_good_enough: z.array(GlazingType).min(1),
    ventilation_good_enough: z.array(VentilationType).min(1),
    heat_pump_kept_ages: z.array(InstallationAge),
  }),
  emitters: z.strictObject({
    ...sourced,
    radiators_built_before: z.number().int(),
    radiator_check: z.strictObject({
      exponent: z.number().positive(),
      design_mean_water_c: z.number(),
      heat_pump_mean_water_c: z.number(),
      room_c: z.number(),
    }),
  }),
  pv_sizing: z.strictObject({
    ...sourced,
    household_kwh_per_year: z.strictObject({ BE: z.number().positive(), NL: z.number().positive() }),
    /** [yearly production / yearly use, share of the production used at home], the ratio rising. */
    self_consumption_by_cover: z.array(z.tuple([z.number().positive(), z.number().positive().max(1)])).min(2),
    min_kwp: z.number().positive(),
  }),
  floor_access: z.strictObject({
    ...sourced,
    /** Per country, what a house's undescribed ground floor is taken to stand over (null: the model's default). */
    undescribed_house_floor_over: z.strictObject({ BE: z.literal('CRAWL_SPACE').nullable(), NL: z.literal('CRAWL_SPACE').nullable() }),
  }),
  cost_band: z.strictObject({ ...sourced, min_eur_per_m2: z.number().positive(), max_eur_per_m2: z.number().positive() }),
  milestones: z.array(
    z.strictObject({
      ...sourced,
      ...dated,
      kind: z.enum(['OBLIGATION', 'RENTAL_NORM']),
      region: Region,
      /** OBLIGATION: deeds from this date; RENTAL_NORM: leases from this date. */
      deeds_from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      label: z.string(),
      /** OBLIGATION: years after the deed to reach the label. */
      within_years: z.number().int().positive().optional(),
      applies_to_labels: z.array(z.string()).min(1),
      description: z.string(),
    }),
  ),
  boiler_end_of_life: z.strictObject({
    ...sourced,
    life_years: z.number().positive(),
    age_midpoints: z.partialRecord(InstallationAge, z.number().nonnegative()),
  }),
  calibration_conflict: z.strictObject({ ...sourced, min_share_of_described_score: z.number().positive().max(1) }),
  inputs_needed: z.strictObject({ ...sourced, fields: z.array(z.string()).min(1) }),
  measure_life: z.strictObject({ ...sourced, years: z.partialRecord(PlanElement, z.number().positive()) }),
  dated_rules: z.strictObject({ ...sourced, max_age_days: z.number().int().positive() }),
  heritage: z.strictObject({
    ...sourced,
    facade_protected_statuses: z.array(HeritageStatus).min(1),
    roof_line_protected_statuses: z.array(HeritageStatus),
    no_exterior_insulation_materials: z.array(FacadeMaterial),
    /** On a protected roof line, the share of the usable roof not seen from the street, where panels may go. */
    pv_roof_share_out_of_sight: z.number().positive().max(1),
    permits: z.strictObject({ FLANDERS: z.string(), BRUSSELS: z.string(), WALLONIA: z.string(), NETHERLANDS: z.string() }),
  }),
  co_ownership: z.strictObject({
    ...sourced,
    elements: z.array(PlanElement).min(1),
    association: z.strictObject({ BE: z.string(), NL: z.string() }),
  }),
  selection: z.strictObject({
    ...sourced,
    tie_score_points: z.number().nonnegative(),
    tie_share_of_best_gain: z.number().min(0).max(1),
    tie_net_cost_share: z.number().min(0).max(1),
  }),
});
export type PlannerData = z.infer<typeof PlannerData>;
export type RegionalTarget = PlannerData['targets'][number];
export type RenovationObligationRule = PlannerData['renovation_obligation']['rows'][number];
export type PlannerMilestoneRule = PlannerData['milestones'][number];

export const PLANNER_DATA: PlannerData = PlannerData.parse(plannerJson);

/** The region's long-term target label (an outcome the planner marks on the step that reaches it). */
export function regionalTarget(region: z.infer<typeof Region>): RegionalTarget {
  return PLANNER_DATA.targets.find((t) => t.region === region)!;
}

/** The Flemish obligation rule for a deed on `date` (YYYY-MM-DD), or null before the first rule. */
export function renovationObligationRule(date: string): RenovationObligationRule | null {
  const rows = [...PLANNER_DATA.renovation_obligation.rows].sort((a, b) => b.deeds_from.localeCompare(a.deeds_from));
  return rows.find((r) => r.deeds_from <= date) ?? null;
}

const STATE_RULES = PLANNER_DATA.state_order_rules.rules.map((id) => {
  const row = DATA.prerequisites.rows.find((r) => r.id === id);
  if (!row) throw new Error(`planner.json names unknown prerequisite ${id}`);
  return row;
});

/**
 * The planner's reading of the order rules in `state_order_rules`: a measure they name may come only
 * once the rule's waiver holds for the home as planned so far (the envelope is ready), not as soon as
 * one listed measure is planned. The reasons of the rules that still block `type`; empty when none.
 */
export function stateOrderBlocks(type: string, planned: Partial<PropertyDescription>): string[] {
  return STATE_RULES.filter((r) => r.measures.includes(type) && r.after_unless !== undefined && !evaluate(r.after_unless, planned)).map(
    (r) => r.reason,
  );
}
