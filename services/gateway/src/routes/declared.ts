import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler, preValidationHookHandler } from 'fastify';
import { checkMessage, IdentitySubjects, UUID_PATTERN, type ServiceRequest } from '@renopath/contracts';
import { DomainError, type BlobStore, type Bus } from '@renopath/platform';
import { contextsToSettle, settleAcrossContexts } from '@renopath/platform/service/settlement.ts';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import { HttpError } from '../http/errors.ts';
import { IdempotencyKeys } from '../http/idempotency.ts';
import { readStreamedUpload, readUpload, type StreamedUpload, type Upload } from '../http/uploads.ts';
import { requireScope } from '../plugins/auth.ts';
import { methodNotAllowed } from '../plugins/errors.ts';
import { validatorWithStatus } from '../plugins/validation.ts';
import { contractOf } from './messages.ts';
import type { MessageInput, RouteDef } from './route.ts';

export interface DeclaredRoutesOptions {
  routes: readonly RouteDef[];
  bus: Bus;
  blobs: BlobStore;
  contexts: string[];
  busTimeoutMs: number;
  settleTimeoutMs: number;
}

const HTML_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The routes of the contexts' route tables (`*.routes.ts`), each declared to Fastify with its zod
 * schemas (so `/openapi.json` describes it) and its hooks in the order the contract answers in:
 * who calls (401), their budget (429), their scope (403), ids (404), content type (415), then the zod
 * validation of query and body (400) with the schemas of the subject's message contract. The handler
 * turns the request into that message, with its idempotency key, and answers a write once its effects
 * are readable.
 */
