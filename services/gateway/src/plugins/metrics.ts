import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { collectProcessMetrics, httpRequestDuration, mergedMetrics, type ThreadMetrics } from '@renopath/platform/observability/metrics.ts';

export interface MetricsPluginOptions {
  /** Context threads of this process (embedded mode): their figures are merged into the answer. */
  threads?: ThreadMetrics[];
}

/**
 * Times every answered request (route pattern, not URL, so ids do not make new series) and serves
 * `GET /metrics` in the Prometheus text format behind the admin token, limited per address like the
 * admin API. Without an admin token the route does not exist: RENOPATH_METRICS_PORT serves the same
 * figures on a port of their own (docs/operations.md).
 */
export const metricsPlugin = fp(async (app: FastifyInstance, options: MetricsPluginOptions) => {
  // A callback hook: an async one would make a promise per request for nothing.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe({ route, method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  if (!app.auth.adminEnabled) return;
  collectProcessMetrics();
  const limit = app.limit ? [app.limit as unknown as preValidationAsyncHookHandler] : [];
  app.get('/metrics', { preValidation: [...limit, app.auth.admin], schema: { hide: true } }, async (_request, reply) => {
    const { contentType, text } = await mergedMetrics(options.threads ?? []);
    return reply.type(contentType).send(text);
  });
});
