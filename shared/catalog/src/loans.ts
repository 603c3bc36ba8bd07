/**
 * The regions' public renovation loans (data/loans.json, each with its source and year)
 * and the annuity of a loan: which product a household gets for an amount, and what it pays a month.
 */
import { z } from 'zod';
import { Household, Region, type StepLoan } from '@renopath/contracts';
import loansJson from '../data/loans.json' with { type: 'json' };

const Product = z.object({
  id: z.string(),
  region: Region,
  product: z.string(),
  provider: z.string(),
  /** By income, ascending; the first whose max_income_eur is at least the household's (null: any). */
  rates: z.array(z.object({ max_income_eur: z.number().nullable(), rate_percent: z.number().min(0) })).min(1),
  /** By amount, ascending; the first whose max_principal_eur is at least the principal (null: any). */
  terms: z.array(z.object({ max_principal_eur: z.number().nullable(), term_months: z.number().int().positive() })).min(1),
  min_principal_eur: z.number().min(0),
  max_principal_eur: z.number().positive().nullable(),
  occupancy: z.array(Household.shape.occupancy.unwrap()).min(1),
  /** Owner-occupiers' taxable-income ceiling: a single person's, a couple's, and per dependant beyond two people. */
  income_limit: z.object({ single_eur: z.number(), couple_eur: z.number(), per_dependant_eur: z.number() }).nullable(),
  valid_from: z.string(),
  valid_until: z.string().nullable(),
  conditions: z.array(z.string()),
  source: z.string(),
  year: z.number().int(),
});
export type LoanProduct = z.infer<typeof Product>;

export const LOAN_PRODUCTS: readonly LoanProduct[] = z.object({ products: z.array(Product).min(1) }).parse(loansJson).products;

/** The monthly payment that repays `principal` over `months` at a yearly nominal `ratePercent` (interest monthly). */
export function annuity(principal: number, ratePercent: number, months: number): number {
  const r = ratePercent / 100 / 12;
  if (r === 0) return principal / months;
  return (principal * r) / (1 - (1 + r) ** -months);
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function incomeCeiling(limit: NonNullable<LoanProduct['income_limit']>, occupants: number | undefined): number {
  // Occupants beyond two are counted as dependants: the household's composition is not asked [I].
  if (occupants === undefined || occupants <= 1) return occupants === 1 ? limit.single_eur : limit.couple_eur;
  return limit.couple_eur + (occupants - 2) * limit.per_dependant_eur;
}

/** The products of the region in force on `date` (YYYY-MM-DD) whose occupancy and income fit, with what was assumed. */
export function productsFor(region: Region, household: Household | undefined, date: string): { product: LoanProduct; assumed: string[] }[] {
  const out: { product: LoanProduct; assumed: string[] }[] = [];
  for (const p of LOAN_PRODUCTS) {
    if (p.region !== region || p.valid_from > date || (p.valid_until !== null && p.valid_until < date)) continue;
    const assumed: string[] = [];
    const occupancy = household?.occupancy;
    if (occupancy === undefined) assumed.push('the household is assumed to live in the home it owns (occupancy not given)');
    if (!p.occupancy.includes(occupancy ?? 'OWNER_OCCUPIED')) continue;
    if (p.income_limit && (occupancy ?? 'OWNER_OCCUPIED') === 'OWNER_OCCUPIED') {
      const income = household?.taxable_income_eur;
      const ceiling = incomeCeiling(p.income_limit, household?.occupants);
      if (income === undefined)
        assumed.push(`the household's taxable income is assumed within the product's ceiling (EUR ${ceiling}; income not given)`);
      else if (income > ceiling) continue;
    }
    if (p.rates.some((r) => r.max_income_eur !== null) && household?.taxable_income_eur === undefined)
      assumed.push("the rate for the household's income is assumed the lowest (income not given)");
    out.push({ product: p, assumed });
  }
  return out;
}

/** The loan of a product for an amount, or null below its minimum. The principal is capped at the product's maximum. */
export function loanOf(
  choice: { product: LoanProduct; assumed: string[] },
  amount: number,
  household: Household | undefined,
): StepLoan | null {
  const p = choice.product;
  const principal = p.max_principal_eur === null ? amount : Math.min(amount, p.max_principal_eur);
  if (!(principal >= p.min_principal_eur) || principal <= 0) return null;
  const income = household?.taxable_income_eur;
  const rate = p.rates.find((r) => r.max_income_eur === null || income === undefined || income <= r.max_income_eur)!.rate_percent;
  const term = p.terms.find((t) => t.max_principal_eur === null || principal <= t.max_principal_eur)!.term_months;
  const capped = principal < amount ? [`the product lends at most EUR ${p.max_principal_eur}: the rest is paid otherwise`] : [];
  return {
    product: p.product,
    provider: p.provider,
    rate_percent: rate,
    term_months: term,
    principal_eur: round2(principal),
    monthly_payment_eur: round2(annuity(principal, rate, term)),
    conditions: [...p.conditions, ...choice.assumed, ...capped],
    source: `${p.source} (${p.year})`,
  };
}
