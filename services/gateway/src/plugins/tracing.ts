import { context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  contextOf,
  requestTraceparent,
  SpanKind,
  tracer,
  tracingRecords,
  withTraceparent,
} from '@renopath/platform/observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (a child of the client's `traceparent`, when it sent one); null when nothing records spans. */
    span: Span | null;
  }
}

/**
 * A server span per request, continuing the client's W3C `traceparent`. The rest of the request runs
 * inside the span's context (the hook's `done` is called in it), so the bus requests the route sends
 * are its children and carry its trace to the contexts; the request's log lines name its trace id.
 * When nothing records spans, the request runs under a `traceparent` of its own instead (a span id in
 * the client's trace, or a new trace): the same ids in the logs and on the bus, without a span object.
 */
export const tracingPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('span', null);
  if (!tracingRecords()) {
    app.addHook('onRequest', (request, _reply, done) => withTraceparent(requestTraceparent(request.headers['traceparent']), done));
    return;
  }
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
