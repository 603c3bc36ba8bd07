import { z } from 'zod';
import { parseServiceEnv, ServiceEnv, type ServiceConfig } from '@renopath/platform/service/platform-env.ts';
import { breakerSettingsOf, ProviderBreakerEnv } from './config-providers.ts';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './webhooks/retry-schedule.ts';
import type { BreakerSettings } from './gap-filling/http-providers.ts';

/** The calculations service's configuration (README.md, Configuration), parsed once at start-up (house style: one config module per service). */
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true');
const Env = ServiceEnv.extend({
  RENOPATH_BUS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** How long a worker holds a job before another may resume it (README.md, Configuration). */
  RENOPATH_JOB_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  /** `all`: the context (jobs, API, sweep) and workers; `worker`: only workers, which take jobs over the bus. */
  RENOPATH_CALCULATIONS_ROLE: z.enum(['all', 'worker']).default('all'),
  /** Jobs one process runs at a time. */
  // Jobs at a time, not threads: a job mostly waits (on other contexts, the planner thread, fsyncs),
  // so more of them in flight keep the latency flat at 100 jobs/s (npm run bench -- jobs).
  RENOPATH_CALCULATION_WORKERS: z.coerce.number().int().min(0).max(64).default(16),
  /** Threads that make plans, off the thread that serves requests; 0: in that thread. */
  RENOPATH_PLANNER_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  /** Threads that compute portfolio batches in this process (docs/portfolio-runs.md); 0: this process computes none. */
  RENOPATH_PORTFOLIO_THREADS: z.coerce.number().int().min(0).max(16).default(2),
  RENOPATH_ALLOW_PRIVATE_NETWORK: flag,
  RENOPATH_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .superRefine((text, ctx) => {
      // Checked at start-up, not when the first webhook is due.
      try {
        parseRetrySchedule(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  RENOPATH_LIDAR_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  RENOPATH_ENERGY_PROVIDER_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  RENOPATH_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000),
  /** EPC documents: largest accepted PDF and the whole download's time bound. */
  RENOPATH_EPC_DOCUMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  RENOPATH_EPC_DOCUMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  ...ProviderBreakerEnv,
});

export interface CalculationsServiceConfig extends ServiceConfig {
  busTimeoutMs: number;
  leaseMs: number;
  role: 'all' | 'worker';
  workers: number;
  plannerThreads: number;
  portfolioThreads: number;
  allowPrivateNetwork: boolean;
  webhookRetrySchedule: string;
  lidarUrl: string | null;
  energyProviderUrl: string | null;
  providerTimeoutMs: number;
  providerBreaker: BreakerSettings;
  epcDocument: { maxBytes: number; timeoutMs: number };
}

/** docs/job-metadata.md: a job whose worker died is resumed; after 3 attempts it fails. */
export const MAX_ATTEMPTS = 3;
/** docs/job-metadata.md: `expires_at` is the creation time plus 30 days. */
export const JOB_LIFETIME_MS = 30 * 24 * 3600 * 1000;

export function loadCalculationsConfig(env: NodeJS.ProcessEnv = process.env): CalculationsServiceConfig {
  const { env: e, config } = parseServiceEnv(Env, env);
  return {
    ...config,
    busTimeoutMs: e.RENOPATH_BUS_TIMEOUT_MS,
    leaseMs: e.RENOPATH_JOB_LEASE_MS,
    role: e.RENOPATH_CALCULATIONS_ROLE,
    workers: e.RENOPATH_CALCULATION_WORKERS,
    plannerThreads: e.RENOPATH_PLANNER_THREADS,
    portfolioThreads: e.RENOPATH_PORTFOLIO_THREADS,
    allowPrivateNetwork: e.RENOPATH_ALLOW_PRIVATE_NETWORK,
    webhookRetrySchedule: e.RENOPATH_WEBHOOK_RETRY_SCHEDULE,
    lidarUrl: e.RENOPATH_LIDAR_URL ?? null,
    energyProviderUrl: e.RENOPATH_ENERGY_PROVIDER_URL ?? null,
    providerTimeoutMs: e.RENOPATH_PROVIDER_TIMEOUT_MS,
    providerBreaker: breakerSettingsOf(e),
    epcDocument: { maxBytes: e.RENOPATH_EPC_DOCUMENT_MAX_BYTES, timeoutMs: e.RENOPATH_EPC_DOCUMENT_TIMEOUT_MS },
  };
}
