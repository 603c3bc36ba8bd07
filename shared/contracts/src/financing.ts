import { z } from 'zod';

/**
 * Extension: the household's money per step and per plan (issue "the household's own numbers"), and
 * how the plan was calibrated on the metered use. Money in euros with two decimals.
 */

/** A public renovation loan the household qualifies for, and its annuity. */
export const StepLoan = z.object({
  product: z.string(),
  provider: z.string(),
  rate_percent: z.number(),
  term_months: z.number().int(),
  principal_eur: z.number(),
  /** The annuity of principal, rate and term: equal monthly payments that repay the principal with interest. */
  monthly_payment_eur: z.number(),
  /** The product's conditions and what the plan assumed about them (income, occupancy). */
  conditions: z.array(z.string()),
  source: z.string(),
});
export type StepLoan = z.infer<typeof StepLoan>;

export const Financing = z.object({
  grant_eur: z.number(),
  /** Null when no public loan in the region fits the household or the amount. */
  loan: StepLoan.nullable(),
  /** The yearly bill saving over twelve (of the calibrated home when metered use was given). */
  monthly_bill_saving_eur: z.number(),
  /** Cost incl. VAT over the yearly saving; null when the step saves nothing. */
  payback_years: z.number().nullable(),
  /** The same after the grant (never longer than without it); null when the step saves nothing. */
  payback_years_with_support: z.number().nullable(),
});
export type Financing = z.infer<typeof Financing>;

/** An 80% interval: one chance in ten below `low`, one in ten above `high`. */
export const Interval80 = z.object({ low: z.number(), high: z.number() });
export type Interval80 = z.infer<typeof Interval80>;

export const CalibrationMethod = z.enum(['MONTHLY', 'ANNUAL']);
export type CalibrationMethod = z.infer<typeof CalibrationMethod>;

/** How the plan's bill and savings were fitted to the household's metered use. */
export const MeteredCalibration = z.object({
  method: CalibrationMethod,
  /** The carrier the home is heated with, whose readings were fitted. */
  carrier: z.enum(['GAS', 'FUEL_OIL', 'PELLET_FUEL', 'ELECTRICITY']),
  /** The home's heat-loss coefficient as its use shows it (W/K), and its 80% interval. */
  heat_loss_w_per_k: z.number(),
  heat_loss_interval_w_per_k: Interval80,
  /** The energy model's heat-loss coefficient of the described home (W/K), for comparison. */
  modelled_heat_loss_w_per_k: z.number(),
  /** Use of the heating carrier that does not follow the weather (hot water, cooking; appliances for electricity), kWh a year. */
  baseload_kwh_year: z.number(),
  /** The heating carrier's use in a normal weather year, from the readings (kWh). */
  metered_kwh_year: z.number(),
  /** The same as the energy model expects it for the described home (kWh). */
  modelled_kwh_year: z.number(),
  /** metered over modelled. */
  ratio: z.number(),
  /** The climate normals the readings were set against (station, period, base temperature). */
  climate: z.string(),
  /** Today's yearly bill of the calibrated home and its 80% interval (EUR). */
  bill_eur_per_year: z.number(),
  bill_interval_eur_per_year: Interval80,
  /** Figures of the plan that come from the meter rather than from the asset rating. */
  from_meter: z.array(z.string()),
  /** What the EPC score stays: the asset rating of the described home, untouched by metered use. */
  note: z.string(),
});
export type MeteredCalibration = z.infer<typeof MeteredCalibration>;
