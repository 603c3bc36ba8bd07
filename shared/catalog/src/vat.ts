import type { HeatingType } from '@renopath/contracts';
import { DATA, type VatCase } from './data.ts';
import type { VatRuleId } from './types.ts';

export interface VatContext {
  /** Invoice date, YYYY-MM-DD. */
  date: string;
  /** Years since the dwelling was first occupied, at the invoice date. */
  dwelling_age_years: number;
  heating_type_after?: HeatingType;
  /** Labour part of the price (NL insulation: taxed at 9%). */
  labour_share?: number;
  /** Fossil-appliance part of a system's price (a hybrid heat pump's boiler). */
  fossil_share?: number;
}

export interface VatPart {
  share: number;
  rate: number;
  rate_id: string;
}
export interface VatDecision {
  rule: VatRuleId;
  case_id: string;
  parts: VatPart[];
  effective_rate: number;
}

function rate(id: string): number {
  const row = DATA.vat.rates.find((r) => r.id === id);
  if (!row) throw new Error(`vat-rules.json has no rate ${id}`);
  return row.rate;
}

function holds(c: VatCase, ctx: VatContext): boolean {
  const w = c.when;
  if (w.from !== undefined && ctx.date < w.from) return false;
  if (w.to !== undefined && ctx.date > w.to) return false;
  if (w.min_dwelling_age_years !== undefined && ctx.dwelling_age_years < w.min_dwelling_age_years) return false;
  if (
    w.heating_type_after_in !== undefined &&
    (ctx.heating_type_after === undefined || !w.heating_type_after_in.includes(ctx.heating_type_after))
  )
    return false;
  return true;
}

/** The VAT that applies under a rule: the first case whose conditions hold (vat-rules.json). */
export function vatFor(ruleId: VatRuleId, ctx: VatContext): VatDecision {
  const rule = DATA.vat.rules.find((r) => r.id === ruleId);
  if (!rule) throw new Error(`vat-rules.json has no rule ${ruleId}`);
  const c = rule.cases.find((x) => holds(x, ctx));
  if (!c) throw new Error(`vat rule ${ruleId} has no case for ${JSON.stringify(ctx)}`);
  let parts: VatPart[];
  if (c.split) {
    // No labour share on the row: tax everything at the materials rate (never under-state VAT).
    const labour = ctx.labour_share ?? 0;
    parts = [
      { share: labour, rate: rate(c.split.labour), rate_id: c.split.labour },
      { share: 1 - labour, rate: rate(c.split.materials), rate_id: c.split.materials },
    ].filter((p) => p.share > 0);
  } else if (c.fossil_rate && (ctx.fossil_share ?? 0) > 0) {
    const fossil = ctx.fossil_share!;
    parts = [
      { share: 1 - fossil, rate: rate(c.rate!), rate_id: c.rate! },
      { share: fossil, rate: rate(c.fossil_rate), rate_id: c.fossil_rate },
    ].filter((p) => p.share > 0);
  } else {
    parts = [{ share: 1, rate: rate(c.rate!), rate_id: c.rate! }];
  }
  const effective = parts.reduce((sum, p) => sum + p.share * p.rate, 0);
  return { rule: ruleId, case_id: c.id, parts, effective_rate: Math.round(effective * 10000) / 10000 };
}
