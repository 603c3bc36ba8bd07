import { z } from 'zod';
import { DataSource, EnergyEfficiencyType, QualityLabel, Region } from './enums.ts';
import { Uuid } from './identity.ts';
import { Financing, Interval80, MeteredCalibration } from './financing.ts';

/**
 * The suggested renovation trajectory: what the planner (services/calculations/src/planner) computes
 * and a FINISHED trajectory job's `metadata` carries (docs/job-metadata.md). Step fields are the
 * contract's; the fields marked "extension" add to them. Money in euros with two decimals; totals are the exact
 * sums of the steps (a step's supporting works included).
 */

const money = () => z.number();

/** What a step and each of its supporting works say of the work: which, how much, and its cost. */
const pricedWork = () => ({
  renovation_component_type: z.string(),
  title: z.string(),
  quantity: z.number(),
  unit: z.string(),
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
});

export const TrajectorySupportingWork = z.object({
  ...pricedWork(),
  /**
   * Extension: a measure of its own joined to the step as its supporting work, and a renovation item of
   * its own (ventilation with the step that makes the envelope airtight, so no step raises the score).
   */
  joined: z.boolean().optional().meta({
    description:
      'Extension: true for a measure joined to the step as its supporting work and held as a renovation item of its own (ventilation with the step that makes the home airtight).',
  }),
});
export type TrajectorySupportingWork = z.infer<typeof TrajectorySupportingWork>;

/** Extension: the Flemish renovation obligation after a purchase, on the step that reaches its label. */
export const RenovationObligationMark = z.object({
  rule_id: z.string(),
  label: z.string(),
  within_years: z.number().int(),
  deeds_from: z.string(),
  description: z.string(),
  source: z.string(),
});
export type RenovationObligationMark = z.infer<typeof RenovationObligationMark>;

/**
 * Extension: the element of the home a step treats, and the advisor's phase it belongs to
 * (docs/domain.md "The planner"). Phases come in this order; walls and windows share one.
 */
export const PlanElement = z.enum([
  'ROOF',
  'WALLS',
  'WINDOWS',
  'FLOOR',
  'VENTILATION',
  'HEAT_GENERATOR',
  'HEAT_EMITTERS',
  'OIL_TANK',
  'HOT_WATER',
  'SOLAR_PANELS',
]);
export type PlanElement = z.infer<typeof PlanElement>;
export const PlanPhase = z.enum(['ROOF', 'WALLS_AND_WINDOWS', 'FLOOR', 'VENTILATION', 'HEAT_GENERATOR', 'HOT_WATER', 'SOLAR_PANELS']);
export type PlanPhase = z.infer<typeof PlanPhase>;

/** Extension: a milestone a step reaches (the first step whose label meets it). */
export const PlanMilestone = z.object({
  kind: z.enum(['OBLIGATION', 'RENTAL_NORM', 'TARGET']),
  rule_id: z.string(),
  label: z.string(),
  description: z.string(),
  source: z.string(),
  /** Extension: the date the label must be reached by (ISO date); null where the rule sets none. */
  deadline: z.string().nullable().meta({
    description:
      "Extension: the date the label must be reached by (YYYY-MM-DD): a buyer's deed date plus the years the rule allows, a fixed date (Brussels 2033), or the target year's end.",
  }),
  /** Extension: why the rule applies to this home (the trigger: the deed, a letting, every home). */
  applies_because: z.string().meta({
    description: 'Extension: why the rule applies to this home: the purchase deed (given or assumed), a letting, or every home.',
  }),
  /** Extension: who the rule binds. */
  binds: z.enum(['BUYER', 'OWNER', 'LANDLORD', 'CO_OWNERS']).meta({ description: 'Extension: who the rule binds.' }),
  /** Extension: when the rule was last checked against its source (null: a target, not a legal rule). */
  checked_on: z.string().nullable().meta({ description: 'Extension: the date the rule was last checked against its source.' }),
  /**
   * Extension: the event the milestone waits on that has not happened yet: PURCHASE for a buyer's rule
   * read on a deed dated after the day the plan was made (the household's planned purchase). Its
   * deadline is then hypothetical, not a legal date; absent or null: the rule applies as it stands.
   */
  conditional_on: z.enum(['PURCHASE']).nullable().optional().meta({
    description:
      "Extension: PURCHASE when a buyer's rule is read on a deed dated after the plan was made: the milestone applies only if that purchase goes ahead, and its deadline is hypothetical.",
  }),
});
export type PlanMilestone = z.infer<typeof PlanMilestone>;

/**
 * Extension: a step that raises the household's energy bill (rule BILL_INCREASE_IS_LABEL_PRICE): the
 * price of a label or an obligation, not advice that pays. `optional` unless a binding obligation the
 * plan has not yet met by the step before asks for it (`rule_id`).
 */
