import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';

/*
 * Load shedding (docs/operations.md "Overload"): past a limit, a process answers 503 with Retry-After at
 * once instead of queueing requests until the bus times out. The limits are read by every process
 * (PlatformEnv), so the gateway and each context process's health server shed alike.
 */

/** The overload settings of PlatformEnv (README.md "Configuration"). */
export const OverloadEnv = {
  /**
   * Mean event-loop delay over a one-second sample (ms) past which requests are shed; 0 turns it off.
   * Chosen by measurement (docs/operations.md "Overload"): well above what a busy but healthy process shows.
   */
  RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().min(0).default(1000),
  /** Event-loop utilisation over a one-second sample (0 to 1) past which requests are shed; 0 (the default) turns it off. */
  RENOPATH_OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  /** Heap in use (MiB) past which requests are shed; unset: 90% of V8's heap limit; 0 turns it off. */
  RENOPATH_OVERLOAD_MAX_HEAP_USED_MB: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().min(0).optional()),
  /** The Retry-After (s) of a shed request. */
  RENOPATH_OVERLOAD_RETRY_AFTER_S: z.coerce.number().int().min(1).max(3600).default(5),
};

export interface OverloadLimits {
  /** 0: off. */
  maxEventLoopDelayMs: number;
  /** 0: off. */
  maxEventLoopUtilization: number;
  /** 0: off. */
  maxHeapUsedBytes: number;
  retryAfterS: number;
}

/** Of V8's heap limit, the share in use past which a process sheds by default: it is close to running out. */
const DEFAULT_HEAP_SHARE = 0.9;

export function overloadLimits(e: {
  RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: number;
  RENOPATH_OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: number;
  RENOPATH_OVERLOAD_MAX_HEAP_USED_MB?: number | undefined;
  RENOPATH_OVERLOAD_RETRY_AFTER_S: number;
}): OverloadLimits {
  const heapMb = e.RENOPATH_OVERLOAD_MAX_HEAP_USED_MB;
  return {
    maxEventLoopDelayMs: e.RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: e.RENOPATH_OVERLOAD_MAX_EVENT_LOOP_UTILIZATION,
    maxHeapUsedBytes:
      heapMb === undefined ? Math.floor(getHeapStatistics().heap_size_limit * DEFAULT_HEAP_SHARE) : Math.floor(heapMb * 1024 * 1024),
    retryAfterS: e.RENOPATH_OVERLOAD_RETRY_AFTER_S,
  };
}

/** One thread's event loop over the last sample: its mean delay (ms) and its utilisation (0 to 1). */
export interface LoopLoad {
  delayMs: number;
  utilization: number;
}

/** Asks another thread (a context thread of embedded mode) for its LoopLoad; null when it does not answer within `timeoutMs`. */
export type LoopProbe = (timeoutMs: number) => Promise<LoopLoad | null>;

/** The timer resolution of the delay histogram (ms), subtracted from its mean as under-pressure does. */
const RESOLUTION_MS = 10;

/**
 * Measures this thread's event loop the way under-pressure measures the main thread's: the mean delay
 * of a 10 ms timer and the utilisation, both since the previous `read`.
 */
export function loopLoadMeter(): { read(): LoopLoad; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let mark = performance.eventLoopUtilization();
  return {
    read() {
      const now = performance.eventLoopUtilization();
      const utilization = performance.eventLoopUtilization(now, mark).utilization;
      mark = now;
      // No sample at all (read twice within 10 ms): nothing late was seen.
      const mean = histogram.count === 0 ? 0 : histogram.mean / 1e6;
      histogram.reset();
      return { delayMs: Math.max(0, mean - RESOLUTION_MS), utilization };
    },
    stop: () => histogram.disable(),
  };
}
