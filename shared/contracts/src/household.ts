import { z } from 'zod';

/**
 * Extension: who lives in the home and on what terms. One definition for the planner (which legal
 * obligations apply: a buyer's deadline runs from `purchase_date`, a landlord's from letting) and for
 * the money per step (a loan's and a grant's income category, occupancy conditions).
 */
export const Occupancy = z.enum(['OWNER_OCCUPIED', 'RENTED']);
export type Occupancy = z.infer<typeof Occupancy>;

/** A calendar date, YYYY-MM-DD, that exists (2025-02-30 is refused). */
const isoDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, 'must be a calendar date that exists')
    // JSON Schema's `format: date` (RFC 3339 full-date) is a date that exists: the document says so.
    .meta({ format: 'date' });

export const Household = z.strictObject({
  /** People living in the home (hot-water use, an income category's household size). */
  occupants: z.number().int().min(1).max(50).optional(),
  /** The household's taxable income in EUR a year (grant and loan income categories). */
  taxable_income_eur: z.number().min(0).max(100_000_000).optional(),
  occupancy: Occupancy.optional(),
  /** The deed date of the purchase: the buyers' renovation obligations run from it. */
  purchase_date: isoDate().optional(),
});
export type Household = z.infer<typeof Household>;
