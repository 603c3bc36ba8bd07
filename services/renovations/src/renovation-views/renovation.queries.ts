import { DomainError, type Filter } from '@renopath/platform';
import { actorOf, parse } from '@renopath/platform/service/handler-kit.ts';
import { RenovationOverviewQuery, RenovationSearchQuery, type RenovationHistoryEntry, type ServiceRequest } from '@renopath/contracts';
import { D, type UserDoc } from '../directory-mirror/directory-mirror.reactor.ts';
import { M, type EstateMirrorDoc } from '../estate-mirror/estate-mirror.reactor.ts';
import type { Handler, RenovationsKit } from '../kit/renovations-kit.ts';
import { renovationStream } from '../renovation/renovation.decider.ts';
import { C, replayRenovation, type RenovationDoc } from './renovation-views.projection.ts';
import { renderGrants, renderOverview, renderRecord, renderSearchEntry } from './renovation-views.render.ts';

/** Reading renovations: the lists, one renovation, its overview (now or as of a moment), grants, search, history. */
export function renovationQueries(
  kit: RenovationsKit,
): Record<'list' | 'get' | 'overview' | 'overviewV1' | 'governmentGrants' | 'search' | 'history', Handler> {
  const { store, reads, renovationFor, visibility } = kit;

  /** The renovation now, or replayed to `as_of` (its past stays readable after a delete). */
  async function overviewOf(req: ServiceRequest) {
    const query = parse(RenovationOverviewQuery, req.query ?? {});
    if (query.as_of === undefined) {
      const { doc, estate } = await renovationFor(req);
      return renderOverview(doc, estate);
    }
    const { doc, estate } = await renovationFor(req, { deleted: true });
    const asOf = Date.parse(query.as_of);
    const events = await store.readStream(renovationStream(doc.id));
    const past = replayRenovation(events.filter((e) => Date.parse(e.occurred_at) <= asOf));
    if (!past) throw new DomainError(404, [`renovation did not exist at ${query.as_of}`]);
    return renderOverview(past, estate);
  }

  return {
    list: async (req) => {
      const filter = await visibility(actorOf(req));
      if (!filter) return [];
      const { items: docs } = await reads.query<RenovationDoc>(C.renovations, {
        filter: { ...filter, deleted_at: null },
        sort: [
          { field: 'created_at', order: 'DESC' },
          { field: 'created_position', order: 'DESC' },
        ],
      });
      return docs.map(renderRecord);
    },

    get: async (req) => ({ ...renderRecord((await renovationFor(req)).doc), files: [] }),

    overview: async (req) => {
      const { summary, details } = await overviewOf(req);
      return { summary, ...details };
    },
    overviewV1: overviewOf,

    governmentGrants: async (req) => renderGrants((await renovationFor(req)).doc),

    search: (req) => searchRenovations(kit, req),

    history: async (req) => {
      const { doc } = await renovationFor(req, { deleted: true });
      const events = await store.readStream(renovationStream(doc.id));
      return events.map(
        (e): RenovationHistoryEntry => ({
          event_id: e.event_id,
          type: e.type,
          revision: Number(e.revision),
          occurred_at: e.occurred_at,
          actor: e.metadata.actor,
          correlation_id: e.metadata.correlation_id,
          causation_id: e.metadata.causation_id,
          data: e.data,
        }),
      );
    },
  };
}

/** GET /renovations/search: a page of the renovations the actor sees, optionally of one managing user's estates. */
async function searchRenovations(kit: RenovationsKit, req: ServiceRequest) {
  const { reads, visibility, estateOf } = kit;
  const actor = actorOf(req);
  const q = parse(RenovationSearchQuery, req.query ?? {});
  const page = q.page ?? 1;
  const page_size = q.page_size ?? 20;
  const envelope = (total: number, data: unknown[]) => pageEnvelope(page, page_size, total, data);
  const visible = await visibility(actor);
  if (!visible) return envelope(0, []);
  const filter: Filter = { ...visible, ...(q.include_deleted ? {} : { deleted_at: null }) };
  if (q.external_user_id !== undefined) {
    const ids = await estatesManagedBy(kit, actor.organization_id, q.external_user_id, visible);
    if (ids.length === 0) return envelope(0, []);
    filter['estate_id'] = { $in: ids };
  }
  const sortBy = q.sort_by ?? 'created_at';
  const order = q.sort_order ?? 'DESC';
  const { items: docs, total } = await reads.query<RenovationDoc>(C.renovations, {
    filter,
    sort: [
      { field: sortBy, order },
      { field: sortBy === 'created_at' ? 'created_position' : 'updated_position', order },
    ],
    page,
    pageSize: page_size,
  });
  const data = await Promise.all(
    docs.map(async (doc) => {
      const estate = await estateOf(doc.estate_id);
      const manager = estate?.fields.managing_user_id;
      const external = manager ? ((await reads.get<UserDoc>(D.users, manager))?.external_id ?? null) : null;
      return renderSearchEntry(doc, estate, external);
    }),
  );
  return envelope(total, data);
}

/** The managing user's external id (identity) -> their estates (this context's copy), within what the actor sees. */
async function estatesManagedBy(
  kit: RenovationsKit,
  organization_id: string,
  external_user_id: string,
  visible: Filter,
): Promise<string[]> {
  const { reads } = kit;
  const { items: users } = await reads.query<UserDoc>(D.users, { filter: { external_id: external_user_id } });
  const { items: estates } = users.length
    ? await reads.query<EstateMirrorDoc>(M.estates, {
        filter: { organization_id, 'snapshot.fields.managing_user_id': { $in: users.map((u) => u.user_id) } },
      })
    : { items: [] };
  const allowed = new Set(estates.map((e) => e.id));
  const within = visible['estate_id'] as { $in: string[] } | undefined;
  return within ? within.$in.filter((id) => allowed.has(id)) : [...allowed];
}

function pageEnvelope(page: number, page_size: number, total: number, data: unknown[]) {
  const total_pages = Math.ceil(total / page_size);
  const prev_page = page > 1 ? Math.min(page - 1, Math.max(total_pages, 1)) : null;
  const next_page = page < total_pages ? page + 1 : null;
  return {
    page,
    page_size,
    total_pages,
    prev_page,
    next_page,
    total,
    has_prev_page: prev_page !== null,
    has_next_page: next_page !== null,
    data,
  };
}