export async function declaredRoutes(app: FastifyInstance, options: DeclaredRoutesOptions) {
  const { bus, blobs } = options;
  const requestOptions = { timeoutMs: options.busTimeoutMs };

  /** Read your writes across contexts; past the bound the write stands and the answer says so. */
  const settleEffects = async (request: FastifyRequest, reply: FastifyReply, route: RouteDef) => {
    // Only the contexts the write can reach: its own and those consuming its events (issue 9); of
    // those, only the ones the answer depends on when the route says so.
    const reached = contextsToSettle(route.subject, options.contexts);
    const contexts = route.settles ? reached.filter((context) => route.settles!.includes(context)) : reached;
    const settled = await settleAcrossContexts({ bus, contexts, correlationId: request.id, timeoutMs: options.settleTimeoutMs }).catch(
      (err: unknown) => (request.log.warn({ err }, 'a context did not settle in time'), false),
    );
    if (settled) return;
    request.log.warn({ correlation_id: request.id }, 'write answered before every effect was readable');
    reply.header('x-renopath-settled', 'false');
  };

  for (const route of options.routes) {
    if (route.auth === 'admin' && !app.auth.adminEnabled) continue; // the admin API exists only when configured
    const contract = contractOf(route);
    // A message the gateway makes itself (an upload's stored file, a mapped request) is checked before it leaves;
    // the others were validated by the contract's own schemas on the way in.
    const checkBeforeSending = route.kind === 'upload' || route.toMessage !== undefined;
    const paths = route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
    const kind = route.kind ?? 'json';
    const limit = app.limit ? [app.limit as unknown as preValidationAsyncHookHandler] : [];
    const preValidation: Array<preValidationHookHandler | preValidationAsyncHookHandler> =
      route.auth === 'bearer'
        ? [app.auth.bearer, ...limit, ...(route.scope ? [requireScope(route.scope)] : [])]
        : // Like the token endpoint: guesses at the admin token are limited per address, before they are checked.
          route.auth === 'admin'
          ? [...limit, app.auth.admin]
          : limit;
    preValidation.push(requestChecks(route, (path) => app.methodsOf(path)));

    for (const path of paths) {
      app.route({
        method: route.method,
        url: path.replace(/\{(\w+)\}/g, ':$1'),
        schema: routeSchema(route),
        // Ids that must be UUIDs: a path whose segment is not one is not this route's (its 405 and Allow, plugins/errors.ts).
        config: { uuidParams: route.ids ?? [] },
        // The route's schema object is documentation-shaped; the compiler reads its zod parts like the app-wide one.
        ...(route.invalidBodyStatus && route.invalidBodyStatus !== 400
          ? { validatorCompiler: validatorWithStatus(route.invalidBodyStatus) as never }
          : {}),
        preValidation,
        handler: async (request, reply) => {
          const params = request.params as Record<string, string>;
          if (kind === 'stream') return streamPages(request, reply, route, params, bus, options.busTimeoutMs);
          const idempotencyKey =
            route.method === 'POST' && request.actor ? IdempotencyKeys.keyOf(request.headers['idempotency-key']) : null;
          let body: unknown = route.body ? request.body : undefined;
          let upload: Upload | null = null;
          let streamed: StreamedUpload | null = null;
          if (kind === 'upload' && route.upload?.stream) {
            // A large file goes to the blob store as it arrives, under a key of its own (the idempotency
            // fingerprint needs its hash, known only once it is stored); a replay or a refusal removes it.
            const key = `uploads/${randomUUID()}`;
            streamed = await readStreamedUpload(
              request,
              route.accept ?? [],
              route.upload,
              key,
              (bytes, mimetype) => blobs.putStream(key, bytes, mimetype),
              () => blobs.delete(key),
            );
          } else if (kind === 'upload') upload = await readUpload(request, route.accept ?? [], route.upload);
          const dropStreamed = async () => {
            if (streamed) await blobs.delete(streamed.key).catch((err: unknown) => request.log.warn({ err }, 'could not remove an upload'));
          };
          let claimed: string | null = null;
          let serviceKey: string | null = null;
          if (idempotencyKey && request.actor) {
            // `/x` and `/v1/x` are one resource (docs/http-contract.md "General rules"): the route and its ids name the target.
            const target = `${route.method} ${route.path} ${JSON.stringify(params)}`;
            const fingerprint = IdempotencyKeys.fingerprint(
              upload
                ? [target, upload.name, upload.bytes]
                : streamed
                  ? [target, streamed.name, { sha256: streamed.sha256 }]
                  : [target, JSON.stringify(body ?? null)],
            );
            const claim = await app.idempotency.claim(request.actor.client_id, idempotencyKey, fingerprint).catch(async (err: unknown) => {
              await dropStreamed();
              throw err;
            });
            if (claim.kind === 'replay') {
              await dropStreamed();
              return send(reply, { ...route, status: claim.status }, route.signLinks ? app.signer.signReply(claim.reply) : claim.reply);
            }
            claimed = claim.id;
            serviceKey = IdempotencyKeys.serviceKey(request.actor.client_id, idempotencyKey, fingerprint);
          }
          let uploaded: string | null = streamed?.key ?? null;
          let result: unknown;
          try {
            if (streamed) {
              body = {
                blob_key: streamed.key,
                name: streamed.name,
                mimetype: streamed.mimetype,
                size: streamed.size,
                ...streamed.fields,
              };
            } else if (upload) {
              // A keyed retry writes the same bytes under the same key, which the first attempt's file may already name.
              uploaded = `uploads/${serviceKey ? newId({ idempotency_key: serviceKey }, 'upload') : randomUUID()}`;
              await blobs.put(uploaded, upload.bytes, upload.mimetype);
              body = { blob_key: uploaded, name: upload.name, mimetype: upload.mimetype, size: upload.bytes.length, ...upload.fields };
            }
            let input: MessageInput = { params, query: (route.query ? request.query : {}) as Record<string, unknown>, body };
            if (route.toMessage) input = route.toMessage(input);
            if (checkBeforeSending) {
              const checked = checkMessage(contract, { ...input, actor: request.actor, correlation_id: request.id });
              if (!checked.ok) throw new HttpError(checked.status, checked.message);
            }
            // One literal, not spreads of the input: this runs on every request (issue 9).
            const message: ServiceRequest = {
              params: input.params,
              query: input.query,
              body: input.body,
              actor: request.actor,
              correlation_id: request.id,
            };
            if (serviceKey) message.idempotency_key = serviceKey;
            result = await bus.request(route.subject, message, requestOptions);
          } catch (error) {
            // The service or the message check refused the file (unknown estate, validation): its bytes must not linger. After a
            // timeout or a late read model (503) the file may be stored, and the bytes stay.
            if (uploaded && ((error instanceof DomainError && error.status < 500) || error instanceof HttpError)) {
              await blobs.delete(uploaded).catch((err: unknown) => request.log.warn({ err }, 'could not remove a refused upload'));
            }
            if (claimed) await app.idempotency.release(claimed);
            // A page's visitor gets a page: an `html` route renders its own not-found page.
            if (kind === 'html' && route.renderNotFound && error instanceof DomainError && error.status === 404) {
              return reply
                .code(404)
                .headers(HTML_HEADERS)
                .type('text/html; charset=utf-8')
                .send(route.renderNotFound((request.query ?? {}) as Record<string, unknown>));
            }
            throw error;
          }
          if (route.method !== 'GET') await settleEffects(request, reply, route);
          if (claimed) await app.idempotency.complete(claimed, route.status, result);
          if (route.subject === IdentitySubjects.adminRevokeApiClient) app.auth.verifier.markRevoked(params['client_id']!.toLowerCase());
          if (route.signLinks) result = app.signer.signReply(result);
          if (kind === 'file') return sendFile(reply, blobs, result);
          return send(reply, route, result, (request.query ?? {}) as Record<string, unknown>);
        },
      });
    }
  }
}

