import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { handleError, HttpError } from '../http/errors.ts';

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
