import type { Logger } from 'pino';
import {
  DomainError,
  type Bus,
  type Closeable,
  type EventStore,
  type Filter,
  type ReadStore,
} from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { actorOf, commandContext, idParam, newId, parse, reactionContext, readYourWrites, serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import {
  CreateRenovationBody,
  isWriterRole,
  CreateRenovationFromTrajectoryBody,
  RenovationItemBody,
  RenovationOverviewQuery,
  RenovationSearchQuery,
  RenovationsSubjects as S,
  UpdateRenovationItemBody,
  type Actor,
  type ItemPlacement,
  type RenovationCommand,
  type RenovationHistoryEntry,
  type ServiceRequest,
} from '@renopath/contracts';
import { D, roleId, startDirectoryMirrorReactor, type RoleDoc, type UserDoc } from './directory-mirror/directory-mirror.reactor.ts';
import { cascadeEstateEvent } from './estate-cascade/estate-cascade.ts';
import { findOnFloor, type Snapshot } from './estate-mirror/estate-mirror.ts';
import { M, startEstateMirrorReactor, type EstateMemberDoc, type EstateMirrorDoc } from './estate-mirror/estate-mirror.reactor.ts';
import { renovationDecider, renovationStream } from './renovation/renovation.decider.ts';
import { RENOVATION_VIEWS } from './projections.ts';
import { C, replayRenovation, type RenovationDoc } from './renovation-views/renovation-views.projection.ts';
import {
  renderAvailableItems,
  renderGrants,
  renderItem,
  renderOverview,
  renderRecord,
  renderSearchEntry,
} from './renovation-views/renovation-views.render.ts';

export interface RenovationsConfig {
  settleTimeoutMs: number;
}

export interface RenovationsDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  config: RenovationsConfig;
  log: Logger;
  /** Read-your-writes across contexts: the reactors report what they have handled. */
  settlement?: Settlement;
  now?: () => Date;
}

export interface RenovationsService {
  projection: Projection;
  close(): Promise<void>;
}

type Handler = (req: ServiceRequest) => Promise<unknown>;

const notFound = (what: string) => new DomainError(404, [`${what} not found`]);

