import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Duplex } from 'node:stream';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { formatIssues, IdentitySubjects, TokenRequestBody, type Actor, type ServiceRequest } from '@renopath/contracts';
import { DomainError, openSqliteReadStore, type BlobStore, type Bus, type Closeable, type ReadStore } from '@renopath/platform';
import { settleAcrossContexts } from '@renopath/platform/service/settlement.ts';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import type { GatewayConfig } from './config.ts';
import { TokenVerifier, Unauthorized } from './http/auth.ts';
import { handleError, HttpError } from './http/errors.ts';
import { IdempotencyKeys } from './http/idempotency.ts';
import { FailureLimiter, RateLimiter } from './http/rate-limit.ts';
import { DOWNLOAD_PATH, DownloadSigner } from './http/signed-links.ts';
import { readUpload, UPLOAD_LIMITS } from './http/uploads.ts';
import { docsPage, openApiDocument } from './openapi.ts';
import { estatesRoutes } from './routes/estates.routes.ts';
import { identityRoutes } from './routes/identity.routes.ts';
import type { RouteDef } from './routes/route.ts';

export interface GatewayDeps {
  bus: Bus;
  config: GatewayConfig;
  logger: Logger;
  /** Extra routes of later contexts. */
  routes?: RouteDef[];
  /** Where uploads go and downloads come from; the services that own files share it. */
  blobs: BlobStore;
  /** Signs download links (see `loadDownloadSecret`). */
  downloadSecret: Buffer;
  /** Where Idempotency-Key records live (API.md 6); in memory when not given. */
  idempotencyStore?: ReadStore;
  /** No other gateway uses `idempotencyStore` (embedded mode): a claim left by an earlier process is abandoned at once. */
  idempotencyExclusive?: boolean;
  now?: () => number;
}

