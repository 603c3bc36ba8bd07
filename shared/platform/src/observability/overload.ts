import type { FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '@renopath/contracts';
import type { LoopLoad, LoopProbe, OverloadLimits } from './overload-limits.ts';

/** Whether a thread's figures are within the limits (a thread that did not answer is not). */
export function withinLimits(load: LoopLoad | null, limits: OverloadLimits): boolean {
  if (load === null) return false;
  if (limits.maxEventLoopDelayMs > 0 && load.delayMs > limits.maxEventLoopDelayMs) return false;
  return !(limits.maxEventLoopUtilization > 0 && load.utilization > limits.maxEventLoopUtilization);
}

/** How long a thread may take to answer a probe: a loop that late is over the delay limit anyway. */
const probeTimeoutMs = (limits: OverloadLimits) => Math.max(100, limits.maxEventLoopDelayMs || 1000);

export interface OverloadGuardOptions {
  limits: OverloadLimits;
  /** Other threads of this process whose loops count too (embedded mode's context threads). */
  threads?: LoopProbe[];
  /** Route patterns never shed: liveness and metrics must answer when the process is busiest. */
  exempt?: string[];
  /** How often the figures are sampled (ms); under-pressure's default, one second. */
  sampleIntervalMs?: number;
  /** Told of each shed request (a log line, a counter). */
  onShed?: (request: FastifyRequest, reason: string) => void;
}

/**
 * The options of `@fastify/under-pressure` (`app.register(underPressure, overloadGuard(...))`) for the project's limits: over any of them every route but the
 * exempt ones answers 503 with Retry-After in the error shape of docs/http-contract.md "Errors". Its
 * health check asks each thread of `threads` for its loop's figures, so a context thread whose loop
 * is stalled makes the gateway in front of it shed as well.
 */
export function overloadGuard(options: OverloadGuardOptions): FastifyUnderPressureOptions {
  const { limits } = options;
  const threads = options.threads ?? [];
  const exempt = new Set(options.exempt ?? []);
  const sampleInterval = options.sampleIntervalMs ?? 1000;
  const pressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
    if (request.routeOptions.url !== undefined && exempt.has(request.routeOptions.url)) return undefined;
    const reason = type === 'healthCheck' ? 'a context thread is overloaded' : `${type} ${value === undefined ? '' : round(value)}`.trim();
    options.onShed?.(request, reason);
    // Sent here, the request goes no further (under-pressure's documented way to answer).
    void reply
      .code(503)
      .header('retry-after', String(limits.retryAfterS))
      .type('application/json; charset=utf-8')
      .send(errorBody(503, [`the service is overloaded; retry after ${limits.retryAfterS} s`]));
  };
  return {
    sampleInterval,
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxEventLoopUtilization: limits.maxEventLoopUtilization,
    // Each sample's own utilisation, not the average since the start.
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    retryAfter: limits.retryAfterS,
    pressureHandler,
    // Without a loop limit there is nothing to ask the threads.
    ...(threads.length > 0 && (limits.maxEventLoopDelayMs > 0 || limits.maxEventLoopUtilization > 0)
      ? {
          healthCheck: async () => {
            const loads = await Promise.all(threads.map((probe) => probe(probeTimeoutMs(limits)).catch(() => null)));
            return loads.every((load) => withinLimits(load, limits));
          },
          healthCheckInterval: sampleInterval,
        }
      : {}),
  };
}

const round = (value: number) => (value < 10 ? value.toFixed(2) : String(Math.round(value)));
