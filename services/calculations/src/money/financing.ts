/**
 * The household's money of a step or a plan: its grant, the public loan it qualifies for and its monthly
 * annuity, the monthly bill saving, and the paybacks with and without support (EPBD 2024/1275 annex
 * VIII asks renovation passports for both).
 */
import { loanOf, productsFor } from '@renopath/catalog/loans.ts';
import type { Financing, Household, Region } from '@renopath/contracts';

const round2 = (x: number) => Math.round(x * 100) / 100;
const round1 = (x: number) => Math.round(x * 10) / 10;

export interface MoneyOf {
  /** Cost including VAT, before the grant. */
  cost_incl_vat: number;
  grant: number;
  /** Yearly bill saving (EUR). */
  saving_per_year: number;
}

export interface LoanContext {
  region: Region;
  household: Household | undefined;
  /** The date the loan's terms are read at (YYYY-MM-DD). */
  date: string;
}

/** The financing of an amount: the first product of the region that lends on it. */
export function financingOf(m: MoneyOf, ctx: LoanContext): Financing {
  const net = Math.max(0, m.cost_incl_vat - m.grant);
  let loan: Financing['loan'] = null;
  for (const choice of productsFor(ctx.region, ctx.household, ctx.date)) {
    loan = loanOf(choice, net, ctx.household);
    if (loan) break;
  }
  const saves = m.saving_per_year > 0;
  return {
    grant_eur: round2(m.grant),
    loan,
    monthly_bill_saving_eur: round2(m.saving_per_year / 12),
    // A grant only lowers what is paid back, so with support is never longer than without.
    payback_years: saves ? round1(m.cost_incl_vat / m.saving_per_year) : null,
    payback_years_with_support: saves ? round1(net / m.saving_per_year) : null,
  };
}