export interface Gateway {
  app: FastifyInstance;
  verifier: TokenVerifier;
  /** Every declared route (the attack suite walks them all, so a new route is covered as it lands). */
  routes: readonly RouteDef[];
  start(): Promise<void>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const ONE_MIB = 1024 * 1024;
/** Download links are valid for an hour (API.md 4.3). */
const DOWNLOAD_LINK_TTL_S = 3600;
const HTML_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** The HTTP gateway (STYLE.md 9): a `buildGateway(deps)`; only `main.ts` listens. */
export function buildGateway(deps: GatewayDeps): Gateway {
  const { bus, config, blobs } = deps;
  const routes = [...identityRoutes, ...estatesRoutes, ...(deps.routes ?? [])];
  const app = Fastify({
    loggerInstance: deps.logger.child({}, { serializers: { req: serializeRequest } }) as FastifyBaseLogger,
    bodyLimit: ONE_MIB,
    trustProxy: trustProxyOption(config.trustProxy),
    // The correlation id of the request's events and of read-your-writes is ours: a client's
    // x-request-id is echoed and logged, never trusted to name (or collide with) another request.
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options, raw) => {
      const given = clientRequestId(raw.headers['x-request-id']);
      return logger.child(given ? { ...bindings, client_request_id: given } : bindings, options);
    },
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: answerClientError,
    // A malformed or over-long path never reaches the router's hooks: answer it in the contract's shape too.
    frameworkErrors: (error, request, reply) => {
      tagReply(request, reply);
      const unknown = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return handleError(new HttpError(unknown ? 404 : 400, [unknown ? 'not found' : 'path is not a valid URL']), request, reply);
    },
  });
  const verifier = new TokenVerifier({ bus, issuer: config.issuer, audience: config.audience, ...(deps.now ? { now: deps.now } : {}) });
  const limiter = new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst, deps.now);
  // Wrong client secrets per client id, whatever address they come from (API.md 3): 10, then one a minute;
  // and per address, whatever client ids it tries: 20, then one every 30 s (off with the rate limit).
  const secretFailures = new FailureLimiter(10, 60, deps.now);
  const addressFailures = limiter.enabled ? new FailureLimiter(20, 30, deps.now) : null;
  // The admin token is compared as fixed-length MACs under a key of this process, so timing tells nothing of its length.
  const adminMacKey = randomBytes(32);
  const adminMac = (value: string) => createHmac('sha256', adminMacKey).update(value).digest();
  const adminToken = config.adminToken ? adminMac(config.adminToken) : null;
  const signer = new DownloadSigner(deps.downloadSecret, config.publicUrl, DOWNLOAD_LINK_TTL_S, deps.now);
  const idempotencyStore = deps.idempotencyStore ?? openSqliteReadStore({ file: ':memory:' });
  if (!deps.idempotencyStore) app.addHook('onClose', async () => idempotencyStore.close());
  // The revocation feed `start()` opens ends with the app, not only with the bus under it.
  let revocations: Closeable | null = null;
  app.addHook('onClose', async () => revocations?.close());
  const idempotency = new IdempotencyKeys(idempotencyStore, {
    exclusive: deps.idempotencyExclusive ?? false,
    ...(deps.now ? { now: deps.now } : {}),
  });
  app.addHook('onClose', async () => idempotency.close());

  // Streams multipart bodies; routes of kind `upload` read them (size and part limits: API.md 1).
  void app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });

  app.decorateRequest('actor', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    handleError(new HttpError(404, [`${request.method} ${request.url.split('?')[0]} is not a route of this API`]), request, reply),
  );
  // Set when the request arrives, so every reply (errors included) carries it; a sync hook costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    tagReply(request, reply);
    done();
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ONE_MIB }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const limit = (key: string) => {
    const wait = limiter.take(key);
    if (wait > 0) throw new HttpError(429, ['rate limit exceeded; slow down'], { 'retry-after': String(wait) });
  };

  const call = async <T>(subject: string, request: FastifyRequest, payload: Omit<ServiceRequest, 'correlation_id' | 'actor'>) =>
    bus.request<T>(subject, { ...payload, actor: request.actor, correlation_id: request.id } satisfies ServiceRequest, {
      timeoutMs: config.busTimeoutMs,
    });

  /** Read your writes across contexts; past the bound the write stands and the answer says so. */
  const settleEffects = async (request: FastifyRequest, reply: FastifyReply) => {
    const settled = await settleAcrossContexts({ bus, contexts: config.contexts, correlationId: request.id, timeoutMs: config.settleTimeoutMs })
      .catch((err: unknown) => (request.log.warn({ err }, 'a context did not settle in time'), false));
    if (settled) return;
    request.log.warn({ correlation_id: request.id }, 'write answered before every effect was readable');
    reply.header('x-renopath-settled', 'false');
  };

  // ---- operational endpoints ----
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async () => {
    try {
      await bus.request(IdentitySubjects.jwks, {}, { timeoutMs: 2000 });
      return { status: 'ready' };
    } catch {
      throw new HttpError(503, ['identity service is not reachable'], { 'retry-after': '5' });
    }
  });
  // Both are built on first request and kept: the routes they describe do not change while the app runs.
  let openapi: ReturnType<typeof openApiDocument> | null = null;
  let docs: string | null = null;
  const document = () => (openapi ??= openApiDocument(routes, config.publicUrl));
  app.get('/openapi.json', async () => document());
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send((docs ??= docsPage(document()))));

  // ---- signed downloads: no bearer token, the link's signature is the credential ----
  app.get(`${DOWNLOAD_PATH}/:blob/:name`, async (request, reply) => {
    limit(`ip:${request.ip}`);
    const { blob, name } = request.params as { blob: string; name: string };
    const { expires, signature } = (request.query ?? {}) as Record<string, unknown>;
    const verdict = signer.verify(blob, name, expires, signature);
    // A forged or expired link is refused like a bad credential (403 bodies stay bare: API.md 2).
    if (verdict === 'invalid' || verdict === 'expired') throw new HttpError(403);
    const found = await blobs.get(verdict.key);
    if (!found) throw new HttpError(404, ['file not found']);
    return reply
      .type(found.content_type)
      .headers({
        'content-disposition': contentDisposition(verdict.name),
        'content-length': String(found.size),
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      })
      .send(found.body);
  });

  // ---- token endpoint: three credential forms (API.md 3) ----
  app.post('/v1/oauth/token', async (request) => {
    limit(`ip:${request.ip}`);
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
      return await call(IdentitySubjects.issueToken, request, { params: {}, query: {}, body: parsed.data });
    } catch (err) {
      if (err instanceof DomainError && err.status === 400) {
        secretFailures.fail(clientKey);
        addressFailures?.fail(addressKey);
      }
      throw err;
    }
  });

  // ---- declared routes ----
  for (const route of routes) {
    const paths =
      route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
    if (route.auth === 'admin' && !adminToken) continue; // the admin API exists only when configured
    for (const path of paths) {
      app.route({
        method: route.method,
        url: path.replace(/\{(\w+)\}/g, ':$1'),
        handler: async (request, reply) => {
          if (route.auth === 'bearer') {
            request.actor = await verifier.verify(request.headers.authorization);
            limit(`client:${request.actor.client_id}`);
            if (route.scope && !request.actor.scopes.includes(route.scope)) throw new HttpError(403);
          } else if (route.auth === 'admin') {
            // Like the token endpoint: guesses at the admin token are limited per address.
            limit(`ip:${request.ip}`);
            const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
            if (!given || !adminToken || !timingSafeEqual(adminMac(given), adminToken)) throw new Unauthorized('bad admin token');
          } else {
            limit(`ip:${request.ip}`);
          }
          const params = request.params as Record<string, string>;
          for (const id of route.ids ?? []) {
            if (!UUID_RE.test(params[id] ?? '')) throw new HttpError(404, [`${id.replace(/_id$/, '').replace(/_/g, ' ')} not found`]);
          }
          const query = validate(route.query, request.query ?? {}, 'query');
          const kind = route.kind ?? 'json';
          if (kind !== 'upload' && request.isMultipart()) throw new HttpError(415, ['multipart/form-data is only accepted by upload endpoints']);
          const idempotencyKey = route.method === 'POST' && request.actor ? IdempotencyKeys.keyOf(request.headers['idempotency-key']) : null;
          let body: unknown;
          let upload: Awaited<ReturnType<typeof readUpload>> | null = null;
          if (kind === 'upload') {
            upload = await readUpload(request, route.accept ?? []);
          } else {
            // Only the token endpoint takes forms; text/plain and forms elsewhere are a wrong content type (API.md 2).
            if (route.body && request.body !== undefined && !isJson(request.headers['content-type'])) {
              throw new HttpError(415, [`content-type ${String(request.headers['content-type'] ?? '')} is not supported here; send application/json`]);
            }
            // An absent body is an empty one; a JSON `null` is a value of the wrong type.
            body = route.body ? validate(route.body, request.body === undefined ? {} : request.body, 'body') : undefined;
            if (!route.body && route.method !== 'GET' && route.method !== 'DELETE' && request.body !== undefined) {
              throw new HttpError(400, ['this endpoint takes no body']);
            }
          }
          let claimed: string | null = null;
          let serviceKey: string | null = null;
          if (idempotencyKey && request.actor) {
            // `/x` and `/v1/x` are one resource (API.md 1): the route and its ids name the target.
            const target = `${route.method} ${route.path} ${JSON.stringify(params)}`;
            const fingerprint = IdempotencyKeys.fingerprint(upload ? [target, upload.name, upload.bytes] : [target, JSON.stringify(body ?? null)]);
            const claim = await idempotency.claim(request.actor.client_id, idempotencyKey, fingerprint);
            if (claim.kind === 'replay') return send(reply, { ...route, status: claim.status }, route.signLinks ? signer.signReply(claim.reply) : claim.reply);
            claimed = claim.id;
            serviceKey = IdempotencyKeys.serviceKey(request.actor.client_id, idempotencyKey, fingerprint);
          }
          let uploaded: string | null = null;
          let result: unknown;
          try {
            if (upload) {
              // A keyed retry writes the same bytes under the same key, which the first attempt's file may already name.
              uploaded = `uploads/${serviceKey ? newId({ idempotency_key: serviceKey }, 'upload') : randomUUID()}`;
              await blobs.put(uploaded, upload.bytes, upload.mimetype);
              body = { blob_key: uploaded, name: upload.name, mimetype: upload.mimetype, size: upload.bytes.length };
            }
            result = await call(route.subject, request, {
              params, query: query as Record<string, unknown>, body, ...(serviceKey ? { idempotency_key: serviceKey } : {}),
            });
          } catch (error) {
            // The service refused the file (unknown estate, validation): its bytes must not linger. After a
            // timeout or a late read model (503) the file may be stored, and the bytes stay.
            if (uploaded && error instanceof DomainError && error.status < 500) {
              await blobs.delete(uploaded).catch((err: unknown) => request.log.warn({ err }, 'could not remove a refused upload'));
            }
            if (claimed) await idempotency.release(claimed);
            throw error;
          }
          if (route.method !== 'GET') await settleEffects(request, reply);
          if (claimed) await idempotency.complete(claimed, route.status, result);
          if (route.subject === IdentitySubjects.adminRevokeApiClient) verifier.markRevoked(params['client_id']!.toLowerCase());
          if (route.signLinks) result = signer.signReply(result);
          return send(reply, route, result);
        },
      });
    }
  }

  return {
    app,
    verifier,
    routes,
    async start() {
      revocations = await verifier.start(`gateway-revocations-${randomUUID()}`);
    },
  };
}

