import type { FastifyInstance } from 'fastify';
import { IdentitySubjects } from '@renopath/contracts';
import { BusUnavailableError, type Bus } from '@renopath/platform';
import { settleSubject, type SettleQuery } from '@renopath/platform/service/settlement.ts';
import { HttpError } from '../http/errors.ts';

export interface OperationalOptions {
  bus: Bus;
  /** The contexts the gateway forwards to and waits for. */
  contexts: string[];
}

const PROBE_TIMEOUT_MS = 2000;

/**
 * Health (the process runs) and readiness (it can serve): ready once identity's key set and every
 * context of RENOPATH_CONTEXTS answer on the bus. Until then 503 with Retry-After, and the gateway
 * keeps running: processes start in any order.
 */
export async function operationalRoutes(app: FastifyInstance, options: OperationalOptions) {
  const { bus } = options;
  // Documented in the OpenAPI document (openapi/document.ts) with the other operations the gateway answers itself.
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async () => {
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
    const unreachable = (i: number) => {
      const result = results[i]!;
      return result.status === 'rejected' && result.reason instanceof BusUnavailableError;
    };
    const missing = checks.filter((_, i) => unreachable(i)).map(([context]) => `${context} service is not reachable`);
    if (missing.length > 0) throw new HttpError(503, missing, { 'retry-after': '5' });
    return { status: 'ready' };
  });
}
