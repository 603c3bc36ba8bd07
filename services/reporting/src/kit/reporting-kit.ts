import type { Logger } from 'pino';
import type { BlobStore, Bus, EventStore, ReadStore } from '@renopath/platform';
import { actorOf, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import type { Projection } from '@renopath/platform/projection-runner.ts';
import { EstatesSubjects, RenovationsSubjects, type Estate, type Renovation, type ServiceRequest } from '@renopath/contracts';
import type { ReportLanguage } from '../report-model.ts';

export type Handler = (req: ServiceRequest) => Promise<unknown>;

export interface ReportingConfig {
  settleTimeoutMs: number;
  busTimeoutMs: number;
  /** Base of public links (a passport's verification page); absent in tests that make none. */
  publicUrl?: string;
}

/** Files leave the estates context with their `blob_key` (the gateway signs it; here the photo is read with it). */
export type EstateReply = Omit<Estate, 'media'> & { media: Array<Estate['media'][number] & { blob_key?: string }> };

/** The estate's country decides a report's default language (docs/http-contract.md "Renovations and reports"). */
export const defaultLanguage = (estate: Pick<Estate, 'address'>): ReportLanguage => (estate.address.country === 'NL' ? 'nl-NL' : 'nl-BE');

export interface ReportingKitDeps {
  bus: Bus;
  store: EventStore;
  reads: ReadStore;
  blobs: BlobStore;
  config: ReportingConfig;
  log: Logger;
  now: () => Date;
  /** The report views, which a reply waits for after a stored report. */
  projection: Projection;
}

/** What the reporting handlers share: the stores, the clock, and the other contexts asked as the caller. */
export function reportingKit(deps: ReportingKitDeps) {
  const { bus, config } = deps;

  /** Asks another context as the caller: what they may not see answers 404 there, and that answer is passed on. */
  const ask = <T>(req: ServiceRequest, subject: string, params: Record<string, string>) =>
    bus.request<T>(
      subject,
      { actor: actorOf(req), correlation_id: req.correlation_id, params, query: {}, body: undefined } satisfies ServiceRequest,
      {
        timeoutMs: config.busTimeoutMs,
      },
    );

  return {
    ...deps,
    settle: readYourWrites(deps.projection, config.settleTimeoutMs),
    ask,
    renovationOf: (req: ServiceRequest, renovation_id: string) =>
      ask<Renovation>(req, RenovationsSubjects.getRenovation, { renovation_id }),
    estateOf: (req: ServiceRequest, estate_id: string) => ask<EstateReply>(req, EstatesSubjects.getEstate, { estate_id }),
  };
}

export type ReportingKit = ReturnType<typeof reportingKit>;
