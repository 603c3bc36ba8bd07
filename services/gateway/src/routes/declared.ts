import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preValidationAsyncHookHandler,
  preValidationHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import { checkMessage, Messages, type ServiceRequest } from '@renopath/contracts';
import { DomainError, type BlobStore, type Bus } from '@renopath/platform';
import { contextsToSettle, settleAcrossContexts } from '@renopath/platform/service/settlement.ts';
import { tracedRequestOptions } from '@renopath/platform/observability/tracing.ts';
import { requireScope, revokeClientHook } from '../plugins/auth.ts';
import { replyWithBlob, signLinksHook } from '../plugins/downloads.ts';
import { HttpError } from '../plugins/errors.ts';
import { idempotencyHooks } from '../plugins/idempotency.ts';
import { uploadHooks } from '../plugins/uploads.ts';
import { validatorWithStatus } from '../plugins/validation.ts';
import { contractOf } from './messages.ts';
import { requestChecks } from './request-checks.ts';
import type { MessageInput, RouteDef } from './route.ts';
import { streamPages } from './stream.ts';

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
 * The routes of the route table (routes/index.ts), each declared to Fastify with its zod schemas (so
 * `/openapi.json` describes it) and its hooks in the order the contract answers in: who calls (401),
 * their budget (429), their scope (403), ids (404), content type (415), then the zod validation of
 * query and body (400) with the schemas of the subject's message contract. Before the handler, an
 * upload is read and stored and an Idempotency-Key claimed (plugins/uploads.ts, idempotency.ts);
 * the handler turns the request into that message and answers once its effects are readable; the
 * answer is recorded for the key, its download links signed and a revoked client refused on its way
 * out (plugins/idempotency.ts, downloads.ts, auth.ts).
 */
export async function declaredRoutes(app: FastifyInstance, options: DeclaredRoutesOptions) {
  for (const route of options.routes) {
    if (route.auth === 'admin' && !app.auth.adminEnabled) continue; // the admin API exists only when configured
    const paths = route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
    const hooks = { preValidation: preValidationOf(app, route), ...routeHooks(app, route, options.blobs) };
    const handler = handlerOf(route, options);
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
        ...hooks,
        handler,
      });
    }
  }
}

/** Who calls, their budget and their scope, then the checks before validation. */
function preValidationOf(app: FastifyInstance, route: RouteDef) {
  const limit = app.limit ? [app.limit as unknown as preValidationAsyncHookHandler] : [];
  const preValidation: Array<preValidationHookHandler | preValidationAsyncHookHandler> =
    route.auth === 'bearer'
      ? [app.auth.bearer, ...limit, ...(route.scope ? [requireScope(route.scope)] : [])]
      : // Like the token endpoint: guesses at the admin token are limited per address, before they are checked.
        route.auth === 'admin'
        ? [...limit, app.auth.admin]
        : limit;
  preValidation.push(requestChecks(route, (path) => app.methodsOf(path)));
  return preValidation;
}

/** The hooks the route's kind and flags ask for, in the order they run. */
function routeHooks(app: FastifyInstance, route: RouteDef, blobs: BlobStore) {
  // A replayed answer is the recorded object: only a JSON answer can be recorded before it is written.
  if (route.method === 'POST' && (route.kind === 'html' || route.kind === 'file' || route.kind === 'stream')) {
    throw new Error(`${route.method} ${route.path}: a POST answers JSON (its Idempotency-Key records the answer)`);
  }
  const upload = route.kind === 'upload' ? uploadHooks(route, blobs) : null;
  const idempotency = route.method === 'POST' ? idempotencyHooks(route, app.idempotency) : null;
  // An upload's bytes are part of the key's fingerprint, and the key names the stored file.
  const preHandler = present([upload?.read, idempotency?.claim, upload?.store]);
  const preSerialization = present([
    idempotency?.complete,
    route.revokesClient ? revokeClientHook(app.auth.verifier) : null,
    route.signLinks ? signLinksHook(app.signer) : null,
  ]);
  const onError = present([upload?.discard, idempotency?.release]);
  const onResponse = present([upload?.leftover]);
  return {
    ...(preHandler.length > 0 ? { preHandler } : {}),
    ...(onResponse.length > 0 ? { onResponse } : {}),
    ...(preSerialization.length > 0 ? { preSerialization } : {}),
    ...(onError.length > 0 ? { onError } : {}),
  };
}

const present = <T>(hooks: ReadonlyArray<T | null | undefined>): T[] => hooks.filter((hook): hook is T => hook != null);