export const BillIncrease = z.object({
  eur_per_year: money(),
  serves: z.enum(['OBLIGATION', 'RENTAL_NORM', 'LABEL']),
  optional: z.boolean(),
  rule_id: z.string().nullable(),
});
export type BillIncrease = z.infer<typeof BillIncrease>;

/** Extension: an element the plan does not treat (or treats with a lesser variant), and why. */
export const PlanOmission = z.object({
  element: PlanElement,
  code: z.enum(['ALREADY_GOOD', 'KEPT', 'NOT_IN_THIS_HOME', 'PERMIT', 'NOT_PRICED']),
  reason: z.string(),
});
export type PlanOmission = z.infer<typeof PlanOmission>;

/**
 * Extension: what a step builds (docs/domain.md "The planner", 7): the performance the works must reach
 * (U or R value, glazing U, a heat pump's SCOP and power), the insulation's thickness and material class,
 * the frame. Null where it does not apply to the measure.
 */
export const StepSpecification = z.object({
  /** In words, for the homeowner and the contractor's quote. */
  summary: z.string(),
  /** W/m2K of the element after the works. */
  target_u_value: z.number().nullable(),
  /** m2K/W of the added insulation. */
  target_r_value: z.number().nullable(),
  insulation_thickness_cm: z.number().nullable(),
  material_class: z.string().nullable(),
  /** W/m2K of the glass. */
  glazing_u_value: z.number().nullable(),
  frame: z.string().nullable(),
  /** Seasonal coefficient of performance of a heat pump. */
  scop: z.number().nullable(),
  /** kW: a heat pump sized on the insulated home's design heat loss, or the panels' kWp. */
  power_kw: z.number().nullable(),
  source: z.string(),
});
export type StepSpecification = z.infer<typeof StepSpecification>;

/**
 * Extension: the grant beside its amount: whether the region's grant for this measure is known to the
 * catalogue (NOT_YET_SOURCED: the amount 0 means "unknown", not "none"), the schemes and their conditions.
 */
export const GrantConditions = z.object({
  status: z.enum(['GRANTED', 'NOT_ELIGIBLE', 'NOT_YET_SOURCED']),
  schemes: z.array(z.string()),
  conditions: z.array(z.string()),
});
export type GrantConditions = z.infer<typeof GrantConditions>;

/** Extension: a step in a flat that is a decision of the co-owners' association, not of the flat's owner. */
export const CoOwnershipDecision = z.object({
  decided_by: z.literal('CO_OWNERS'),
  association: z.string(),
  /** The flat's share of the co-ownership (a fraction), when the request gave it. */
  share: z.number().nullable(),
});

