import type { FastifyInstance } from 'fastify';
import { formatIssues, IdentitySubjects, TokenRequestBody, type ServiceRequest } from '@renopath/contracts';
import { DomainError, type Bus } from '@renopath/platform';
import { HttpError } from '../../../plugins/errors.ts';
import { FailureLimiter } from '../../../plugins/rate-limit.ts';

export interface TokenRouteOptions {
  bus: Bus;
  busTimeoutMs: number;
  /** Whether the request rate limit is on (then guesses per address are limited too). */
  limited: boolean;
  now?: () => number;
}

/** The token endpoint: three credential forms (docs/http-contract.md "Authentication, roles and rate limits"), failed guesses limited per client id and per address. */
export async function tokenRoute(app: FastifyInstance, options: TokenRouteOptions) {
  // Wrong client secrets per client id, whatever address they come from (docs/http-contract.md "Authentication, roles and rate limits"): 10, then one a minute;
  // and per address, whatever client ids it tries: 20, then one every 30 s (off with the rate limit).
  const secretFailures = new FailureLimiter(10, 60, options.now);
  const addressFailures = options.limited ? new FailureLimiter(20, 30, options.now) : null;

  app.post(
    '/v1/oauth/token',
    // The credentials may come from headers, so the handler validates what it gathers (no body schema);
    // the OpenAPI document describes the three forms (openapi/document.ts, tokenOperation).
    app.limit ? { onRequest: [app.limit] } : {},
    async (request) => {
      const h = request.headers;
      let credentials: unknown;
      if (typeof h['x-service-client-id'] === 'string' || typeof h['x-service-client-secret'] === 'string') {
        credentials = { client_id: h['x-service-client-id'] ?? '', client_secret: h['x-service-client-secret'] ?? '' };
      } else if (typeof h.authorization === 'string' && /^Basic /i.test(h.authorization)) {
        const decoded = Buffer.from(h.authorization.slice(6), 'base64').toString('utf8');
        const at = decoded.indexOf(':');
        const { grant_type } = (request.body ?? {}) as Record<string, unknown>;
        credentials = {
          client_id: decodeBasicPart(decoded.slice(0, at)),
          client_secret: decodeBasicPart(decoded.slice(at + 1)),
          ...(grant_type !== undefined ? { grant_type } : {}),
        };
      } else {
        credentials = request.body ?? {};
      }
      const parsed = TokenRequestBody.safeParse(credentials, { reportInput: true });
      if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error.issues));
      // Guesses at one client's secret are limited whatever addresses they come from, and one address's whatever ids it tries.
      const clientKey = `secret:${parsed.data.client_id.toLowerCase()}`;
      const addressKey = `secret-ip:${request.ip}`;
      const wait = Math.max(secretFailures.blockedFor(clientKey), addressFailures?.blockedFor(addressKey) ?? 0);
      if (wait > 0) throw new HttpError(429, ['too many failed attempts; try again later'], { 'retry-after': String(wait) });
      try {
        return await options.bus.request(
          IdentitySubjects.issueToken,
          { params: {}, query: {}, body: parsed.data, actor: null, correlation_id: request.id } satisfies ServiceRequest,
          { timeoutMs: options.busTimeoutMs },
        );
      } catch (err) {
        if (err instanceof DomainError && err.status === 400) {
          secretFailures.fail(clientKey);
          addressFailures?.fail(addressKey);
        }
        throw err;
      }
    },
  );
}

/** RFC 6749 2.3.1 form-encodes Basic credentials; a broken escape is a bad credential (400), not a crash. */
function decodeBasicPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}
