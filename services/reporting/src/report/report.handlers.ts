import { handleCommand } from '@renopath/platform/service/decider.ts';
import { actorOf, commandContext, idParam, newId, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  CreateReportBody,
  RenovationsSubjects,
  type GovernmentGrants,
  type RenovationHistoryEntry,
  type RenovationOverviewV1,
  type ServiceRequest,
} from '@renopath/contracts';
import type { z } from 'zod';
import { isOutdated } from '../change-log/change-log.reactor.ts';
import { t } from '../i18n/index.ts';
import { defaultLanguage, type EstateReply, type Handler, type ReportingKit } from '../kit/reporting-kit.ts';
import { renderReportPdf } from '../pdf/index.ts';
import { R, type AgencyDoc, type TrajectoryDoc } from '../referral/referral.reactors.ts';
import { buildReportModel } from '../report-model/build.ts';
import type { ReportLanguage, ReportModel } from '../report-model.ts';
import { C, type ReportDoc } from '../report-views/report-views.projection.ts';
import { reportDecider, reportStream } from './report.decider.ts';

const PDF = 'application/pdf';
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);

/** The client items in the renovation's order: a trajectory's steps by their plan order, other items as added. */
export function itemOrderOf(history: readonly RenovationHistoryEntry[]): string[] {
  // A trajectory's items come with its `RenovationCreated` (older renovations: an item event each), the others one event each.
  const added = history
    .flatMap((e): Array<Record<string, unknown>> => {
      if (e.type === 'RenovationItemAdded') return [e.data];
      const items = e.type === 'RenovationCreated' ? e.data['items'] : undefined;
      return Array.isArray(items) ? (items as Array<Record<string, unknown>>) : [];
    })
    .map((item, i) => ({
      id: String(item['item_id']),
      step: typeof item['step'] === 'number' ? item['step'] : Number.POSITIVE_INFINITY,
      i,
    }));
  return added.sort((a, b) => a.step - b.step || a.i - b.i).map((a) => a.id);
}

/** The report aggregate's commands and queries: make one, list them, and the old-style newest report. */
export function reportHandlers(kit: ReportingKit): Record<'create' | 'list' | 'oldStyle', Handler> {
  const { reads, renovationOf, estateOf } = kit;

  const render = async (doc: ReportDoc) => ({
    id: doc.id,
    name: doc.name,
    url: null,
    blob_key: doc.blob_key,
    created_at: doc.created_at,
    is_outdated: await isOutdated(reads, doc),
  });

  const reportsOf = async (renovation_id: string, filter: Record<string, unknown> = {}) =>
    (
      await reads.query<ReportDoc>(C.reports, {
        filter: { renovation_id, ...filter },
        sort: [
          { field: 'created_at', order: 'DESC' },
          { field: 'position', order: 'DESC' },
        ],
      })
    ).items;

  return {
    create: async (req) => {
      actorOf(req);
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      const body = parse(CreateReportBody, req.body ?? {});
      return render(await makeReport(kit, req, renovation_id, body.language));
    },

    list: async (req) => {
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      await renovationOf(req, renovation_id);
      return Promise.all((await reportsOf(renovation_id)).map(render));
    },

    /** Old style: the newest report in the estate's default language, made now when there is none or it is outdated. */
    oldStyle: async (req) => {
      const renovation_id = idParam(req, 'renovation_id', 'renovation');
      const renovation = await renovationOf(req, renovation_id);
      const estate = await estateOf(req, renovation.estate_id);
      const language = defaultLanguage(estate);
      const [newest] = await reportsOf(renovation_id, { language });
      const doc = newest && !(await isOutdated(reads, newest)) ? newest : await makeReport(kit, req, renovation_id, language);
      return { id: doc.id, name: doc.name, url: null, blob_key: doc.blob_key, mimetype: PDF };
    },
  };
}

/**
 * Gathers the renovation and its estate as the caller sees them, renders the PDF into
 * `reports/<id>.pdf` (a retry of the same request renders into the same blob) and records it.
 */
async function makeReport(
  kit: ReportingKit,
  req: ServiceRequest,
  renovation_id: string,
  language: ReportLanguage | undefined,
): Promise<ReportDoc> {
  const { store, reads, blobs, now, ask, renovationOf, estateOf, settle } = kit;
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
    photo: await photoOf(kit, estate),
    agency: await agencyOf(kit, estate.organization_id),
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

async function photoOf(kit: ReportingKit, estate: EstateReply): Promise<ReportModel['estate']['photo']> {
  const { blobs, log } = kit;
  const medium = estate.media.find((m) => PHOTO_TYPES.has(m.mimetype) && typeof m.blob_key === 'string');
  if (!medium?.blob_key) return null;
  const blob = await blobs.get(medium.blob_key).catch((err: unknown) => (log.warn({ err }, 'could not read the estate photo'), null));
  return blob ? { bytes: new Uint8Array(blob.body), mimetype: medium.mimetype as 'image/jpeg' | 'image/png' } : null;
}

async function agencyOf(kit: ReportingKit, organization_id: string) {
  const { reads } = kit;
  const doc = await reads.get<AgencyDoc>(R.agencies, organization_id);
  return doc ? { ...doc.agency, website: null } : null;
}
