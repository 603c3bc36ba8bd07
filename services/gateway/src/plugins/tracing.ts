import type { IncomingMessage } from 'node:http';
import { context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { contextOf, requestTraceparent, SpanKind, tracer, tracingRecords, traceFields } from '@renopath/platform/observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (a child of the client's `traceparent`, when it sent one); null when nothing records spans. */
    span: Span | null;
    /**
     * The `traceparent` this request sends on with its bus requests when nothing records spans (see
     * `requestTrace`); undefined when spans are recorded, the active span's going instead.
     */
    readonly traceparent: string | undefined;
  }
}

const TRACEPARENT = Symbol('renopath.traceparent');
type Traced = IncomingMessage & { [TRACEPARENT]?: string };

/**
 * The trace of a request when nothing records spans: a span id of its own in the client's trace, or a
 * new trace (`requestTraceparent`), made once per request, the first time its logger or a route asks.
 * It is data on the request, not an async context (see tracing.ts).
 */
export function requestTrace(raw: IncomingMessage): string | undefined {
  if (tracingRecords()) return undefined;
  const traced = raw as Traced;
  return (traced[TRACEPARENT] ??= requestTraceparent(raw.headers['traceparent']));
}

/**
 * What a request's log lines name of its trace (its child logger's bindings). Nothing when spans are
 * recorded: pino's mixin names the request's span then, and bindings would name the same keys twice.
 */
export function requestTraceFields(raw: IncomingMessage): Record<string, string> {
  const traceparent = requestTrace(raw);
  return traceparent === undefined ? {} : traceFields({ traceparent });
}

/**
 * A server span per request when spans are recorded, continuing the client's W3C `traceparent`. The
 * rest of the request runs inside the span's context (the hook's `done` is called in it), so the bus
 * requests the route sends are its children and carry its trace to the contexts; the request's log
 * lines name its trace id. When nothing records spans, the request has a `traceparent` of its own
 * instead (`request.traceparent`), which its logger names and its bus requests carry: the same ids in
 * the logs and on the bus, without a span object or an async context.
 */
export const tracingPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('span', null);
  app.decorateRequest('traceparent', {
    getter(this: { raw: IncomingMessage }) {
      return requestTrace(this.raw);
    },
  });
  if (!tracingRecords()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': route, 'renopath.correlation_id': request.id },
      },
      contextOf({ traceparent: request.headers['traceparent'], tracestate: request.headers['tracestate'] }),
    );
    request.span = span;
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.span?.setAttribute('http.response.status_code', reply.statusCode);
    request.span?.end();
  });
});
