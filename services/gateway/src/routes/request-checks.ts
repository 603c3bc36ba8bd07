import type { preValidationHookHandler } from 'fastify';
import { UUID_PATTERN } from '@renopath/contracts';
import { notFound } from '@renopath/platform';
import { HttpError, methodNotAllowed } from '../plugins/errors.ts';
import { IdempotencyKeys } from '../plugins/idempotency.ts';
import type { RouteDef } from './route.ts';

/**
 * What the contract answers before the body is validated: unknown ids, unknown query parameters, wrong
 * content types. A callback hook (it never waits), so it costs no promise; what it throws is answered
 * like an async hook's rejection.
 */
export function requestChecks(route: RouteDef, methodsOf: (path: string) => string[]): preValidationHookHandler {
  const kind = route.kind ?? 'json';
  return function checks(request, _reply, done) {
    const params = request.params as Record<string, string>;
    for (const id of route.ids ?? []) {
      if (!UUID_PATTERN.test(params[id] ?? '')) {
        // Not an id: the path may be another route's (`/calculation-jobs/suggested-...`, `/users/me`), whose methods these are not.
        const path = request.url.split('?')[0]!;
        throw methodNotAllowed(request.method, path, methodsOf(path)) ?? notFound(id.replace(/_id$/, '').replace(/_/g, ' '));
      }
    }
    if (!route.query) {
      // Like unknown body fields, a parameter the route does not take is refused rather than ignored.
      const unknown = Object.keys((request.query ?? {}) as object);
      if (unknown.length > 0)
        throw new HttpError(
          400,
          unknown.map((key) => `${key} is not an allowed query parameter`),
        );
    }
    if (kind !== 'upload' && request.isMultipart()) throw new HttpError(415, ['multipart/form-data is only accepted by upload endpoints']);
    if (route.method === 'POST' && request.actor) IdempotencyKeys.keyOf(request.headers['idempotency-key']);
    if (kind === 'upload') return done();
    // Only the token endpoint takes forms; text/plain and forms elsewhere are a wrong content type (docs/http-contract.md "Errors").
    if (route.body && request.body !== undefined && !isJson(request.headers['content-type'])) {
      throw new HttpError(415, [
        `content-type ${String(request.headers['content-type'] ?? '')} is not supported here; send application/json`,
      ]);
    }
    if (!route.body && route.method !== 'GET' && route.method !== 'DELETE' && request.body !== undefined) {
      throw new HttpError(400, ['this endpoint takes no body']);
    }
    // An absent body is an empty one; a JSON `null` is a value of the wrong type.
    if (route.body && request.body === undefined) request.body = {};
    done();
  };
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}
