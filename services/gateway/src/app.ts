import { randomUUID } from 'node:crypto';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { BlobStore, Bus, ReadStore } from '@renopath/platform';
import type { AsyncApiOptions } from './asyncapi/document.ts';
import type { ThreadMetrics } from '@renopath/platform/observability/metrics.ts';
import { overloadGuard } from '@renopath/platform/observability/overload.ts';
import type { LoopProbe, OverloadLimits } from '@renopath/platform/observability/overload-limits.ts';
import type { GatewayConfig } from './config.ts';
import { requestLogger } from './plugins/request-logger.ts';
import { authPlugin } from './plugins/auth.ts';
import { docsPlugin } from './plugins/docs.ts';
import { downloadsPlugin } from './plugins/downloads.ts';
import { answerClientError, clientRequestId, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { requestTraceFields, tracingPlugin } from './plugins/tracing.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { ONE_MIB, uploadsPlugin } from './plugins/uploads.ts';
import { serializerCompiler, validatorCompiler } from './plugins/validation.ts';
import { declaredRoutes } from './routes/declared.ts';
import { gatewayRoutes } from './routes/index.ts';
import { operationalRoutes } from './routes/operational.ts';
import type { RouteDef } from './routes/route.ts';
import { tokenRoute } from './routes/v1/oauth/token.ts';

export interface GatewayDeps {
  bus: Bus;
  config: GatewayConfig;
  logger: Logger;
  /** Where uploads go and downloads come from; the services that own files share it. */
  blobs: BlobStore;
  /** Signs download links (see `loadDownloadSecret`). */
  downloadSecret: Buffer;
  /** Where Idempotency-Key records live (docs/http-contract.md "Idempotency and read-your-writes"); in memory when not given. */
  idempotencyStore?: ReadStore;
  /** Context threads of this process (embedded mode), whose metrics /metrics merges with this thread's. */
  metricsThreads?: ThreadMetrics[];
  /** RENOPATH_OVERLOAD_* (PlatformConfig.overload): past these the gateway sheds load with 503; absent, it never does. */
  overload?: OverloadLimits;
  /** The event loops of the context threads of this process (embedded mode): one over the limits makes the gateway shed too. */
  contextLoops?: LoopProbe[];
  /** No other gateway uses `idempotencyStore` (embedded mode): a claim left by an earlier process is abandoned at once. */
  idempotencyExclusive?: boolean;
  now?: () => number;
  /** The bus the events go out on, as `/asyncapi.json` names it (the NATS URL, stream and subject prefix). */
  events?: AsyncApiOptions;
}

export interface Gateway {
  app: FastifyInstance;
  /** Every declared route (the attack suite walks them all, so a new route is covered as it lands). */
  routes: readonly RouteDef[];
  /** Loads identity's key set and follows revocations; rejects while identity does not answer (retry it). */
  start(): Promise<void>;
  /** The process is stopping: /ready answers 503 from now on, so no new request is routed here. */
  drain(): void;
}

/**
 * The HTTP gateway (house style: a service is buildApp(deps)): a `buildGateway(deps)`; only `main.ts` listens. Fastify plugins in
 * the order a request meets them (errors, auth, rate limit, idempotency, uploads, downloads, docs),
 * then the routes, declared with their zod schemas through the zod type provider.
 */
export function buildGateway(deps: GatewayDeps): Gateway {
  const { bus, config } = deps;
  const routes = gatewayRoutes;
  const app = Fastify({
    loggerInstance: deps.logger.child({}, { serializers: { req: serializeRequest } }) as FastifyBaseLogger,
    bodyLimit: ONE_MIB,
    trustProxy: trustProxyOption(config.trustProxy),
    // The correlation id of the request's events and of read-your-writes is ours: a client's
    // x-request-id is echoed and logged, never trusted to name (or collide with) another request.
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options, raw) => {
      // Fastify's bindings are this request's own object: the ids are added to it, bound while the child is still to be made (requestLogger).
      Object.assign(bindings, requestTraceFields(raw));
      const given = clientRequestId(raw.headers['x-request-id']);
      if (given) bindings['client_request_id'] = given;
      return requestLogger(logger, bindings, options);
    },
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: answerClientError,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const now = deps.now ? { now: deps.now } : {};
  void app.register(tracingPlugin);
  void app.register(errorsPlugin);
  // Before auth and the routes: a shed request costs nothing more. /health stays the liveness probe's
  // (a busy process must not be restarted for being busy) and /metrics the scraper's (it shows why);
  // /ready sheds, so traffic goes elsewhere.
  if (deps.overload) {
    // One log line a second at most, with the count: a line per shed request would add to the load.
    let shed = 0;
    let loggedAt = 0;
    void app.register(
      underPressure,
      overloadGuard({
        limits: deps.overload,
        threads: deps.contextLoops ?? [],
        exempt: ['/health', '/metrics'],
        onShed: (request, reason) => {
          shed += 1;
          if (Date.now() - loggedAt < 1000) return;
          request.log.warn({ reason, shed }, 'overloaded: requests shed with 503');
          loggedAt = Date.now();
          shed = 0;
        },
      }),
    );
  }
  void app.register(authPlugin, { bus, issuer: config.issuer, audience: config.audience, adminToken: config.adminToken, ...now });
  void app.register(rateLimitPlugin, config.rateLimit);
  void app.register(metricsPlugin, { threads: deps.metricsThreads ?? [] });
  void app.register(idempotencyPlugin, {
    ...(deps.idempotencyStore ? { store: deps.idempotencyStore } : {}),
    exclusive: deps.idempotencyExclusive ?? false,
    ...now,
  });
  void app.register(uploadsPlugin);
  void app.register(docsPlugin, {
    publicUrl: config.publicUrl,
    routes,
    adminEnabled: config.adminToken !== null,
    rateLimited: config.rateLimit.perSecond > 0 && config.rateLimit.burst > 0,
    events: deps.events ?? { natsUrl: 'nats://localhost:4222', stream: 'RENOPATH_EVENTS', prefix: null },
  });
  void app.register(downloadsPlugin, { blobs: deps.blobs, secret: deps.downloadSecret, publicUrl: config.publicUrl, ...now });
  let started = false;
  let draining = false;
  void app.register(operationalRoutes, { bus, contexts: config.contexts, started: () => started, draining: () => draining });
  void app.register(tokenRoute, {
    bus,
    busTimeoutMs: config.busTimeoutMs,
    limited: config.rateLimit.perSecond > 0 && config.rateLimit.burst > 0,
    ...now,
  });
  void app.register(declaredRoutes, {
    routes,
    bus,
    blobs: deps.blobs,
    contexts: config.contexts,
    busTimeoutMs: config.busTimeoutMs,
    settleTimeoutMs: config.settleTimeoutMs,
  });

  return {
    app,
    routes,
    async start() {
      await app.ready();
      await app.auth.start();
      started = true;
    },
    drain() {
      draining = true;
    },
  };
}

/** What a request log line says of the request: signed links' signatures are credentials, never logged. */
export function serializeRequest(req: { method?: string; url?: string; host?: string; ip?: string }) {
  return { method: req.method, url: req.url?.replace(/([?&]signature=)[^&]*/g, '$1[redacted]'), host: req.host, remoteAddress: req.ip };
}

/**
 * Fastify refuses a bare hop count (it cannot tell the proxy from a direct client); configured as one,
 * the operator says the gateway is reachable only through that many proxies, so trust exactly those hops.
 */
function trustProxyOption(trust: GatewayConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
