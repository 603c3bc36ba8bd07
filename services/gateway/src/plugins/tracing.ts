import { context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { contextOf, SpanKind, tracer } from '@renopath/platform/observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (a child of the client's `traceparent`, when it sent one). */
    span: Span | null;
  }
}

/**
 * A server span per request, continuing the client's W3C `traceparent`. The rest of the request runs
 * inside the span's context (the hook's `done` is called in it), so the bus requests the route sends
 * are its children and carry its trace to the contexts; the request's log lines name its trace id.
 */
export const tracingPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('span', null);
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
