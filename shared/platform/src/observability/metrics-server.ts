import { createServer, type Server } from 'node:http';
import { collectProcessMetrics, mergedMetrics, type ThreadMetrics } from './metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * RENOPATH_METRICS_PORT: `GET /metrics` on a port of its own, without a token, for a scraper inside
 * the deployment's network (the contexts of the distributed mode serve no HTTP otherwise), and
 * `GET /health` (the process runs). Also turns on the process metrics. `port` 0 picks a free one (tests).
 */
export async function startMetricsServer(port: number, threads: ThreadMetrics[] = []): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    // The process's liveness, for the image's HEALTHCHECK: the contexts serve no other HTTP.
    if (request.method === 'GET' && path === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics or /health\n');
      return;
    }
    mergedMetrics(threads).then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
