import underPressure from '@fastify/under-pressure';
import Fastify from 'fastify';
import { collectProcessMetrics, mergedMetrics, type ThreadMetrics } from './metrics.ts';
import type { LoopProbe, OverloadLimits } from './overload-limits.ts';
import { overloadGuard } from './overload.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  /** RENOPATH_OVERLOAD_*: past these, /health answers 503 with Retry-After (absent: it never does). */
  overload?: OverloadLimits;
  /** Other threads of the process whose event loops count (embedded mode's context threads). */
  loops?: LoopProbe[];
}

/**
 * RENOPATH_METRICS_PORT: `GET /metrics` on a port of its own, without a token, for a scraper inside
 * the deployment's network (the contexts of the distributed mode serve no HTTP otherwise), and
 * `GET /health`: the process runs and is not overloaded (503 with Retry-After while it is, through
 * `@fastify/under-pressure`; /metrics is never shed, so the scraper sees why). Also turns on the
 * process metrics. `port` 0 picks a free one (tests).
 */
export async function startMetricsServer(
  port: number,
  threads: ThreadMetrics[] = [],
  options: MetricsServerOptions = {},
): Promise<MetricsServer> {
  collectProcessMetrics();
  const app = Fastify({ logger: false });
  if (options.overload) {
    await app.register(underPressure, overloadGuard({ limits: options.overload, threads: options.loops ?? [], exempt: ['/metrics'] }));
  }
  // The process's liveness, for the image's HEALTHCHECK: the contexts serve no other HTTP.
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => {
    try {
      const { contentType, text } = await mergedMetrics(threads);
      return reply.type(contentType).send(text);
    } catch (error) {
      return reply
        .code(500)
        .type('text/plain')
        .send(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain').send('not found: GET /metrics or /health\n'));
  await app.listen({ port, host: '::' }).catch(() => app.listen({ port, host: '0.0.0.0' }));
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => app.close(),
  };
}
