import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { handleError, HttpError } from '../http/errors.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Errors and request naming: every failure leaves in the `{ statusCode, error, message[] }` shape of
 * docs/http-contract.md "Errors" (the one error handler, unknown routes) and every reply names its request. Registered
 * first, so the hooks of the plugins after it and the routes see a tagged reply.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    const methods = new MethodsByPath();
    app.addHook('onRoute', (route) => methods.add(route.method, route.url));
    app.setErrorHandler(handleError);
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      // A path that exists with other methods: 405 with the methods it has (RFC 9110 15.5.6), not an unknown route.
      const allowed = methods.of(path);
      if (allowed.length > 0) {
        return handleError(
          new HttpError(405, [`${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}`], {
            allow: allowed.join(', '),
          }),
          request,
          reply,
        );
      }
      return handleError(new HttpError(404, [`${request.method} ${path} is not a route of this API`]), request, reply);
    });
    // Set when the request arrives, so every reply (errors included) carries it; a sync hook costs no promise.
    app.addHook('onRequest', (request, reply, done) => {
      tagReply(request, reply);
      done();
    });
  },
  { name: 'renopath-errors' },
);

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

/**
 * The methods each registered path answers, to tell a wrong method (405) from an unknown path (404).
 * Consulted only for requests no route matched, so a linear scan of the patterns costs nothing on
 * the requests that are served.
 */
class MethodsByPath {
  private readonly patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(method: string | string[], url: string) {
    let entry = this.patterns.get(url);
    if (!entry) {
      // `:name` matches one segment, `*` the rest; the router ignores a trailing slash.
      const source = url
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() };
      this.patterns.set(url, entry);
    }
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m);
  }

  of(path: string): string[] {
    const allowed = new Set<string>();
    for (const { pattern, methods } of this.patterns.values()) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    return [...allowed].sort();
  }
}
