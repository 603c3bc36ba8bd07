import { z } from 'zod';
import type { RouteDef } from './route.ts';

/**
 * An aggregate's history for auditors, `GET /v1/<aggregate>/history` with scope audit: its events,
 * oldest first. The estates and the renovations serve one each, alike but for the aggregate; the ids
 * to check are the path's parameters.
 */
export function historyRoute(of: string, subject: string, operationId: string, entry: z.ZodType, summary: string): RouteDef {
  return {
    prefix: 'v1',
    auth: 'bearer',
    scope: 'audit',
    tag: 'audit',
    method: 'GET',
    path: `${of}/history`,
    subject,
    operationId,
    ids: [...of.matchAll(/\{(\w+)\}/g)].map((param) => param[1]!),
    status: 200,
    reply: z.array(entry),
    summary,
    errors: [401, 403, 404],
  };
}