export const TrajectoryStep = z.object({
  order: z.number().int().min(1),
  root_renovation_component_type: z.string(),
  /** The cost and the subsidy: the step's item plus its supporting works. */
  ...pricedWork(),
  /** Cost incl. VAT minus the subsidy. */
  net_cost: money(),
  supporting_works: z.array(TrajectorySupportingWork),
  epc_score_after: z.number(),
  epc_label_after: z.string(),
  /** Against the state before the step: primary energy (the score's basis), CO2 and the energy bill. */
  energy_savings_kwh_per_year: z.number(),
  co2_savings_kg_per_year: z.number(),
  cost_savings_eur_per_year: money(),
  rationale: z.string(),
  // extensions
  renovation_obligation: RenovationObligationMark.nullable(),
  /** Where the renovation item goes: the general scope, or a roof of this kind. */
  scope: z.enum(['GENERAL', 'ROOF']),
  roof_kind: z.enum(['INCLINED', 'FLAT']).nullable(),
  /** The element the step treats and its phase in the advisor's order. */
  element: PlanElement.meta({ description: 'Extension: the element of the home the step treats.' }),
  phase: PlanPhase.meta({
    description:
      "Extension: the advisor's phase of the step: roof; walls and windows; floor; ventilation; heat generator; hot water; solar panels.",
  }),
  /** The milestones this step reaches (obligation, rental norm, the long-term target); empty for most steps. */
  milestones: z.array(PlanMilestone).meta({
    description: 'Extension: the milestones this step is the first to reach (purchase obligation, rental norm, long-term target).',
  }),
  /** The money of the step for the household: grant, loan and its monthly payment, monthly saving, paybacks. */
  financing: Financing.optional().meta({
    description: 'Extension: grant, public loan (annuity), monthly bill saving and payback with and without support.',
  }),
  /** 80% interval of `cost_savings_eur_per_year` when it was calibrated on metered use. */
  cost_savings_interval_eur_per_year: Interval80.optional(),
  /** On a heat-pump step: the power sized from the (calibrated) heat loss at the region's design temperature (kW). */
  heat_pump_kw: z.number().optional().meta({
    description: "Extension: on a heat-pump step, the heat pump's power sized from the calibrated heat loss at the design temperature.",
  }),
  specification: StepSpecification.meta({
    description: 'Extension: what the step builds: target U or R value, thickness and material class, glazing U and frame, SCOP and power.',
  }),
  grant_conditions: GrantConditions.meta({
    description:
      "Extension: the grant's schemes and conditions beside its amount; NOT_YET_SOURCED where the region's grant for the measure is unknown (its 0 is not a 'none').",
  }),
  /** Extension: the year the step is planned for: null now; a year for a young boiler replaced at the end of its life. */
  planned_year: z.number().int().nullable().meta({
    description:
      'Extension: the year the step is planned for (null: now); a boiler under ten years old is replaced at the end of its life.',
  }),
  /** Extension: the permit the works need (a protected facade, townscape or listed building), null when none is known to be needed. */
  permit: z.string().nullable().meta({ description: 'Extension: the permit the works need on a protected home, or null.' }),
  co_ownership: CoOwnershipDecision.nullable().meta({
    description:
      "Extension: in a flat, a step on the building's roof, facades or common floors is a decision of the co-owners' association.",
  }),
  bill_increase: BillIncrease.nullable().optional().meta({
    description:
      "Extension: on a step that raises the household's energy bill, by how much a year, what it is the price of (an obligation, a rental norm, or the label) and whether it is optional (no binding obligation asks for it).",
  }),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

export const TrajectoryTotals = z.object({
  estimated_cost: money(),
  estimated_vat_cost: money(),
  subsidy_amount: money(),
  total_estimated_cost_incl_vat: money(),
  net_cost: money(),
  /** Extension: the plan's money as one financing (one loan on the whole net cost, within the product's cap). */
  financing: Financing.optional(),
});

export const TrajectoryPlan = z.object({
  region: Region,
  energy_efficiency_type: EnergyEfficiencyType,
  current: z.object({
    epc_score: z.number(),
    epc_label: z.string(),
    primary_energy_kwh_per_year: z.number(),
    heating_need_kwh_per_year: z.number(),
    co2_kg_per_year: z.number(),
    energy_cost_eur_per_year: money(),
  }),
  steps: z.array(TrajectoryStep),
  totals: TrajectoryTotals,
  /** The EPC label after all steps. */
  energy_efficiency_indication: z.string(),
  final_epc_score: z.number(),
  confidence_score: z.number().min(0).max(1),
  quality_label: QualityLabel,
  expected_price_error: z.object({
    average_pct: z.number(),
    standard_deviation_pct: z.number(),
    /** Extension: the band's figures are lower bounds ("above 20%"). */
    at_least: z.boolean(),
  }),
  data_quality: z.object({
    sources: z.record(z.string(), DataSource),
    flags: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
  }),
  versions: z.object({ model: z.string(), catalogue: z.string() }),
  // extensions
  /** The region's long-term target and whether the plan reaches it. */
  target: z.object({ label: z.string(), reached: z.boolean(), source: z.string() }),
  /** What the figures assume (income category, price year, invoice date). */
  assumptions: z.array(z.string()),
  /** The price year of the figures. */
  price_year: z.number().int(),
  /** What the plan leaves out (or treats with a lesser variant), element by element, and why. */
  left_out: z.array(PlanOmission).meta({
    description:
      'Extension: each element the plan does not treat, or treats with a lesser variant, and why (e.g. a young heat pump kept, a Brussels street facade insulated from inside).',
  }),
  /** Milestones that apply to the home and the plan does not reach. */
  milestones_missed: z
    .array(PlanMilestone)
    .meta({ description: 'Extension: milestones that apply to the home and that the plan does not reach.' }),
  /** How the bill and savings were fitted to the metered use (absent without it). */
  calibration: MeteredCalibration.optional().meta({
    description:
      "Extension: the calibration on the household's metered use (method, heat-loss coefficient with its 80% interval, baseload, metered and modelled use). The EPC score stays the asset rating.",
  }),
  /**
   * Extension: why the plan has no steps because it stopped for a check: CALIBRATION_CONFLICT, a given
   * score the described home cannot have (an A on a bare house); null when the plan was made.
   */
  stopped: z
    .object({ code: z.enum(['CALIBRATION_CONFLICT']), reason: z.string() })
    .nullable()
    .meta({
      description:
        'Extension: CALIBRATION_CONFLICT with its reason when a given score contradicts the described home, so no works are planned until it is checked; null otherwise.',
    }),
  /** Extension: the inputs that would make the plan trustworthy, most important first (always given on quality D). */
  inputs_needed: z.array(z.string()).meta({
    description: 'Extension: the inputs the plan needs before it can be trusted (quality D), most important first.',
  }),
});
export type TrajectoryPlan = z.infer<typeof TrajectoryPlan>;

/** A FINISHED trajectory job's `metadata`: the plan and the renovation made from it. */
export const TrajectoryJobMetadata = TrajectoryPlan.extend({ renovation_id: Uuid });
export type TrajectoryJobMetadata = z.infer<typeof TrajectoryJobMetadata>;