export async function startRenovations(deps: RenovationsDeps): Promise<RenovationsService> {
  const { bus, eventStore: store, readStore: reads, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const year = () => now().getUTCFullYear();

  const projection = runProjection({
    ...RENOVATION_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'renovation views projection failed; retrying'),
  });
  const settle = readYourWrites(projection, config.settleTimeoutMs);

  // ---- who may do what: the token's organization and role there, and estate memberships (docs/http-contract.md) ----

  const estateOf = async (estate_id: string): Promise<Snapshot | null> => (await reads.get<EstateMirrorDoc>(M.estates, estate_id))?.snapshot ?? null;
  const roleOf = async (actor: Actor) => (await reads.get<RoleDoc>(D.roles, roleId(actor.organization_id, actor.user_id)))?.member_type ?? null;

  /**
   * Owners and employees of the estate's organization, and its estate members (clients may build
   * renovations on the estates they are a member of), acting with a token of that organization.
   * Anyone else does not learn that the estate or its renovations exist.
   */
  async function mayUse(actor: Actor, estate: Snapshot): Promise<boolean> {
    if (estate.organization_id !== actor.organization_id) return false;
    const role = await roleOf(actor);
    if (!role) return false;
    return isWriterRole(role) || estate.members.includes(actor.user_id);
  }

  /** A renovation the caller may see; deleted ones only where the past stays readable (history, `as_of`). */
  async function renovationFor(req: ServiceRequest, options: { deleted?: boolean } = {}) {
    const actor = actorOf(req);
    const renovation_id = idParam(req, 'renovation_id', 'renovation');
    const doc = await reads.get<RenovationDoc>(C.renovations, renovation_id);
    if (!doc || (doc.deleted_at !== null && !options.deleted)) throw notFound('renovation');
    const estate = await estateOf(doc.estate_id);
    if (!estate || !(await mayUse(actor, estate))) throw notFound('renovation');
    return { doc, estate };
  }

  /** The place an item path names: a roof, a room or staircase (with its floor) of the renovation's estate, or the general scope. */
  function placementOf(req: ServiceRequest, estate: Snapshot): ItemPlacement {
    const none = { roof_id: null, floor_id: null, room_id: null, staircase_id: null };
    if (req.params?.['roof_id'] !== undefined) {
      const roof_id = idParam(req, 'roof_id', 'roof');
      if (!estate.roofs.some((r) => r.id === roof_id)) throw notFound('roof');
      return { ...none, scope: 'ROOF', roof_id };
    }
    if (req.params?.['room_id'] !== undefined) {
      const room_id = idParam(req, 'room_id', 'room');
      const found = findOnFloor(estate, 'rooms', room_id);
      if (!found) throw notFound('room');
      return { ...none, scope: 'ROOM', room_id, floor_id: found.floor.id };
    }
    if (req.params?.['staircase_id'] !== undefined) {
      const staircase_id = idParam(req, 'staircase_id', 'staircase');
      const found = findOnFloor(estate, 'staircases', staircase_id);
      if (!found) throw notFound('staircase');
      return { ...none, scope: 'STAIRCASE', staircase_id, floor_id: found.floor.id };
    }
    return { ...none, scope: 'GENERAL' };
  }

  const samePlace = (a: ItemPlacement, b: ItemPlacement) =>
    a.scope === b.scope && a.roof_id === b.roof_id && a.room_id === b.room_id && a.staircase_id === b.staircase_id;

  /** Decides, appends and waits until the read model shows the change. */
  async function run(req: ServiceRequest, renovation_id: string, command: RenovationCommand) {
    const result = await handleCommand(store, renovationStream(renovation_id), renovationDecider, command, commandContext(req, now()));
    await settle(result.position);
  }

  const current = async (renovation_id: string) => {
    const doc = await reads.get<RenovationDoc>(C.renovations, renovation_id);
    if (!doc) throw new Error(`renovation ${renovation_id} not projected`);
    return doc;
  };

  /** The renovations the caller sees: a filter on the read model, or null for none. */
  async function visibility(actor: Actor): Promise<Filter | null> {
    const role = await roleOf(actor);
    if (!role) return null;
    if (isWriterRole(role)) return { organization_id: actor.organization_id };
    const { items } = await reads.query<EstateMemberDoc>(M.estateMembers, { filter: { user_id: actor.user_id, organization_id: actor.organization_id } });
    return items.length ? { estate_id: { $in: items.map((m) => m.estate_id) } } : null;
  }

  function itemHandlers(): Record<'add' | 'list' | 'get' | 'update' | 'remove' | 'available', Handler> {
    const itemOf = (doc: RenovationDoc, placement: ItemPlacement, item_id: string) => {
      const item = doc.items.find((i) => i.item_id === item_id);
      if (!item || !samePlace(item.placement, placement)) throw notFound('renovation item');
      return item;
    };
    return {
      add: async (req) => {
        const { doc, estate } = await renovationFor(req);
        const placement = placementOf(req, estate);
        const body = parse(RenovationItemBody, req.body);
        const item_id = newId(req, 'renovation-item');
        await run(req, doc.id, { type: 'AddRenovationItem', renovation_id: doc.id, item_id, placement, ...body, estate, year: year() });
        return renderItem(await current(doc.id), itemOf(await current(doc.id), placement, item_id));
      },
      list: async (req) => {
        const { doc, estate } = await renovationFor(req);
        const placement = placementOf(req, estate);
        return doc.items.filter((i) => samePlace(i.placement, placement)).map((i) => renderItem(doc, i));
      },
      get: async (req) => {
        const { doc, estate } = await renovationFor(req);
        return renderItem(doc, itemOf(doc, placementOf(req, estate), idParam(req, 'item_id', 'renovation item')));
      },
      update: async (req) => {
        const { doc, estate } = await renovationFor(req);
        const placement = placementOf(req, estate);
        const item_id = idParam(req, 'item_id', 'renovation item');
        itemOf(doc, placement, item_id);
        const changes = parse(UpdateRenovationItemBody, req.body);
        await run(req, doc.id, { type: 'UpdateRenovationItem', renovation_id: doc.id, item_id, placement, changes, estate, year: year() });
        const after = await current(doc.id);
        return renderItem(after, itemOf(after, placement, item_id));
      },
      remove: async (req) => {
        const { doc, estate } = await renovationFor(req);
        const placement = placementOf(req, estate);
        const item_id = idParam(req, 'item_id', 'renovation item');
        const item = itemOf(doc, placement, item_id);
        await run(req, doc.id, { type: 'RemoveRenovationItem', renovation_id: doc.id, item_id, placement, estate, year: year() });
        return renderItem(doc, item);
      },
      available: async (req) => {
        const { estate } = await renovationFor(req);
        return renderAvailableItems(estate, placementOf(req, estate));
      },
    };
  }

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

  const items = itemHandlers();

  const handlers: Record<string, Handler> = {
    [S.createRenovation]: async (req) => {
      const actor = actorOf(req);
      const body = parse(CreateRenovationBody, req.body);
      const estate_id = body.estate_id.toLowerCase();
      const estate = await estateOf(estate_id);
      if (!estate || estate.deleted || !(await mayUse(actor, estate))) throw notFound('estate');
      const renovation_id = newId(req, 'renovation');
      await run(req, renovation_id, { type: 'CreateRenovation', renovation_id, renovation_name: body.renovation_name ?? null, estate, year: year() });
      return { id: renovation_id, estate_id };
    },

    /**
     * Internal (the trajectory worker): the renovation made of a plan's steps, with the job's actor.
     * The same access as `POST /renovations` (the `renovations` scope the gateway checks over HTTP, then
     * the estate); 404 also while this context's copy of the estate (or a roof) lags, so the caller retries.
     */
    [S.createFromTrajectory]: async (req) => {
      const actor = actorOf(req);
      if (!actor.scopes.includes('renovations')) throw new DomainError(403, []);
      const body = parse(CreateRenovationFromTrajectoryBody, req.body);
      const estate_id = body.estate_id.toLowerCase();
      const renovation_id = body.renovation_id.toLowerCase();
      const estate = await estateOf(estate_id);
      if (!estate || estate.deleted || !(await mayUse(actor, estate))) throw notFound('estate');
      await run(req, renovation_id, {
        type: 'CreateRenovationFromTrajectory',
        renovation_id,
        renovation_name: body.name,
        calculation_job_id: body.calculation_job_id.toLowerCase(),
        items: body.items,
        income_category: body.income_category ?? null,
        estate,
        year: body.year ?? year(),
      });
      return { id: renovation_id, estate_id };
    },

    [S.listRenovations]: async (req) => {
      const filter = await visibility(actorOf(req));
      if (!filter) return [];
      const { items: docs } = await reads.query<RenovationDoc>(C.renovations, {
        filter: { ...filter, deleted_at: null },
        sort: [{ field: 'created_at', order: 'DESC' }, { field: 'created_position', order: 'DESC' }],
      });
      return docs.map(renderRecord);
    },

    [S.getRenovation]: async (req) => ({ ...renderRecord((await renovationFor(req)).doc), files: [] }),

    [S.deleteRenovation]: async (req) => {
      const { doc } = await renovationFor(req);
      await run(req, doc.id, { type: 'DeleteRenovation', renovation_id: doc.id, reason: 'DELETED' });
      return renderRecord(await current(doc.id));
    },

    [S.overview]: async (req) => {
      const { summary, details } = await overviewOf(req);
      return { summary, ...details };
    },
    [S.overviewV1]: overviewOf,

    [S.governmentGrants]: async (req) => renderGrants((await renovationFor(req)).doc),

    [S.search]: async (req) => {
      const actor = actorOf(req);
      const q = parse(RenovationSearchQuery, req.query ?? {});
      const page = q.page ?? 1;
      const page_size = q.page_size ?? 20;
      const envelope = (total: number, data: unknown[]) => {
        const total_pages = Math.ceil(total / page_size);
        const prev_page = page > 1 ? Math.min(page - 1, Math.max(total_pages, 1)) : null;
        const next_page = page < total_pages ? page + 1 : null;
        return { page, page_size, total_pages, prev_page, next_page, total, has_prev_page: prev_page !== null, has_next_page: next_page !== null, data };
      };
      const visible = await visibility(actor);
      if (!visible) return envelope(0, []);
      const filter: Filter = { ...visible, ...(q.include_deleted ? {} : { deleted_at: null }) };
      if (q.external_user_id !== undefined) {
        // The managing user's external id (identity) -> their estates (this context's copy) -> those estates' renovations.
        const { items: users } = await reads.query<UserDoc>(D.users, { filter: { external_id: q.external_user_id } });
        const { items: estates } = users.length
          ? await reads.query<EstateMirrorDoc>(M.estates, {
              filter: { organization_id: actor.organization_id, 'snapshot.fields.managing_user_id': { $in: users.map((u) => u.user_id) } },
            })
          : { items: [] };
        const allowed = new Set(estates.map((e) => e.id));
        const within = visible['estate_id'] as { $in: string[] } | undefined;
        const ids = within ? within.$in.filter((id) => allowed.has(id)) : [...allowed];
        if (ids.length === 0) return envelope(0, []);
        filter['estate_id'] = { $in: ids };
      }
      const sortBy = q.sort_by ?? 'created_at';
      const order = q.sort_order ?? 'DESC';
      const { items: docs, total } = await reads.query<RenovationDoc>(C.renovations, {
        filter,
        sort: [{ field: sortBy, order }, { field: sortBy === 'created_at' ? 'created_position' : 'updated_position', order }],
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
    },

    [S.history]: async (req) => {
      const { doc } = await renovationFor(req, { deleted: true });
      const events = await store.readStream(renovationStream(doc.id));
      return events.map((e): RenovationHistoryEntry => ({
        event_id: e.event_id,
        type: e.type,
        revision: Number(e.revision),
        occurred_at: e.occurred_at,
        actor: e.metadata.actor,
        correlation_id: e.metadata.correlation_id,
        causation_id: e.metadata.causation_id,
        data: e.data,
      }));
    },

    [S.addItem]: items.add,
    [S.listItems]: items.list,
    [S.getItem]: items.get,
    [S.updateItem]: items.update,
    [S.removeItem]: items.remove,
    [S.availableItems]: items.available,
  };

  const subscriptions: Closeable[] = await serveMessages(bus, handlers);
  const withSettlement = deps.settlement ? { settlement: deps.settlement } : {};
  subscriptions.push(await startDirectoryMirrorReactor({ bus, readStore: reads, log, ...withSettlement }));
  subscriptions.push(
    await startEstateMirrorReactor({
      bus,
      readStore: reads,
      log,
      ...withSettlement,
      cascade: (envelope, event, snapshot) =>
        cascadeEstateEvent(
          {
            year,
            liveRenovationsOf: async (estate_id) =>
              (await reads.query<RenovationDoc>(C.renovations, { filter: { estate_id, deleted_at: null } })).items.map((d) => d.id),
            run: async (renovation_id, command, cause) => {
              const result = await handleCommand(store, renovationStream(renovation_id), renovationDecider, command, reactionContext(cause, now()));
              await settle(result.position);
            },
          },
          envelope,
          event,
          snapshot,
        ),
    }),
  );
  log.info({ subjects: Object.keys(handlers).length }, 'renovations service ready');

  return {
    projection,
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}
