import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '@renopath/contracts';
import { BusUnavailableError, DomainError, ENGINE_UNAVAILABLE_MESSAGE, isEngineUnavailable } from '@renopath/platform';

/** A missing, malformed, expired or revoked token: answered 401 without a message. */
export class Unauthorized extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Unauthorized';
  }
}

/** Thrown by the gateway itself for validation and routing failures. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join('; ') || String(statusCode));
    this.name = 'HttpError';
  }
}

const RETRY_AFTER_S = '5';
/** A body with thousands of problems (40,000 unknown keys) gets a short answer: the first ones and a count. */
const MAX_MESSAGES = 20;
const MAX_MESSAGE_LENGTH = 300;

export function capMessages(messages: string[]): string[] {
  const shown = messages
    .slice(0, MAX_MESSAGES)
    .map((m) => (m.length > MAX_MESSAGE_LENGTH ? `${m.slice(0, MAX_MESSAGE_LENGTH - 3)}...` : m));
  const more = messages.length - shown.length;
  return more > 0 ? [...shown, `... and ${more} more problem${more === 1 ? '' : 's'}`] : shown;
}

/** The one error handler: every failure leaves in the error shape of docs/http-contract.md "Errors". */
export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const send = (status: number, messages: string[] = [], headers: Record<string, string> = {}) =>
    reply
      .code(status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(errorBody(status, capMessages(messages)));

  if (err instanceof HttpError) return send(err.statusCode, err.messages, err.headers);
  if (err instanceof DomainError) return send(err.status, err.messages, err.status === 503 ? { 'retry-after': RETRY_AFTER_S } : {});
  if (err instanceof Unauthorized) {
    request.log.info({ reason: err.message }, 'unauthorized');
    return send(401);
  }
  // A context behind the bus, or a store of the gateway's own (the shared Idempotency-Key records), is out.
  if (err instanceof BusUnavailableError || isEngineUnavailable(err)) {
    request.log.warn({ err }, 'backing service unavailable');
    return send(503, [ENGINE_UNAVAILABLE_MESSAGE], { 'retry-after': RETRY_AFTER_S });
  }
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return send(400, ['body is not valid JSON']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(400, ['body must not be empty when content-type is application/json']);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return send(413, ['body is larger than the 1 MiB limit']);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(415, [`content-type ${String(request.headers['content-type'] ?? '')} is not supported here`]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return send(400, ['content-length does not match the body']);
  }
  if (err instanceof SyntaxError) return send(400, ['body is not valid JSON']);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return send(fe.statusCode, [fe.message]);
  }
  request.log.error({ err }, 'unhandled error');
  return send(500);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods the routes of `path` take (none: no route has it). */
    methodsOf(path: string): string[];
  }
  interface FastifyContextConfig {
    /** Path parameters the route takes only as UUIDs: another value is not this route's path (405 and Allow). */
    uuidParams?: readonly string[];
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Errors and request naming: every failure leaves in the `{ statusCode, error, message[] }` shape of
 * docs/http-contract.md "Errors" (the one error handler, unknown routes) and every reply names its request. Registered
 * first, so the hooks of the plugins after it and the routes see a tagged reply.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    const methods = new MethodsByPath();
    app.addHook('onRoute', (route) => methods.add(route.method, route.url, uuidParamsOf(route.config)));
    app.setErrorHandler(handleError);
    app.decorate('methodsOf', (path: string) => methods.of(path));
    const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0]!;
      return handleError(
        methodNotAllowed(request.method, path, methods.of(path)) ??
          new HttpError(404, [`${request.method} ${path} is not a route of this API`]),
        request,
        reply,
      );
    };
    app.setNotFoundHandler(unrouted);
    // Set when the request arrives, so every reply (errors included) carries it; a sync hook costs no promise.
    app.addHook('onRequest', (request, reply, done) => {
      tagReply(request, reply);
      // A request no route takes is answered here, before its body is read: a QUERY or an OPTIONS without a
      // body or content type is a wrong method (405), not a body the server cannot parse (400).
      if (request.is404) return void unrouted(request, reply);
      done();
    });
  },
  { name: 'renopath-errors' },
);

/** A path that exists with other methods: 405 with the methods it has in Allow (RFC 9110 15.5.6), not an unknown route. */
export function methodNotAllowed(method: string, path: string, allowed: string[]): HttpError | null {
  if (allowed.length === 0) return null;
  return new HttpError(405, [`${method} is not allowed on ${path}; it takes ${allowed.join(', ')}`], { allow: allowed.join(', ') });
}

/** A malformed or over-long path never reaches the router's hooks: answer it in the contract's shape too. */
export function frameworkErrors(error: { code?: string }, request: FastifyRequest, reply: FastifyReply) {
  tagReply(request, reply);
  const unknown = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return handleError(new HttpError(unknown ? 404 : 400, [unknown ? 'not found' : 'path is not a valid URL']), request, reply);
}

/** Requests Node's HTTP parser refuses (oversized headers, broken framing) still get the error shape of docs/http-contract.md "Errors". */
export function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request headers are larger than the server accepts']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'the request was not received in time']
        : [400, 'Bad Request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ statusCode: status, error: text, message: [message] });
  this.log.debug({ err }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** A client's own request id, when it is one we may echo and log. */
export function clientRequestId(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : null;
}

/** Every reply names the request: the client's x-request-id echoed (ours otherwise), and our correlation id. */
function tagReply(request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', clientRequestId(request.headers['x-request-id']) ?? request.id);
  reply.header('x-correlation-id', request.id);
}

/** The path parameters a route takes only as UUIDs (`config.uuidParams`, set by the declared routes). */
function uuidParamsOf(config: unknown): readonly string[] {
  const ids = (config as { uuidParams?: unknown } | undefined)?.uuidParams;
  return Array.isArray(ids) ? (ids as string[]) : [];
}

const UUID_SEGMENT = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';

/**
 * The methods each registered path answers, to tell a wrong method (405) from an unknown path (404).
 * A parameter that must be a UUID matches only a UUID: `/calculation-jobs/suggested-...` is not a job,
 * so the `GET` of `/calculation-jobs/{id}` is not one of its methods. Consulted only for requests no
 * route matched, so a linear scan of the patterns costs nothing on the requests that are served.
 */
class MethodsByPath {
  private readonly patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(method: string | string[], url: string, uuidParams: readonly string[] = []) {
    const source = url
      .split('/')
      .map((segment) =>
        segment.startsWith(':')
          ? uuidParams.includes(segment.slice(1))
            ? UUID_SEGMENT
            : '[^/]+'
          : segment === '*'
            ? '.*'
            : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    // `:name` matches one segment, `*` the rest; the router ignores a trailing slash.
    let entry = this.patterns.get(source);
    if (!entry) {
      entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() };
      this.patterns.set(source, entry);
    }
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m);
  }

  of(path: string): string[] {
    const allowed = new Set<string>();
    for (const { pattern, methods } of this.patterns.values()) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    return [...allowed].sort();
  }
}
