import type { Logger } from 'pino';
import { DomainError, type BlobStore, type Bus, type Closeable, type EventStore, type ReadStore } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { actorOf, commandContext, idParam, newId, parse, readYourWrites, serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import {
  CreateReportBody,
  EstatesSubjects,
  ReportingSubjects as S,
  RenovationsSubjects,
  type Estate,
  type GovernmentGrants,
  type Renovation,
  type RenovationHistoryEntry,
  type RenovationOverviewV1,
  type ServiceRequest,
} from '@renopath/contracts';
import type { z } from 'zod';
import { isOutdated, startRenovationsChangeReactor } from './change-log/change-log.reactor.ts';
import { t } from './i18n/index.ts';
import { renderReportPdf } from './pdf/index.ts';
import { buildReferralModel, pageLanguage } from './referral/referral-model.ts';
import {
  R,
  startCalculationsReactor,
  startEstatesReactor,
  startIdentityReactor,
  type AgencyDoc,
  type EstateCopyDoc,
  type TokenDoc,
  type TrajectoryDoc,
} from './referral/referral.reactors.ts';
import { reportDecider, reportStream } from './report/report.decider.ts';
import { buildReportModel } from './report-model/build.ts';
import type { ReportLanguage, ReportModel } from './report-model.ts';
import { C, type ReportDoc } from './report-views/report-views.projection.ts';
import { REPORT_VIEWS } from './projections.ts';

export interface ReportingConfig {
  settleTimeoutMs: number;
  busTimeoutMs: number;
}

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

type Handler = (req: ServiceRequest) => Promise<unknown>;

const REFERRAL_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;
const PDF = 'application/pdf';
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);
const notFound = (what: string) => new DomainError(404, [`${what} not found`]);

/** The estate's country decides a report's default language (docs/http-contract.md "Renovations and reports"). */
const defaultLanguage = (estate: Pick<Estate, 'address'>): ReportLanguage => (estate.address.country === 'NL' ? 'nl-NL' : 'nl-BE');

/** The client items in the renovation's order: a trajectory's steps by their plan order, other items as added. */
export function itemOrderOf(history: readonly RenovationHistoryEntry[]): string[] {
  const added = history
    .filter((e) => e.type === 'RenovationItemAdded')
    .map((e, i) => ({ id: String(e.data['item_id']), step: typeof e.data['step'] === 'number' ? e.data['step'] : Number.POSITIVE_INFINITY, i }));
  return added.sort((a, b) => a.step - b.step || a.i - b.i).map((a) => a.id);
}

