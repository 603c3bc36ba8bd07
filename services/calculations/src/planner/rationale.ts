import type { IncomeCategory } from '@renopath/catalog';
import type { BillIncrease, PlanElement, PlanMilestone, PlanPhase } from '@renopath/contracts';
import { ELEMENT_REASON, PHASE_REASON, VARIANT_REASON } from './elements.ts';

/**
 * The `rationale` of a step: plain sentences for a homeowner naming the element, why the step comes
 * at this place, the label after it, its cost and grant, and what those figures assume. Built from
 * the facts the planner decided on, never from figures of its own.
 */

export interface RationaleFacts {
  element: PlanElement;
  phase: PlanPhase;
  title: string;
  type: string;
  scoreBefore: number;
  scoreAfter: number;
  labelBefore: string;
  labelAfter: string;
  /** Including VAT. */
  cost: number;
  subsidy: number;
  costSavingsPerYear: number;
  /** Other adequate variants of the element cost more after grants. */
  cheaperThanOthers: boolean;
  milestones: readonly PlanMilestone[];
  /** Null: the default (MIDDLE) was assumed. */
  incomeCategory: IncomeCategory | null;
  priceYear: number;
  grantScheme: string | null;
  /** A heat pump after envelope works: the design heat load today and once insulated (kW). */
  designLoadKw: { today: number; insulated: number } | null;
  /** A measure joined to the step as its supporting work (ventilation with the step that makes the home airtight). */
  joined?: string | null;
  /** Why this variant from the home's own facts (a named rule), over the variant's general reason. */
  reason?: string | null;
  permit?: string | null;
  coOwnership?: { association: string; share: number | null } | null;
  /** A flat's own step with steps of the co-owners after it (Rule OWN_STEPS_FIRST). */
  ownFirst?: { association: string } | null;
  /** The plan puts up a facade scaffold (exterior wall insulation): walls and windows then share it. */
  facadeScaffold?: boolean;
  /** A flat's air-source heat pump: its outdoor unit goes on the building's common parts. */
  outdoorUnitOnCommonParts?: boolean;
  /** Why this own step of a flat waits until after the co-owners' steps (Rule OWN_STEPS_FIRST). */
  afterCoOwners?: string | null;
  /** The year the step is planned for (a young boiler's end of life); null: now. */
  plannedYear?: number | null;
  grantStatus?: 'GRANTED' | 'NOT_ELIGIBLE' | 'NOT_YET_SOURCED';
  /** A grant scheme for the measure that has ended (its 0 is a "none"). */
  grantEnded?: { scheme: string; on: string } | null;
  /** The measure's life in years (the cost-effectiveness check), and the step's net cost after grants. */
  life?: number | null;
  netCost?: number;
  /** The step raises the bill (rule BILL_INCREASE_IS_LABEL_PRICE): what it is the price of, and the obligation asking for it. */
  billIncrease?: (BillIncrease & { obligation: PlanMilestone | null }) | null;
  /** CO2 the step saves a year (kg), said beside a bill increase. */
  co2SavingsPerYear?: number;
}

const WHAT_IT_DOES: Record<PlanElement, string> = {
  ROOF: 'Insulating the roof stops the heat that rises and escapes through it.',
  WALLS: 'Insulating the outer walls cuts the heat lost through the largest surface of the home.',
  WINDOWS: 'New windows keep the heat in and end cold spots and draughts near the glass.',
  FLOOR: 'Insulating the floor stops heat leaking into the ground or basement and warms the floor underfoot.',
  VENTILATION: 'Controlled ventilation keeps the air healthy and the walls dry in the airtight home.',
  HEAT_GENERATOR: 'A heat pump makes the heat the insulated home still needs without burning fossil fuel.',
  HEAT_EMITTERS: 'Low-temperature radiators let the heat pump run at the low water temperature where it is most efficient.',
  OIL_TANK: 'A tank no longer in use must be emptied, cleaned and removed or filled by a certified firm.',
  HOT_WATER: 'A heat-pump water heater makes hot water with a third of the electricity of a resistance heater and no fossil fuel.',
  SOLAR_PANELS: 'Solar panels produce electricity on the roof, which lowers the energy bought from the grid.',
};

