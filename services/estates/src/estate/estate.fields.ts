import { z } from 'zod';

/**
 * Field values with nested objects (an estate's `address`, `energy_context`, ...; a part's
 * `dimensions`), shared by the decider and the read model so both merge a change the same way:
 * a nested object merges field by field, `null` for it clears every field in it, and `null` for a
 * list empties it.
 */
type Fields = Record<string, unknown>;

const isNested = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every field of a value shape unknown: null, lists empty, nested objects likewise. */
export function emptyOf(shape: Record<string, z.ZodType>): Fields {
  const out: Fields = {};
  for (const [key, schema] of Object.entries(shape)) {
    const inner = schema instanceof z.ZodNullable ? (schema.unwrap() as z.ZodType) : schema;
    out[key] = inner instanceof z.ZodObject ? emptyOf(inner.shape) : inner instanceof z.ZodArray ? [] : null;
  }
  return out;
}

/** A given value as stored: `null` clears a nested object to its empty form and a list to []. */
function resolved(empty: unknown, given: unknown): unknown {
  if (given !== null) return given;
  return isNested(empty) || Array.isArray(empty) ? empty : null;
}

/** The template filled with the given fields (unknown ones ignored: the body schema already refused them). */
export function filledFrom<F extends object>(template: F, given: object): F {
  const out: Fields = { ...(template as Fields) };
  const body = given as Fields;
  for (const [key, empty] of Object.entries(template)) {
    const value = body[key];
    if (value === undefined) continue;
    out[key] = isNested(empty) && isNested(value) ? filledFrom(empty, value) : resolved(empty, value);
  }
  return out as F;
}

/** Only what differs from the current values; of a nested object, only its differing fields. */
export function changesOf<F extends object>(current: F, given: object, template: F): Fields {
  const changes: Fields = {};
  const now = current as Fields;
  const body = given as Fields;
  for (const [key, empty] of Object.entries(template)) {
    const value = body[key];
    if (value === undefined) continue;
    if (isNested(empty)) {
      const target = value === null ? empty : value;
      const nested = changesOf(now[key] as Fields, target as Fields, empty);
      if (Object.keys(nested).length) changes[key] = nested;
      continue;
    }
    const next = resolved(empty, value);
    if (!same(now[key], next)) changes[key] = next;
  }
  return changes;
}

/** Applies recorded changes: nested objects merge. */
export function applyChanges<F extends object>(current: F, changes: object): F {
  const out: Fields = { ...(current as Fields) };
  for (const [key, value] of Object.entries(changes)) {
    const before = out[key];
    out[key] = isNested(before) && isNested(value) ? { ...before, ...value } : value;
  }
  return out as F;
}
