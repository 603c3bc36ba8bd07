import { applyEffect, PLANNER_DATA, priceItem, quantityFor, supportingWorks, type SetPricing } from '@renopath/catalog';
import { evaluate, type VariantScore, type VariantScorer } from '@renopath/energy';
import { factors } from '@renopath/energy/model/data.ts';
import type { PropertyDescription } from '@renopath/contracts';
import { modelOptions, quantityContext, roofKindOf, type Candidate, type PlanOptions } from './common.ts';
import type { ElementDecision, ElementRule } from './elements.ts';

/**
 * How the planner picks a variant for an element: each adequate variant priced with its own supporting
 * works after grants, the cheapest kept (a near tie goes to the larger gain, then the larger grant);
 * solar panels sized on the home's new electricity use first.
 */

const SELECTION = PLANNER_DATA.selection;
const PV = PLANNER_DATA.pv_sizing;

/**
 * Rule PV_SIZED_ON_NEW_USE: the share of the home's yearly electricity use the panels are sized to
 * produce, per country. Self-consumption falls as the array grows against the use
 * (planner.json `pv_sizing.self_consumption_by_cover`); the money model values a fixed share of the
 * production at the retail price (factors.json `pv.self_consumption_share`), so the array is sized where
 * that share still holds: beyond it almost every extra kWh is exported at the feed-in price.
 */
export function pvCoverShare(country: 'BE' | 'NL'): number {
  const share = factors.prices_eur_per_kwh.pv.self_consumption_share[country];
  const points = PV.self_consumption_by_cover;
  let cover = points[0]![0];
  for (let i = 1; i < points.length; i++) {
    const [r0, s0] = points[i - 1]!;
    const [r1, s1] = points[i]!;
    if (s1 >= share) cover = r1;
    else if (s0 >= share) cover = r0 + ((s0 - share) / (s0 - s1)) * (r1 - r0);
    else break;
  }
  return cover;
}

type Money = { net: number; subsidy: number };
/** A variant's supporting works: each one's net cost and grant, in order. */
type WorksMoney = { net: number[]; subsidy: number[] };

/**
 * Net cost after grants of a variant with its own supporting works, given the steps planned so far.
 * A variant's supporting works do not depend on the steps planned before it (only its grant does), and
 * the same variant is weighed again at each pick of its phase: `works` keeps them for the plan.
 */
function netCostOf(
  year_built: number,
  pricing: SetPricing,
  type: string,
  quantity: number,
  state: Partial<PropertyDescription>,
  planned: readonly string[],
  works: Map<string, WorksMoney>,
): Money {
  const { country, region, year } = pricing;
  const heating_type_after = state.heating_type ?? undefined;
  const estate = {
    year_built,
    ...(pricing.income_category ? { income_category: pricing.income_category } : {}),
    ...(heating_type_after ? { heating_type_after } : {}),
  };
  const item = priceItem({ node: type, quantity, country, region, year, estate, companions: [...planned, type] });
  const key = `${item.priced_as}|${quantity}|${item.estimated_cost}|${heating_type_after ?? ''}`;
  let own = works.get(key);
  if (!own) {
    const derived = supportingWorks([{ renovation_component_type: item.priced_as, quantity, estimated_cost: item.estimated_cost }], {
      ...estate,
      country,
      region,
      year,
    });
    own = { net: derived.map((w) => w.net_cost), subsidy: derived.map((w) => w.subsidy_amount) };
    works.set(key, own);
  }
  // Summed from 0 in the order item, works: the same floating-point sums a tie is judged on.
  let net = 0 + item.net_cost;
  let subsidy = 0 + item.subsidy_amount;
  for (const x of own.net) net += x;
  for (const x of own.subsidy) subsidy += x;
  return { net, subsidy };
}

/** The surfaces a variant's quantity reads, made once per roof kind (every variant of an element reads the same home). */
function surfacesOf(view: Partial<PropertyDescription>, base: Parameters<typeof quantityContext>[1]) {
  const surfaces = new Map<string, ReturnType<typeof quantityContext>>();
  return (kind: ReturnType<typeof roofKindOf>) => {
    let ctx = surfaces.get(String(kind));
    if (!ctx) {
      ctx = quantityContext(view, base, kind);
      surfaces.set(String(kind), ctx);
    }
    return ctx;
  };
}

export interface Chooser {
  cheapestAdequate(
    rule: ElementRule,
    decision: Extract<ElementDecision, { variants: string[] }>,
    before: Partial<PropertyDescription>,
    current: VariantScore,
    seen: Partial<PropertyDescription>,
    planned: readonly string[],
  ): Candidate | null;
  /** How the panels were sized, for the plan's assumptions (null: no panels sized yet). */
  pv: { forTarget: boolean; words: string | null };
}

