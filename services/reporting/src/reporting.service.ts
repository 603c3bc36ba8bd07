import type { Logger } from 'pino';
import type { BlobStore, Bus, Closeable, EventStore, ReadStore } from '@renopath/platform';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { PassportSubjects, ReportingSubjects as S } from '@renopath/contracts';
import { passportHandlers } from './passport/passport.handlers.ts';
import { startRenovationsChangeReactor } from './change-log/change-log.reactor.ts';
import { reportingKit, type Handler, type ReportingConfig } from './kit/reporting-kit.ts';
import { referralHandlers } from './referral/referral.handlers.ts';
import { startCalculationsReactor, startEstatesReactor, startIdentityReactor } from './referral/referral.reactors.ts';
import { reportHandlers } from './report/report.handlers.ts';
import { REPORT_VIEWS } from './projections.ts';

export type { ReportingConfig } from './kit/reporting-kit.ts';

export interface ReportingDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  /** Where estates' media are read from and reports are written to (the gateway signs links to it). */
  blobs: BlobStore;
  config: ReportingConfig;
  log: Logger;
  settlement?: Settlement;
  now?: () => Date;
}

export interface ReportingService {
  projection: Projection;
  close(): Promise<void>;
}

/**
 * Wires the reporting context: its report views, the handlers of its report aggregate and of the
 * referral page (each in its folder), and the reactors that keep its copies of the other contexts.
 */
export async function startReporting(deps: ReportingDeps): Promise<ReportingService> {
  const { bus, readStore: reads, log } = deps;
  const projection = runProjection({
    ...REPORT_VIEWS,
    eventStore: deps.eventStore,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'report views projection failed; retrying'),
  });
  const kit = reportingKit({
    bus,
    store: deps.eventStore,
    reads,
    blobs: deps.blobs,
    config: deps.config,
    log,
    now: deps.now ?? (() => new Date()),
    projection,
  });
  const report = reportHandlers(kit);
  const referral = referralHandlers(kit);
  const passport = passportHandlers(kit);
  const handlers: Record<string, Handler> = {
    [PassportSubjects.create]: passport.create,
    [PassportSubjects.get]: passport.get,
    [PassportSubjects.listForEstate]: passport.list,
    [PassportSubjects.update]: passport.update,
    [PassportSubjects.sign]: passport.sign,
    [PassportSubjects.pdf]: passport.pdf,
    [PassportSubjects.verification]: passport.verification,
    [S.createReport]: report.create,
    [S.listReports]: report.list,
    [S.oldStyleReport]: report.oldStyle,
    [S.referral]: referral.page,
  };

  const subscriptions: Closeable[] = await serveMessages(bus, handlers);
  const reactorDeps = { bus, readStore: reads, log, ...(deps.settlement ? { settlement: deps.settlement } : {}) };
  subscriptions.push(await startIdentityReactor(reactorDeps));
  subscriptions.push(await startEstatesReactor(reactorDeps));
  subscriptions.push(await startRenovationsChangeReactor(reactorDeps));
  subscriptions.push(await startCalculationsReactor(reactorDeps));
  log.info({ subjects: Object.keys(handlers).length }, 'reporting service ready');

  return {
    projection,
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}
