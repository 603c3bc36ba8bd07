import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import { z } from 'zod';
import { EnergyEfficiencyType, type PropertyDescription } from '@renopath/contracts';
import type {
  BuildingAddress,
  EnergyEfficiencyProvider,
  GeometryProvider,
  ImpactEstimate,
  MeasuredGeometry,
  ProviderAnswer,
  ScoreEstimate,
} from './providers.ts';

/**
 * HTTP adapters of the gap-filling ports: JSON POSTs to operator-configured URLs (protocol in
 * README.md), each provider behind one circuit breaker (house style: one config module per service) whose fallback is "no data",
 * so a provider that is down costs a job at most one timeout, and none once the circuit is open.
 */

export interface BreakerSettings {
  /** Share of failed calls (%) within the rolling window that opens the circuit. */
  errorThresholdPercentage: number;
  /** How long an open circuit refuses calls before one trial call (ms). */
  resetTimeoutMs: number;
  /** Calls in the window before the share counts: one early failure does not open it. */
  volumeThreshold: number;
  /** Length of the rolling window of call statistics (ms). */
  rollingCountTimeoutMs: number;
}

/**
 * Defaults (README.md): half the calls of the last minute failing, once at least 5 were made, open the
 * circuit for 30 s; then one trial call decides whether it closes.
 */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  errorThresholdPercentage: 50,
  resetTimeoutMs: 30_000,
  volumeThreshold: 5,
  rollingCountTimeoutMs: 60_000,
};

export interface HttpProviderOptions {
  url: string;
  /** One call's limit, also the breaker's timeout (RENOPATH_PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  breaker?: Partial<BreakerSettings>;
  log?: Logger;
  /** Test seam; the global fetch by default (the URLs are the operator's, not a client's). */
  fetch?: typeof fetch;
}

export interface Closable {
  /** Stops the breaker's timers. */
  close(): void;
}

const Metres = z.number().positive().max(1000);
const Surface = z.number().min(0).max(1_000_000);
const GeometryAnswer = z.object({
  building_width: Metres,
  building_depth: Metres,
  inclined_roof_pane_surface: Surface,
  flat_roof_pane_surface: Surface,
  cornice_height: Metres.optional(),
});
const Score = z.number().min(-10_000).max(10_000);
const ScoreAnswer = z.object({ energy_efficiency_score: Score, energy_efficiency_type: EnergyEfficiencyType });
const ImpactAnswer = z.object({ score_before: Score, score_after: Score, energy_efficiency_type: EnergyEfficiencyType });

type Call = (path: string, body: unknown, schema: z.ZodType) => Promise<ProviderAnswer<unknown>>;

/** A JSON POST behind a breaker: 200 is data, 404 is "nothing known", anything else a failure that counts. */
function breakerCall(
  name: string,
  options: HttpProviderOptions,
): { call: Call; breaker: CircuitBreaker<Parameters<Call>, ProviderAnswer<unknown>> } {
  const doFetch = options.fetch ?? fetch;
  const base = options.url.replace(/\/+$/, '');
  const action: Call = async (path, body, schema) => {
    const response = await doFetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return { status: 'NO_DATA', reason: `${name} has no data for this home` };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`${name} answered ${response.status}`);
    }
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success)
      throw new Error(
        `${name} answered an unexpected body: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    return { status: 'OK', data: parsed.data };
  };
  const settings = { ...DEFAULT_BREAKER_SETTINGS, ...options.breaker };
  const breaker = new CircuitBreaker(action, {
    name,
    timeout: options.timeoutMs,
    errorThresholdPercentage: settings.errorThresholdPercentage,
    resetTimeout: settings.resetTimeoutMs,
    volumeThreshold: settings.volumeThreshold,
    rollingCountTimeout: settings.rollingCountTimeoutMs,
  });
  breaker.fallback((...args: unknown[]): ProviderAnswer<unknown> => {
    const err = args.at(-1);
    const reason = breaker.opened
      ? `${name} is unavailable (circuit open after repeated failures)`
      : `${name} is unavailable: ${err instanceof Error ? err.message : String(err)}`;
    return { status: 'UNAVAILABLE', reason };
  });
  if (options.log) {
    const log = options.log;
    breaker.on('open', () => log.warn({ provider: name }, 'provider circuit opened: calls skipped until the reset timeout'));
    breaker.on('halfOpen', () => log.info({ provider: name }, 'provider circuit half-open: trying one call'));
    breaker.on('close', () => log.info({ provider: name }, 'provider circuit closed'));
  }
  return { call: (...args) => breaker.fire(...args), breaker };
}

/** RENOPATH_LIDAR_URL: POST <url> with the address; see README.md. */
export function httpGeometryProvider(options: HttpProviderOptions): GeometryProvider & Closable {
  const { call, breaker } = breakerCall('LiDAR geometry service', options);
  return {
    measure: (address: BuildingAddress) => call('', address, GeometryAnswer) as Promise<ProviderAnswer<MeasuredGeometry>>,
    close: () => breaker.shutdown(),
  };
}

/** RENOPATH_ENERGY_PROVIDER_URL: POST <url>/score and <url>/impact with the property; see README.md. */
export function httpEnergyEfficiencyProvider(options: HttpProviderOptions): EnergyEfficiencyProvider & Closable {
  const { call, breaker } = breakerCall('energy-efficiency provider', options);
  return {
    estimateScore: (property: PropertyDescription) => call('/score', { property }, ScoreAnswer) as Promise<ProviderAnswer<ScoreEstimate>>,
    estimateImpact: (property: PropertyDescription, renovated: PropertyDescription) =>
      call('/impact', { property, renovated }, ImpactAnswer) as Promise<ProviderAnswer<ImpactEstimate>>,
    close: () => breaker.shutdown(),
  };
}