export async function startReporting(deps: ReportingDeps): Promise<ReportingService> {
  const { bus, eventStore: store, readStore: reads, blobs, config, log } = deps;
  const now = deps.now ?? (() => new Date());

  const projection = runProjection({
    ...REPORT_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'report views projection failed; retrying'),
  });
  const settle = readYourWrites(projection, config.settleTimeoutMs);

  /** Asks another context as the caller: what they may not see answers 404 there, and that answer is passed on. */
  const ask = <T>(req: ServiceRequest, subject: string, params: Record<string, string>) =>
    bus.request<T>(subject, { actor: actorOf(req), correlation_id: req.correlation_id, params, query: {}, body: undefined } satisfies ServiceRequest, {
      timeoutMs: config.busTimeoutMs,
    });

  const renovationOf = (req: ServiceRequest, renovation_id: string) => ask<Renovation>(req, RenovationsSubjects.getRenovation, { renovation_id });
  /** Files leave the estates context with their `blob_key` (the gateway signs it; here the photo is read with it). */
  type EstateReply = Omit<Estate, 'media'> & { media: Array<Estate['media'][number] & { blob_key?: string }> };
  const estateOf = (req: ServiceRequest, estate_id: string) => ask<EstateReply>(req, EstatesSubjects.getEstate, { estate_id });

  async function photoOf(estate: Awaited<ReturnType<typeof estateOf>>): Promise<ReportModel['estate']['photo']> {
    const medium = estate.media.find((m) => PHOTO_TYPES.has(m.mimetype) && typeof m.blob_key === 'string');
    if (!medium?.blob_key) return null;
    const blob = await blobs.get(medium.blob_key).catch((err: unknown) => (log.warn({ err }, 'could not read the estate photo'), null));
    return blob ? { bytes: new Uint8Array(blob.body), mimetype: medium.mimetype as 'image/jpeg' | 'image/png' } : null;
  }

  const agencyOf = async (organization_id: string) => {
    const doc = await reads.get<AgencyDoc>(R.agencies, organization_id);
    return doc ? { ...doc.agency, website: null } : null;
  };

  const render = async (doc: ReportDoc) => ({
    id: doc.id,
    name: doc.name,
    url: null,
    blob_key: doc.blob_key,
    created_at: doc.created_at,
    is_outdated: await isOutdated(reads, doc),
  });

  /**
   * Gathers the renovation and its estate as the caller sees them, renders the PDF into
   * `reports/<id>.pdf` (a retry of the same request renders into the same blob) and records it.
   */
  async function makeReport(req: ServiceRequest, renovation_id: string, language: ReportLanguage | undefined): Promise<ReportDoc> {
    const renovation = await renovationOf(req, renovation_id);
    const params = { renovation_id };
    const [overview, grants, history, estate] = await Promise.all([
      ask<z.infer<typeof RenovationOverviewV1>>(req, RenovationsSubjects.overviewV1, params),
      ask<z.infer<typeof GovernmentGrants>>(req, RenovationsSubjects.governmentGrants, params),
      ask<RenovationHistoryEntry[]>(req, RenovationsSubjects.history, params),
      estateOf(req, renovation.estate_id),
    ]);
    const lang = language ?? defaultLanguage(estate);
    // The trajectory this renovation was made from, if it was (its steps' phases).
    const trajectory = await reads.get<TrajectoryDoc>(R.trajectories, renovation.estate_id);
    const plan = trajectory?.plan.renovation_id === renovation_id ? trajectory.plan : null;
    const report_id = newId(req, 'report');
    const created_at = now().toISOString();
    const model = buildReportModel({
      language: lang,
      generated_at: created_at,
      renovation,
      overview,
      grants,
      estate,
      itemOrder: itemOrderOf(history),
      photo: await photoOf(estate),
      agency: await agencyOf(estate.organization_id),
      plan,
    });
    const blob_key = `reports/${report_id}.pdf`;
    await blobs.put(blob_key, Buffer.from(await renderReportPdf(model)), PDF);
    const result = await handleCommand(
      store,
      reportStream(report_id),
      reportDecider,
      {
        type: 'RecordReport',
        report_id,
        renovation_id,
        estate_id: renovation.estate_id,
        organization_id: estate.organization_id,
        language: lang,
        name: `${t(lang, 'report.title')} ${created_at.slice(0, 10)}.pdf`,
        blob_key,
        created_at,
      },
      commandContext(req, now()),
    );
    await settle(result.position);
    const doc = await reads.get<ReportDoc>(C.reports, report_id);
    if (!doc) throw new Error(`report ${report_id} not projected`);
    return doc;
  }

  const reportsOf = async (renovation_id: string, filter: Record<string, unknown> = {}) =>
    (await reads.query<ReportDoc>(C.reports, {
      filter: { renovation_id, ...filter },
      sort: [{ field: 'created_at', order: 'DESC' }, { field: 'position', order: 'DESC' }],
    })).items;

  const handlers: Record<string, Handler> = {
    [S.createReport]: async (req) => {
      actorOf(req);
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      const body = parse(CreateReportBody, req.body ?? {});
      return render(await makeReport(req, renovation_id, body.language));
    },

    [S.listReports]: async (req) => {
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      await renovationOf(req, renovation_id);
      return Promise.all((await reportsOf(renovation_id)).map(render));
    },

    /** Old style: the newest report in the estate's default language, made now when there is none or it is outdated. */
    [S.oldStyleReport]: async (req) => {
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      const renovation = await renovationOf(req, renovation_id);
      const estate = await estateOf(req, renovation.estate_id);
      const language = defaultLanguage(estate);
      const [newest] = await reportsOf(renovation_id, { language });
      const doc = newest && !(await isOutdated(reads, newest)) ? newest : await makeReport(req, renovation_id, language);
      return { id: doc.id, name: doc.name, url: null, blob_key: doc.blob_key, mimetype: PDF };
    },

    /**
     * Public: from this context's own copies only, so the page answers while other contexts are down.
     * The reply is the page's report model (without steps and reachable label while no trajectory has finished).
     */
    [S.referral]: async (req) => {
      const token = String(req.params?.['token'] ?? '');
      if (!REFERRAL_TOKEN_RE.test(token)) throw notFound('page');
      const link = await reads.get<TokenDoc>(R.tokens, token);
      const copy = link && (await reads.get<EstateCopyDoc>(R.estates, link.estate_id));
      if (!copy || copy.estate.deleted) throw notFound('page');
      const estate = copy.estate;
      const trajectory = await reads.get<TrajectoryDoc>(R.trajectories, estate.estate_id);
      const agency = await reads.get<AgencyDoc>(R.agencies, estate.organization_id);
      const { language, languages } = pageLanguage(estate.fields.address.country, req.query?.['lang']);
      const model = buildReferralModel({
        estate,
        plan: trajectory?.plan ?? null,
        plan_finished_at: trajectory?.finished_at ?? null,
        agency: agency?.agency ?? null,
        language,
        now: now().toISOString(),
      });
      // Without a finished trajectory the page stays the estate's first one: what an advert shows and the estimate.
      return { ...model, languages, language };
    },
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
