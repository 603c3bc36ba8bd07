import type { TrajectoryPlan } from '@renopath/contracts';
import type { ReportMoney } from '../report-model.ts';

/**
 * The household's money for a report or the public page, from the trajectory's plan: the bill before
 * and after (from the meter when the plan was calibrated on it), the monthly repayment of the plan's
 * loan against the monthly saving, and the paybacks. Null for a plan made before financing existed.
 */
export function moneyOf(plan: Pick<TrajectoryPlan, 'current' | 'steps' | 'totals' | 'calibration'>): ReportMoney | null {
  const f = plan.totals.financing;
  if (!f) return null;
  const saving = plan.steps.reduce((sum, s) => sum + Math.round(s.cost_savings_eur_per_year * 100), 0) / 100;
  const c = plan.calibration;
  const today = plan.current.energy_cost_eur_per_year;
  return {
    from_meter: c !== undefined,
    metered: c
      ? {
          method: c.method,
          carrier: c.carrier,
          metered_kwh_year: c.metered_kwh_year,
          modelled_kwh_year: c.modelled_kwh_year,
          ratio: c.ratio,
        }
      : null,
    bill_today_eur_per_year: today,
    bill_today_interval: c ? c.bill_interval_eur_per_year : null,
    bill_after_eur_per_year: Math.round((today - saving) * 100) / 100,
    monthly_saving_eur: f.monthly_bill_saving_eur,
    loan: f.loan
      ? {
          product: f.loan.product,
          provider: f.loan.provider,
          rate_percent: f.loan.rate_percent,
          term_months: f.loan.term_months,
          principal_eur: f.loan.principal_eur,
          monthly_payment_eur: f.loan.monthly_payment_eur,
        }
      : null,
    payback_years: f.payback_years,
    payback_years_with_support: f.payback_years_with_support,
  };
}