/** Why a measure rides with a step instead of being a step of its own. */
const JOINED_REASON: Partial<Record<string, string>> = {
  VENTILATION_SYSTEM_C:
    'Mechanical extract ventilation (system C with demand control) is installed with this step: it makes the home airtight, so fresh air must then come from a ventilation system; its fans add a little electricity, which this step more than pays back in score.',
  VENTILATION_SYSTEM_D:
    'Balanced ventilation with heat recovery (system D) is installed with this step: it makes the home airtight, so fresh air must then come from a ventilation system.',
};

const euros = (x: number) => `EUR ${Math.round(x).toLocaleString('en-GB')}`;
const score = (x: number) => Math.round(x).toString();

export function rationaleOf(f: RationaleFacts): string {
  // In a flat the windows are the owner's and the facade the co-owners': they are not one job sharing a scaffold.
  const flatSplit = f.phase === 'WALLS_AND_WINDOWS' && Boolean(f.ownFirst || f.coOwnership || f.afterCoOwners);
  const parts: string[] = [
    WHAT_IT_DOES[f.element],
    flatSplit
      ? "In a flat the windows are the owner's own work and the facade with its cavity the co-owners', each planned when its decision allows."
      : f.phase === 'WALLS_AND_WINDOWS' && f.facadeScaffold === false
        ? 'Walls and windows are done together after the roof: the airtight joint between frame and wall is made once, with the wall insulated up to the new frame.'
        : (ELEMENT_REASON[f.element] ?? PHASE_REASON[f.phase]),
  ];
  if (f.designLoadKw && f.designLoadKw.insulated < f.designLoadKw.today) {
    const kw = (x: number) => (Math.round(x * 2) / 2).toLocaleString('en-GB');
    parts.push(
      `Insulated, the home needs about ${kw(f.designLoadKw.insulated)} kW on the coldest design day instead of ${kw(f.designLoadKw.today)} kW today: that is the size to ask the installer for.`,
    );
  }
  if (f.joined) {
    parts.push(
      `${JOINED_REASON[f.joined] ?? 'A supporting measure is installed with this step.'} ${VARIANT_REASON[f.joined] ?? ''}`.trim(),
    );
  }
  const variant = f.reason ?? VARIANT_REASON[f.type];
  if (variant) parts.push(variant);
  else if (f.cheaperThanOthers) parts.push(`${f.title} is the cheapest way after grants to bring this element to today's standard.`);
  parts.push(
    Math.round(f.scoreAfter) === Math.round(f.scoreBefore)
      ? `The EPC score stays at ${score(f.scoreAfter)}: label ${f.labelAfter} after this step.`
      : `EPC score from ${score(f.scoreBefore)} to ${score(f.scoreAfter)}: label ${f.labelAfter} after this step${f.labelBefore === f.labelAfter ? '' : ` (${f.labelBefore} before)`}.`,
  );
  if (f.costSavingsPerYear >= 1) parts.push(`Expected saving on the energy bill: about ${euros(f.costSavingsPerYear)} a year.`);
  // Honest words: a fan adds electricity, and where electricity costs several times gas (Belgium) a heat pump can raise the bill.
  else if (f.costSavingsPerYear <= -1)
    parts.push(`At ${f.priceYear} prices this step raises the energy bill by about ${euros(-f.costSavingsPerYear)} a year.`);
  parts.push(
    `It costs about ${euros(f.cost)} including VAT${f.subsidy > 0 ? `, of which grants${f.grantScheme ? ` (${f.grantScheme})` : ''} pay about ${euros(f.subsidy)}` : ''}, at ${f.priceYear} prices.`,
  );
  if (f.subsidy > 0 && f.incomeCategory === null) parts.push('The grant assumes the middle income category.');
  // BILL_INCREASE_IS_LABEL_PRICE: a step that costs the household money every year is the price of a label or an obligation, not advice.
  if (f.billIncrease) parts.push(billIncreaseWords(f.billIncrease, f.co2SavingsPerYear ?? 0));
  // COST_EFFECTIVENESS: a step whose saving does not repay it within its life is not sold as a saving.
  else if (f.life && f.netCost !== undefined && f.netCost > 0 && f.costSavingsPerYear * f.life < f.netCost)
    parts.push(
      `Rule COST_EFFECTIVENESS: its saving does not repay its net cost within the measure's ${f.life}-year life, so it is comfort, label or obligation work, not a saving.`,
    );
  if (f.grantEnded) parts.push(`No grant is counted: the ${f.grantEnded.scheme} ended on ${f.grantEnded.on}.`);
  if (f.grantStatus === 'NOT_YET_SOURCED') parts.push("The region's grant for this measure is not yet sourced: no amount is counted.");
  if (f.permit) parts.push(`The works need ${f.permit}.`);
  if (f.coOwnership)
    parts.push(
      `Rule CO_OWNERSHIP: this is a decision of ${f.coOwnership.association}, voted at its general meeting, not of the flat's owner alone${f.coOwnership.share ? `; the flat pays its share (${Math.round(f.coOwnership.share * 1000)}/1000) of the building's bill` : ''}.`,
    );
  if (f.ownFirst)
    parts.push(
      `Rule OWN_STEPS_FIRST: the flat's owner can do this alone, so it comes before the works that ${f.ownFirst.association} must vote.`,
    );
  if (f.afterCoOwners)
    parts.push(
      `Rule OWN_STEPS_FIRST: although the flat's owner decides it alone, it comes after the co-owners' steps because ${f.afterCoOwners}.`,
    );
  if (f.outdoorUnitOnCommonParts)
    parts.push(
      "Its outdoor unit goes on the building's facade, balcony or roof, which are common parts: the co-owners' consent and the building's rules come first.",
    );
  if (f.plannedYear)
    parts.push(
      `Rule BOILER_END_OF_LIFE: planned for ${f.plannedYear}, when the young boiler reaches the end of its life; replacing it now would not lower the energy bill.`,
    );
  // The label named is the one computed after the step; the rule's own label and wording are in the step's milestones.
  for (const m of f.milestones) {
    const what =
      m.kind === 'TARGET'
        ? 'the long-term target for homes in the region'
        : m.kind === 'OBLIGATION'
          ? 'the renovation obligation after a purchase'
          : 'the rental minimum norm';
    parts.push(
      m.conditional_on === 'PURCHASE'
        ? `With label ${f.labelAfter} after this step the home would meet ${what}, if the planned purchase goes ahead: until the deed is signed, the obligation and its deadline${m.deadline ? ` (${m.deadline})` : ''} are hypothetical, not a legal date.`
        : `With label ${f.labelAfter} after this step the home meets ${what}.`,
    );
  }
  return parts.join(' ');
}

/** The words of a step that raises the bill: the price of what, and whether anything obliges the household to it. */
function billIncreaseWords(b: BillIncrease & { obligation: PlanMilestone | null }, co2: number): string {
  const more = `Rule BILL_INCREASE_IS_LABEL_PRICE: this step makes the household's energy bill about ${euros(b.eur_per_year)} a year higher, so it is not advice that pays for itself`;
  const fossil = co2 >= 1 ? `; it does cut about ${Math.round(co2).toLocaleString('en-GB')} kg of CO2 a year` : '';
  if (b.obligation) {
    const norm = b.obligation.kind === 'OBLIGATION' ? 'the renovation obligation after a purchase' : 'the rental minimum norm';
    const when = b.obligation.deadline ? ` by ${b.obligation.deadline}` : '';
    const iff = b.obligation.conditional_on === 'PURCHASE' ? ', if the planned purchase goes ahead' : '';
    return `${more}: it is part of the price of ${norm} (label ${b.obligation.label}${when}${iff})${fossil}.`;
  }
  return `${more}: it is the price of a better label${fossil}. No obligation asks for it, so it is optional: the household may leave it out or wait.`;
}
