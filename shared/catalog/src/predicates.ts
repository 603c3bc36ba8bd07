import { GlazingType, InsulationLevel, VentilationType, type PropertyDescription } from '@renopath/contracts';
import type { Predicate } from './types.ts';

/** Ordered enums: "at least HR" means HR or TRIPLE_GLAZING. */
const ORDERS: readonly (readonly string[])[] = [InsulationLevel.options, GlazingType.options, VentilationType.options];

/** Position of a level in its ordered enum, or undefined when the value is not an ordered level. */
export function levelRank(value: unknown): { order: readonly string[]; rank: number } | undefined {
  if (typeof value !== 'string') return undefined;
  for (const order of ORDERS) {
    const rank = order.indexOf(value);
    if (rank >= 0) return { order, rank };
  }
  return undefined;
}

export function evaluate(predicate: Predicate, property: Partial<PropertyDescription>): boolean {
  if ('all' in predicate) return predicate.all.every((p) => evaluate(p, property));
  if ('any' in predicate) return predicate.any.some((p) => evaluate(p, property));
  if ('at_least' in predicate) return predicate.of.filter((p) => evaluate(p, property)).length >= predicate.at_least;
  const actual = property[predicate.field];
  if (actual === undefined || actual === null) return (predicate.unknown ?? 'pass') === 'pass';
  const { value } = predicate;
  switch (predicate.op) {
    case 'eq':
      return actual === value;
    case 'neq':
      return actual !== value;
    case 'gte':
      return typeof actual === 'number' && typeof value === 'number' && actual >= value;
    case 'lte':
      return typeof actual === 'number' && typeof value === 'number' && actual <= value;
    case 'in':
      return Array.isArray(value) && value.includes(actual);
    case 'not_in':
      return Array.isArray(value) && !value.includes(actual);
    case 'at_least_level':
    case 'below_level': {
      const a = levelRank(actual);
      const b = levelRank(value);
      if (!a || !b || a.order !== b.order) return false;
      return predicate.op === 'at_least_level' ? a.rank >= b.rank : a.rank < b.rank;
    }
  }
}