/** The handler of the route's kind: each turns the request into its message, then answers in its own media type. */
function handlerOf(route: RouteDef, options: DeclaredRoutesOptions): RouteHandlerMethod {
  const { bus, blobs } = options;
  const ask = askService(route, options);
  switch (route.kind ?? 'json') {
    case 'stream':
      return (request, reply) => streamPages(request, reply, route, bus, options.busTimeoutMs);
    case 'file':
      return async (request, reply) => {
        const { blob_key, name } = (await ask(request, reply)) as { blob_key: string; name: string };
        return replyWithBlob(reply, blobs, blob_key, name);
      };
    case 'html': {
      const render = route.render;
      if (!render) break;
      return async (request, reply) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        let result: unknown;
        try {
          result = await ask(request, reply);
        } catch (error) {
          // A page's visitor gets a page: an `html` route renders its own not-found page.
          if (route.renderNotFound && error instanceof DomainError && error.status === 404) {
            return reply.code(404).headers(HTML_HEADERS).type('text/html; charset=utf-8').send(route.renderNotFound(query));
          }
          throw error;
        }
        // The language the page is in, which a `?lang=` the page does not have falls back from (RFC 9110 8.5).
        const language = (result as { language?: unknown } | null)?.language;
        if (typeof language === 'string') reply.header('content-language', language);
        return reply.code(route.status).headers(HTML_HEADERS).type('text/html; charset=utf-8').send(render(result, query));
      };
    }
  }
  return async (request, reply) => reply.code(route.status).send(await ask(request, reply));
}

/**
 * The request as its subject's message, sent over the bus; a write is answered once its effects are
 * readable across contexts (read your writes), and past the bound the write stands and the answer says so.
 */
function askService(route: RouteDef, options: DeclaredRoutesOptions) {
  const { bus } = options;
  const contract = contractOf(route);
  // A message the gateway makes itself (an upload's stored file, a mapped request) is checked before it leaves;
  // the others were validated by the contract's own schemas on the way in.
  const checkBeforeSending = route.kind === 'upload' || route.toMessage !== undefined || route.prepare !== undefined;
  // Only the contexts the write can reach: its own and those consuming its events (issue 9); of
  // those, only the ones the answer depends on when the route says so.
  const reached = route.method === 'GET' ? [] : contextsToSettle(route.subject, options.contexts);
  const settles = route.settles ? reached.filter((context) => route.settles!.includes(context)) : reached;

  const settle = async (request: FastifyRequest, reply: FastifyReply) => {
    const settled = await settleAcrossContexts({
      bus,
      contexts: settles,
      correlationId: request.id,
      timeoutMs: options.settleTimeoutMs,
    }).catch((err: unknown) => (request.log.warn({ err }, 'a context did not settle in time'), false));
    if (settled) return;
    request.log.warn({ correlation_id: request.id }, 'write answered before every effect was readable');
    reply.header('x-renopath-settled', 'false');
  };

  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const body = request.uploaded ?? (route.body ? request.body : undefined);
    let input: MessageInput = {
      params: request.params as Record<string, string>,
      query: (route.query ? request.query : {}) as Record<string, unknown>,
      body,
    };
    if (route.toMessage) input = route.toMessage(input);
    if (route.prepare) input = await route.prepare(input, askFor(request, options));
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
    const serviceKey = request.idempotency?.serviceKey;
    if (serviceKey) message.idempotency_key = serviceKey;
    const result = await bus.request(route.subject, message, tracedRequestOptions(request.traceparent, options.busTimeoutMs));
    if (route.method !== 'GET') await settle(request, reply);
    return result;
  };
}

/** How a route's `prepare` asks another subject: as the request (actor, correlation id, Idempotency-Key), checked against that subject's contract. */
function askFor(request: FastifyRequest, options: DeclaredRoutesOptions) {
  return async (subject: string, input: MessageInput): Promise<unknown> => {
    const contract = Messages[subject];
    if (!contract) throw new Error(`no message contract for ${subject}`);
    const checked = checkMessage(contract, { ...input, actor: request.actor, correlation_id: request.id });
    if (!checked.ok) throw new HttpError(checked.status, checked.message);
    const message: ServiceRequest = { ...checked.value, actor: request.actor, correlation_id: request.id };
    const serviceKey = request.idempotency?.serviceKey;
    if (serviceKey) message.idempotency_key = serviceKey;
    return options.bus.request(subject, message, tracedRequestOptions(request.traceparent, options.busTimeoutMs));
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