export function makeChooser(
  property: PropertyDescription,
  options: PlanOptions,
  scorer: VariantScorer,
  pricing: SetPricing,
  meetsTarget: (label: string) => boolean,
): Chooser {
  const { base } = scorer;
  const { country } = base;
  const pv: Chooser['pv'] = { forTarget: false, words: null };

  const works = new Map<string, WorksMoney>();
  const netOf = (type: string, quantity: number, state: Partial<PropertyDescription>, planned: readonly string[]) =>
    netCostOf(property.year_built, pricing, type, quantity, state, planned, works);

  /**
   * Rule PV_SIZED_ON_NEW_USE: panels sized to produce the cover share (pvCoverShare) of the home's
   * electricity use after the works (the energy model's expected use, heat pump included, plus an
   * average household's own use), within the usable roof (`roofKwp`), never to cover all of it. Where
   * that size leaves the home short of the region's target and the roof's would reach it, the roof's.
   */
  const pvSized = (state: Partial<PropertyDescription>, roofKwp: number): number => {
    const opts = modelOptions(options);
    const yieldPerKwp =
      evaluate(applyEffect('SOLAR_PANELS', state, roofKwp) as PropertyDescription, opts).pv_production_kwh_per_year / roofKwp;
    const use = evaluate(state as PropertyDescription, opts).expected_use_kwh_per_year.ELECTRICITY + PV.household_kwh_per_year[country];
    if (!(yieldPerKwp > 0)) return roofKwp;
    const cover = pvCoverShare(country);
    const sized = Math.min(roofKwp, Math.max(PV.min_kwp, Math.round(((cover * use) / yieldPerKwp) * 10) / 10));
    pv.words = `Rule PV_SIZED_ON_NEW_USE: the solar panels are sized to produce about ${Math.round(cover * 100)}% of the home's electricity use after the works (about ${Math.round(use).toLocaleString('en-GB')} kWh a year: the heat pump, hot water and fans the energy model counts, plus ${PV.household_kwh_per_year[country].toLocaleString('en-GB')} kWh of household use), within the usable roof: up to that size about ${Math.round(factors.prices_eur_per_kwh.pv.self_consumption_share[country] * 100)}% of what they produce is used at home at the retail price; a larger array exports nearly every extra kWh at the feed-in price (about EUR ${factors.prices_eur_per_kwh.pv.feed_in_eur_per_kwh[country]}/kWh).`;
    if (
      sized < roofKwp &&
      !meetsTarget(scorer.score(applyEffect('SOLAR_PANELS', state, sized)).epc_label) &&
      meetsTarget(scorer.score(applyEffect('SOLAR_PANELS', state, roofKwp)).epc_label)
    ) {
      pv.forTarget = true;
      return roofKwp;
    }
    return sized;
  };

  const cheapestAdequate: Chooser['cheapestAdequate'] = (rule, decision, before, current, seen, planned) => {
    const { variants, assume } = decision;
    // An assumed fact (a crawl space under an undescribed Dutch floor) joins the home with the step.
    const state = assume ? { ...before, ...assume.facts } : before;
    const view = assume ? { ...seen, ...assume.facts } : seen;
    const costed: { type: string; quantity: number; state: Partial<PropertyDescription>; net: number; subsidy: number }[] = [];
    const surfacesFor = surfacesOf(view, base);
    for (const type of variants) {
      let quantity: number;
      try {
        quantity = quantityFor(type, surfacesFor(roofKindOf(type)));
      } catch {
        continue;
      }
      if (decision.quantityShare !== undefined) quantity = Math.round(quantity * decision.quantityShare * 10) / 10;
      if (!(quantity > 0)) continue;
      if (type === 'SOLAR_PANELS') quantity = pvSized(state, quantity);
      const next = applyEffect(type, state, quantity);
      let priced: { net: number; subsidy: number };
      try {
        priced = netOf(type, quantity, next, planned);
      } catch {
        continue;
      }
      costed.push({ type, quantity, state: next, net: priced.net, subsidy: priced.subsidy });
    }
    if (costed.length === 0) return null;
    const cheapest = Math.min(...costed.map((c) => c.net));
    // Only the variants tied on cost need their gain (a model run each): the dearer ones are out already.
    const near = costed
      .filter((c) => c.net <= cheapest + Math.abs(cheapest) * SELECTION.tie_net_cost_share)
      .map((c) => ({ ...c, evaluation: scorer.score(c.state) }));
    // The larger gain (the lower score after), then the larger grant, then the element's own order.
    near.sort(
      (a, b) =>
        a.evaluation.epc_score - b.evaluation.epc_score || b.subsidy - a.subsidy || variants.indexOf(a.type) - variants.indexOf(b.type),
    );
    const { subsidy: _s, ...pick } = near[0]!;
    return {
      ...pick,
      element: rule.element,
      phase: rule.phase,
      gain: current.epc_score - pick.evaluation.epc_score,
      cheaperThanOthers: costed.some((c) => c.net > pick.net),
      ...(assume ? { assumption: assume.assumption } : {}),
      ...(decision.permit ? { permit: decision.permit } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
    };
  };

  return { cheapestAdequate, pv };
}
