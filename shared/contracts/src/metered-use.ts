import { z } from 'zod';

/**
 * Extension: the household's own metered use (issue "the household's own numbers"). Either a yearly
 * figure (the annual bill's readings) or at least twelve monthly readings; both may be given, the
 * months then calibrate and the yearly figure is kept for the record. Energy in kWh as the bill states
 * it (gas in m3 when the bill counts volume); what the readings may not be is refused here, naming
 * `metered_use...`; whether they fit the described home at all (not more than ten times what the
 * energy model gives it) is checked where the model runs, at job creation (422).
 */

const amount = (max: number) => z.number().min(0, 'must not be negative').max(max);
// No home uses a gigawatt-hour a year: the bounds keep 1e308 out, the model check bounds the rest.
const KWH = 10_000_000;

/** A month that exists, YYYY-MM (2025-13 is refused). */
export const YearMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM (01-12)')
  .refine((m) => Number(m.slice(0, 4)) >= 1990, 'must be a month from 1990 on')
  // A reading of a month that has not begun is impossible (read at parse time: the request's own now).
  .refine((m) => m <= new Date().toISOString().slice(0, 7), 'must not be a month in the future');

export const MeteredMonth = z.strictObject({
  month: YearMonth,
  gas_kwh: amount(KWH).optional(),
  electricity_kwh: amount(KWH).optional(),
  fuel_oil_litres: amount(1_000_000).optional(),
});
export type MeteredMonth = z.infer<typeof MeteredMonth>;

export const MeteredUse = z
  .strictObject({
    /** Gas over the year in kWh (Belgian bills) ... */
    gas_kwh: amount(KWH).optional(),
    /** ... or in m3 (Dutch bills); not both. */
    gas_m3: amount(1_000_000).optional(),
    electricity_kwh: amount(KWH).optional(),
    fuel_oil_litres: amount(1_000_000).optional(),
    pellets_kg: amount(1_000_000).optional(),
    /** What the home's solar panels produced over the same year (kWh). */
    pv_production_kwh: amount(KWH).optional(),
    /** The last month of the yearly figure's twelve months, YYYY-MM. */
    period_end: YearMonth.optional(),
    /** At least twelve consecutive-or-not monthly readings, each month once. */
    monthly: z.array(MeteredMonth).min(1).max(120).optional(),
  })
  .superRefine((m, ctx) => {
    const annual = ['gas_kwh', 'gas_m3', 'electricity_kwh', 'fuel_oil_litres', 'pellets_kg'] as const;
    const hasAnnual = annual.some((k) => m[k] !== undefined);
    if (m.gas_kwh !== undefined && m.gas_m3 !== undefined)
      ctx.addIssue({ code: 'custom', path: ['gas_m3'], message: 'give gas in kWh or in m3, not both' });
    if (m.monthly) {
      const seen = new Set<string>();
      m.monthly.forEach((row, i) => {
        if (seen.has(row.month))
          ctx.addIssue({ code: 'custom', path: ['monthly', i, 'month'], message: `month ${row.month} is given twice` });
        seen.add(row.month);
        if (row.gas_kwh === undefined && row.electricity_kwh === undefined && row.fuel_oil_litres === undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['monthly', i],
            message: 'a monthly reading needs gas_kwh, electricity_kwh or fuel_oil_litres',
          });
      });
      if (seen.size < 12 && !hasAnnual)
        ctx.addIssue({
          code: 'custom',
          path: ['monthly'],
          message: `${seen.size} months are fewer than the 12 a calibration needs; give twelve or more, or a yearly figure`,
        });
    } else if (!hasAnnual) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'needs a yearly figure (gas_kwh, gas_m3, electricity_kwh, fuel_oil_litres or pellets_kg) or monthly readings',
      });
    }
    if (m.period_end !== undefined && !hasAnnual)
      ctx.addIssue({ code: 'custom', path: ['period_end'], message: 'period_end dates a yearly figure, and none is given' });
  });
export type MeteredUse = z.infer<typeof MeteredUse>;