function send(reply: FastifyReply, route: RouteDef, result: unknown) {
  if (route.kind === 'html' && route.render) {
    return reply.code(route.status).headers(HTML_HEADERS).type('text/html; charset=utf-8').send(route.render(result));
  }
  return reply.code(route.status).send(result);
}

/** Requests Node's HTTP parser refuses (oversized headers, broken framing) still get the error shape of API.md 2. */
function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, message] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'request headers are larger than the server accepts']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'the request was not received in time']
    : [400, 'Bad Request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ statusCode: status, error: text, message: [message] });
  this.log.debug({ err }, 'client error');
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/** `inline` with an ASCII fallback name and the exact name per RFC 6266 / 5987. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * bare, which RFC 5987's attr-char does not allow (a ' ends the language part).
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** What a request log line says of the request: signed links' signatures are credentials, never logged. */
export function serializeRequest(req: { method?: string; url?: string; host?: string; ip?: string }) {
  return { method: req.method, url: req.url?.replace(/([?&]signature=)[^&]*/g, '$1[redacted]'), host: req.host, remoteAddress: req.ip };
}

function validate(schema: RouteDef['body'], value: unknown, where: 'body' | 'query'): unknown {
  if (!schema && where === 'query') {
    // Like unknown body fields, a parameter the route does not take is refused rather than ignored.
    const unknown = Object.keys((value ?? {}) as object);
    if (unknown.length > 0) throw new HttpError(400, unknown.map((key) => `${key} is not an allowed query parameter`));
    return {};
  }
  if (!schema) return undefined;
  // reportInput: a wrong type reads "must be a number", not "is required".
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw new HttpError(400, formatIssues(result.error.issues, where));
  return result.data;
}

/** RFC 6749 2.3.1 form-encodes Basic credentials; a broken escape is a bad credential (400), not a crash. */
function decodeBasicPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

/**
 * Fastify refuses a bare hop count (it cannot tell the proxy from a direct client); configured as one,
 * the operator says the gateway is reachable only through that many proxies, so trust exactly those hops.
 */
function trustProxyOption(trust: GatewayConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** A client's own request id, when it is one we may echo and log. */
function clientRequestId(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : null;
}

/** Every reply names the request: the client's x-request-id echoed (ours otherwise), and our correlation id. */
function tagReply(request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', clientRequestId(request.headers['x-request-id']) ?? request.id);
  reply.header('x-correlation-id', request.id);
}