/**
 * A `stream` route's reply: its pages asked one after the other and written as they come, so neither
 * the gateway nor the service holds more than a page. The first page is asked before anything is
 * written: an unknown id or a refusal is still answered with its status and error body.
 */
async function streamPages(
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteDef,
  params: Record<string, string>,
  bus: Bus,
  timeoutMs: number,
) {
  const chosen = negotiate(request.headers.accept, route.stream ?? []);
  if (!chosen) {
    throw new HttpError(406, [`this endpoint answers ${(route.stream ?? []).map((f) => f.media).join(' or ')}`]);
  }
  type Page = { batch: number; batches: number; text?: string };
  const ask = (batch: number) =>
    bus.request<Page>(
      route.subject,
      { params, query: { batch, format: chosen.format }, body: undefined, actor: request.actor, correlation_id: request.id },
      { timeoutMs },
    );
  const first = await ask(0);
  async function* pages() {
    yield first.text ?? '';
    for (let batch = 1; batch < first.batches; batch++) yield (await ask(batch)).text ?? '';
  }
  return reply.code(route.status).type(`${chosen.media}; charset=utf-8`).send(Readable.from(pages()));
}

/** The first of `formats` the Accept header takes, in the header's order; the first format when it takes anything. */
function negotiate(accept: string | undefined, formats: ReadonlyArray<{ media: string; format: string }>) {
  if (!accept || accept.trim() === '') return formats[0] ?? null;
  for (const entry of accept.split(',')) {
    const media = entry.split(';')[0]!.trim().toLowerCase();
    if (media === '*/*') return formats[0] ?? null;
    const found = formats.find((f) => f.media === media || (media.endsWith('/*') && f.media.startsWith(media.slice(0, -1))));
    if (found) return found;
  }
  return null;
}

/**
 * What the contract answers before the body is validated: unknown ids, unknown query parameters, wrong
 * content types. A callback hook (it never waits), so it costs no promise; what it throws is answered
 * like an async hook's rejection.
 */
function requestChecks(route: RouteDef, methodsOf: (path: string) => string[]): preValidationHookHandler {
  const kind = route.kind ?? 'json';
  return function checks(request, _reply, done) {
    const params = request.params as Record<string, string>;
    for (const id of route.ids ?? []) {
      if (!UUID_PATTERN.test(params[id] ?? '')) {
        // Not an id: the path may be another route's (`/calculation-jobs/suggested-...`, `/users/me`), whose methods these are not.
        const path = request.url.split('?')[0]!;
        throw (
          methodNotAllowed(request.method, path, methodsOf(path)) ??
          new HttpError(404, [`${id.replace(/_id$/, '').replace(/_/g, ' ')} not found`])
        );
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

/**
 * The route's zod schemas, as the zod type provider reads them: query and body are validated, the
 * reply is written from its schema. The OpenAPI document is made from the route table itself
 * (openapi/document.ts), not from these.
 */
function routeSchema(route: RouteDef) {
  return {
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body && route.kind !== 'upload' ? { body: route.body } : {}),
    ...(route.reply && route.kind !== 'html' && route.kind !== 'file' && route.kind !== 'stream'
      ? { response: { [route.status]: route.reply } }
      : {}),
  };
}

function send(reply: FastifyReply, route: RouteDef, result: unknown, query: Record<string, unknown> = {}) {
  if (route.kind === 'html' && route.render) {
    // The language the page is in, which a `?lang=` the page does not have falls back from (RFC 9110 8.5).
    const language = (result as { language?: unknown } | null)?.language;
    if (typeof language === 'string') reply.header('content-language', language);
    return reply.code(route.status).headers(HTML_HEADERS).type('text/html; charset=utf-8').send(route.render(result, query));
  }
  return reply.code(route.status).send(result);
}

/** A `file` route's answer: the stored blob the service named, inline, never cached by a shared cache. */
async function sendFile(reply: FastifyReply, blobs: BlobStore, result: unknown) {
  const { blob_key, name } = result as { blob_key: string; name: string };
  const found = await blobs.get(blob_key);
  if (!found) throw new HttpError(404, ['file not found']);
  return reply
    .code(200)
    .type(found.content_type)
    .headers({
      'content-disposition': contentDisposition(name, { type: 'inline', fallback: name.replace(/[^\x20-\x7e]|["\\]/g, '_') }),
      'content-length': String(found.size),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    })
    .send(found.body);
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}
