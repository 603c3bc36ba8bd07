import { z } from 'zod';
import { EcoFacility } from '../enums.ts';
import { distinct, singleLine } from '../text.ts';

// The schema helpers the estate's contracts share: not part of the package's surface (the barrel leaves them out).

// Control characters, unpaired surrogates and bidi overrides in a name or address are never data: text.ts.
export const text = singleLine;
/** No real home part reaches a million (m2, cm or kWp): a bound that keeps nonsense like 1e308 out. */
export const SANITY_MAX = 1_000_000;
export const atLeastOne = () => z.number().min(1).max(SANITY_MAX);
export const positive = () => z.number().positive().max(SANITY_MAX);
export const year = () => z.number().int().min(1000).max(2100);
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
/** A trajectory-request field under the estate: the same name and type, null when unknown. */
export const asInRequest = <T extends z.ZodType>(field: z.ZodOptional<T>) => field.unwrap().nullable();

/** PATCH bodies must change something; checked only when the fields themselves are valid. */
export const nonEmpty = { message: 'must change at least one field', when: (p: { issues: unknown[] }) => p.issues.length === 0 };
/** A field a client may read but never write: naming it in a body is a 400 naming the field. */
export const readOnly = () =>
  z
    .unknown()
    .refine(() => false, { message: 'is not editable' })
    .optional()
    .meta({ readOnly: true });
export const readOnlyShape = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, readOnly()])) as { [K in F]: ReturnType<typeof readOnly> };
export const optionalFields = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };
/** A nested object in a body: any of its fields (null clears one); the object itself `null` clears them all. */
export const nestedInput = <S extends Record<string, z.ZodType>, F extends string = never>(shape: S, readOnlyFields: readonly F[] = []) =>
  z
    .strictObject({ ...optionalFields(shape), ...readOnlyShape(readOnlyFields) })
    .nullable()
    .optional();

export const ecoFacilities = distinct(z.array(EcoFacility).max(EcoFacility.options.length));
