import { getNode, PLANNER_DATA, type IncomeCategory, type QuantityContext } from '@renopath/catalog';
import type { Evaluation, SourceOverrides, VariantScore } from '@renopath/energy';
import type { Household, PlanElement, PlanOmission, PlanPhase, PropertyDescription } from '@renopath/contracts';

/** What the planner's modules share: the options of a plan, a chosen step before it is priced, and small helpers. */

export interface PlanOptions {
  /** Price and rule year. */
  year: number;
  /** Where given fields came from (EPC_DOCUMENT, LIDAR, PROVIDER); given fields default to INPUT. */
  sources?: SourceOverrides;
  /** Unset: the grant data's default (MIDDLE), stated in `assumptions`. */
  incomeCategory?: IncomeCategory;
  /** Date of the purchase deed (YYYY-MM-DD) the obligations after a purchase are read for; default the household's purchase date, else 1 July of `year` (a purchase now, mid-year as invoices are). */
  deedDate?: string;
  /** The request's household: its purchase date and occupancy pick the dated rules that apply. */
  household?: Household;
  /**
   * The day the plan is made (YYYY-MM-DD), a parameter since the planner reads no clock: a household's
   * purchase dated after it is still to come, so a buyer's obligation is conditional on it. Default:
   * 1 July of `year`, the day a purchase "now" is taken as.
   */
  today?: string;
}

export interface Candidate {
  element: PlanElement;
  phase: PlanPhase;
  type: string;
  quantity: number;
  state: Partial<PropertyDescription>;
  evaluation: VariantScore;
  gain: number;
  net: number;
  /** Other adequate variants were dearer after grants. */
  cheaperThanOthers: boolean;
  /** What the step assumed of the home that the client did not say (the element rule's `assume`). */
  assumption?: string;
  /** The permit the works need on a protected home. */
  permit?: string;
  /** Why this variant, from the home's own facts (a named rule). */
  reason?: string;
}

export interface Chosen extends Candidate {
  before: VariantScore;
  /** A measure planned with this step as its supporting work (ventilation with the step that makes the envelope airtight). */
  joined?: { type: string; quantity: number };
  /** Rule OWN_STEPS_FIRST: why this step of the flat's owner comes after the co-owners' steps (null or absent: it does not). */
  afterCoOwners?: string;
}

export type Omissions = PlanOmission[];

export const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;
export const round1 = (x: number): number => Math.round(x * 10) / 10;
export const round0 = (x: number): number => Math.round(x);
export const ENVELOPE_ELEMENTS = new Set<PlanElement>(['ROOF', 'WALLS', 'WINDOWS', 'FLOOR']);
/** The elements of a flat that belong to the co-owners (planner.json `co_ownership`). */
export const CO_OWNED = new Set<PlanElement>(PLANNER_DATA.co_ownership.elements as readonly PlanElement[]);

export const modelOptions = (options: Pick<PlanOptions, 'sources'>) => (options.sources ? { sources: options.sources } : {});

/** The roof an item of this type sits on (null: not a roof item). */
export function roofKindOf(type: string): 'INCLINED' | 'FLAT' | null {
  const node = getNode(type);
  if (node.scope !== 'roof') return null;
  return node.quantity_rule === 'flat_roof_surface' ? 'FLAT' : 'INCLINED';
}

/**
 * What the catalogue's predicates and the element rules read: the property as described, its gaps
 * filled with the model's typology defaults (an undescribed roof is the period's roof), so a rule is
 * judged on the home the model computes. Effects and the model itself keep reading the described property only.
 */
export function viewOf(state: Partial<PropertyDescription>, assumed: VariantScore['assumed']): Partial<PropertyDescription> {
  const view: Record<string, unknown> = { ...state };
  // A for-in over the plain `assumed` record: the same fields in the same order, without an array of pairs per call.
  const defaults = assumed as unknown as Record<string, unknown>;
  for (const field in defaults) {
    const value = defaults[field];
    if (view[field] === undefined && value !== null) view[field] = value;
  }
  return view as Partial<PropertyDescription>;
}

/** Surfaces for quantities: what the client gave, else the model's geometry (the roof split by its flat share). */
export function quantityContext(view: Partial<PropertyDescription>, base: Evaluation, kind: 'INCLINED' | 'FLAT' | null): QuantityContext {
  const env = base.geometry.envelope;
  const flatShare = base.assumed.flat_roof_share;
  const roof = kind === 'FLAT' ? env.roof_m2 * flatShare : kind === 'INCLINED' ? env.roof_m2 * (1 - flatShare) : env.roof_m2;
  return {
    ...view,
    outer_wall_surface: view.outer_wall_surface ?? env.wall_m2,
    window_glazing_surface: view.window_glazing_surface ?? env.window_m2,
    floor_surface: view.ground_floor_surface ?? env.floor_m2,
    attic_floor_surface: base.geometry.footprint_m2,
    roof_surface: roof,
  };
}

/** The fields a step's effect changed (its state against the one before). */
export function patchOf(state: Partial<PropertyDescription>, before: Partial<PropertyDescription>): Partial<PropertyDescription> {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(state)) {
    if ((before as Record<string, unknown>)[field] !== value) patch[field] = value;
  }
  return patch as Partial<PropertyDescription>;
}
