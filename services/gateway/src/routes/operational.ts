import type { FastifyInstance } from 'fastify';
import { IdentitySubjects } from '@renopath/contracts';
import { BusUnavailableError, type Bus } from '@renopath/platform';
import { settleSubject, type SettleQuery } from '@renopath/platform/service/settlement.ts';
import { HttpError } from '../plugins/errors.ts';

export interface OperationalOptions {
  bus: Bus;
  /** The contexts the gateway forwards to and waits for. */
  contexts: string[];
  /** Whether the gateway has identity's key set (`Gateway.start` resolved): it cannot check a token before. */
  started: () => boolean;
  /** Whether the process is stopping (SIGTERM): the load balancer is to send it nothing new. */
  draining: () => boolean;
}

const PROBE_TIMEOUT_MS = 2000;

/**
 * Health (the process runs) and readiness (this gateway can serve). Ready once it holds identity's
 * key set, and until it is told to stop: a context that is down does not take the gateway out of
 * service, since its routes answer 503 with Retry-After on their own while the others serve. What
 * each context answers is in the body, for the operator. Until ready, 503 with Retry-After, and the
 * gateway keeps running: processes start in any order.
 */
export async function operationalRoutes(app: FastifyInstance, options: OperationalOptions) {
  const { bus } = options;
  // Documented in the OpenAPI document (openapi/document.ts) with the other operations the gateway answers itself.
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async () => {
    if (options.draining()) throw new HttpError(503, ['the gateway is shutting down'], { 'retry-after': '5' });
    if (!options.started()) throw new HttpError(503, ["identity's key set is not loaded yet"], { 'retry-after': '5' });
    // Identity answers with its key set; the other contexts with their settle query (any context answers one).
    const probe: SettleQuery = { correlation_id: 'readiness-probe', after: {}, timeout_ms: 0 };
    const checks = [
      ['identity', bus.request(IdentitySubjects.jwks, {}, { timeoutMs: PROBE_TIMEOUT_MS })] as const,
      ...options.contexts
        .filter((context) => context !== 'identity')
        .map((context) => [context, bus.request(settleSubject(context), probe, { timeoutMs: PROBE_TIMEOUT_MS })] as const),
    ];
    const results = await Promise.allSettled(checks.map(([, answer]) => answer));
    // Any answer, a refusal included, shows the context is there; only an unanswered request is a missing peer.
    const reachable = (i: number) => {
      const result = results[i]!;
      return !(result.status === 'rejected' && result.reason instanceof BusUnavailableError);
    };
    return {
      status: 'ready',
      contexts: Object.fromEntries(checks.map(([context], i) => [context, reachable(i) ? 'reachable' : 'unreachable'])),
    };
  });
}
