import { z } from 'zod';
import { Messages, type MessageContract } from '@renopath/contracts';
import type { RouteDef } from './route.ts';

/** The message contract of a route's subject; a route without one is a mistake found at start-up. */
export function contractOf(route: RouteDef): MessageContract {
  const contract = Messages[route.subject];
  if (!contract) throw new Error(`${route.method} ${route.path}: no message contract for ${route.subject}`);
  const mismatches = contractMismatches(route, contract);
  if (mismatches.length > 0)
    throw new Error(`${route.method} ${route.path} disagrees with the contract of ${route.subject}: ${mismatches.join('; ')}`);
  return contract;
}

/**
 * Where a route and its subject's contract disagree: the route validates with the contract's very
 * schemas (so the OpenAPI document describes what the service parses), its UUID path parameters are
 * the contract's ids, its other path parameters the contract's params, and its invalid-body status the
 * contract's. A route that maps the request itself (`toMessage`) is checked when it sends; so is a
 * prepared one's message (`prepare`), whose query the gateway makes.
 */
export function contractMismatches(route: RouteDef, contract: MessageContract): string[] {
  const out: string[] = [];
  if (route.toMessage) return out;
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const ids = route.ids ?? [];
  for (const id of contract.ids) if (!ids.includes(id)) out.push(`the route does not check id ${id}`);
  for (const id of ids) if (!contract.ids.includes(id) && !contract.optionalIds.includes(id)) out.push(`the contract has no id ${id}`);
  const others = names.filter((n) => !ids.includes(n));
  if (!sameSet(others, contract.params))
    out.push(`path parameters ${others.join(', ') || '(none)'} vs contract params ${contract.params.join(', ') || '(none)'}`);
  // A stream's pages are asked with the page query (`batch`, `format`) the gateway makes itself.
  // A prepared message's query is the gateway's own (what another context answered), not the client's.
  if (route.query !== contract.query && route.kind !== 'stream' && !route.prepare) out.push("the query schema is not the contract's");
  if (route.kind === 'upload') {
    if (route.body !== undefined || !contract.body) out.push("an upload sends the contract's body (the stored file), not a request body");
  } else if (route.body !== contract.body) out.push("the body schema is not the contract's");
  if ((route.invalidBodyStatus ?? 400) !== contract.invalidBodyStatus) out.push("the invalid-body status is not the contract's");
  return out;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The JSON form of a schema, to compare what two documents say. */
export const jsonOf = (schema: z.ZodType | undefined) => (schema ? z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) : null);
