import type { RouteDef } from '../routes/route.ts';

/**
 * Every status a declared route can answer, from how the gateway handles it (routes/declared.ts and
 * the plugins) plus the statuses its service can refuse with (`route.errors`). The document declares
 * exactly these; `test/openapi-statuses.e2e.spec.ts` provokes them and checks.
 */
export function statusesOf(route: RouteDef, options: { rateLimited: boolean }): number[] {
  const kind = route.kind ?? 'json';
  const statuses = new Set<number>([route.status, ...route.errors]);
  // An unknown query parameter, a malformed body or Idempotency-Key, a body where none is taken.
  statuses.add(route.invalidBodyStatus === 406 ? 406 : 400);
  statuses.add(400);
  if (route.auth !== 'none') statuses.add(401);
  if (route.auth === 'bearer' && route.scope) statuses.add(403);
  if (route.ids?.length || kind === 'html') statuses.add(404);
  if (route.body || kind === 'upload') {
    statuses.add(413);
    statuses.add(415);
  }
  // A write that still meets a concurrent change of the same stream after its retries (409).
  if (route.method !== 'GET') statuses.add(409);
  // A keyed POST: the same key with another request (422), or while the first is still running (409).
  if (route.method === 'POST' && route.auth === 'bearer') {
    statuses.add(409);
    statuses.add(422);
  }
  if (options.rateLimited) statuses.add(429);
  // A backing service that does not answer; and the unexpected.
  statuses.add(503);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}
