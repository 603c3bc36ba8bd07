import type { z } from 'zod';
import type { Scope } from '@renopath/contracts';

/**
 * One HTTP endpoint, declared once: the gateway registers it, validates with its zod schemas,
 * forwards it to its service's subject, and describes it in the OpenAPI document.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path without the `/v1` prefix, e.g. `/users/{user_id}`. */
  path: string;
  /** `both`: bare and `/v1` (API.md 1); `v1`: only under `/v1`; `bare`: only as written. */
  prefix: 'both' | 'v1' | 'bare';
  subject: string;
  auth: 'bearer' | 'admin' | 'none';
  /** Needed scope; none means any valid token. */
  scope?: Scope;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters that must be UUIDs (anything else is an unknown id: 404). */
  ids?: string[];
  status: number;
  reply?: z.ZodType;
  summary: string;
  tag: string;
  /** Documented error statuses besides the ones every route has. */
  errors: number[];
}
