import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  DomainError,
  type BlobStore,
  type Bus,
  type Closeable,
  type EventStore,
  type ReadStore,
  type RecordedEvent,
} from '@renopath/platform';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { actorOf, commandContext, newId, parse, reactionContext, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import {
  AddEstateMemberBody,
  CreateEstateBody,
  CreateFloorBody,
  CreateRoofBody,
  CreateRoomBody,
  CreateStaircaseBody,
  EstateCommands,
  EstateListQuery,
  EstatesSubjects as S,
  GetEstateQuery,
  IdentitySubjects,
  UpdateEstateBody,
  UpdateFloorBody,
  UpdateRoofBody,
  UpdateRoomBody,
  UpdateStaircaseBody,
  UploadedFile,
  type Actor,
  type EstateCommand,
  type EstateEvent,
  type FileKind,
  type MemberType,
  type OrganizationMember,
  type ServiceRequest,
  type User,
} from '@renopath/contracts';
import { activeMembers, estateDecider, estateStream, type EstateState } from './estate/estate.decider.ts';
import { historyEntry } from './history/estate-history.ts';
import { replayEstate, type EstateView } from './estate-views/estate-view.ts';
import {
  C,
  ESTATE_STREAM_PREFIX,
  ESTATE_VIEWS_PROJECTION,
  projectEstateViews,
  type EstateDetailDoc,
  type EstateListDoc,
  type MembershipDoc,
  type ReferralDoc,
} from './estate-views/estate-views.projection.ts';
import { renderEstate, renderFile, renderListForm, renderListItem, renderReferral, renderViewListForm } from './estate-views/estate-views.render.ts';
import { MODEL_VERSION } from '@renopath/energy';
import { assessEstate } from './quality/quality.ts';
import { externalIdDecider, externalIdStream } from './external-id/external-id.decider.ts';
import { startMemberActivationReactor } from './reactors/member-activation.reactor.ts';
import { startMemberDetailsReactor } from './reactors/member-details.reactor.ts';
import { startOrganizationMembersReactor } from './reactors/organization-members.reactor.ts';

export interface EstatesConfig {
  /** Base of the links the service hands out (referral pages). */
  publicUrl: string;
  settleTimeoutMs: number;
}

export interface EstatesDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  /** Shared with the gateway, which writes uploads into it and serves signed downloads from it. */
  blobs: BlobStore;
  config: EstatesConfig;
  log: Logger;
  /** Read-your-writes across contexts: the reactors report what they have handled. */
  settlement?: Settlement;
  now?: () => Date;
}

export interface EstatesService {
  projection: Projection;
  close(): Promise<void>;
}

type Access = 'READ' | 'WRITE';
type Handler = (req: ServiceRequest) => Promise<unknown>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFERRAL_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;
const WRITER_ROLES: ReadonlySet<MemberType> = new Set(['OWNER', 'EMPLOYEE']);
const notFound = (what: string) => new DomainError(404, [`${what} not found`]);

const toDomainEvent = (e: RecordedEvent) => ({ type: e.type, data: e.data }) as EstateEvent;

/** Ids are stored in lower case (paths are lowered too): a body's managing_user_id in any case names the same user. */
const lowerIds = <B extends { managing_user_id?: string | null | undefined }>(body: B): B =>
  body.managing_user_id ? { ...body, managing_user_id: body.managing_user_id.toLowerCase() } : body;

export async function startEstates(deps: EstatesDeps): Promise<EstatesService> {
  const { bus, eventStore: store, readStore: reads, blobs, config, log } = deps;
  const now = deps.now ?? (() => new Date());

  const projection = runProjection({
    name: ESTATE_VIEWS_PROJECTION,
    eventStore: store,
    readStore: reads,
    collections: Object.values(C),
    streamPrefixes: [ESTATE_STREAM_PREFIX],
    handle: projectEstateViews,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'estate views projection failed; retrying'),
  });

  await rebuildWhenModelChanged(reads, projection, log);

  const ctx = (req: Pick<ServiceRequest, 'actor' | 'correlation_id'>) => commandContext(req, now());
  const settle = readYourWrites(projection, config.settleTimeoutMs);

  // ---- who may do what (API.md 3) ----

  /**
   * The caller's role in the token's organization, from identity: active memberships only, read at
   * once, so a removed member loses access at once. The user's other organizations grant nothing here.
   */
  async function roleOf(req: ServiceRequest): Promise<MemberType | null> {
    const actor = actorOf(req);
    const [user] = await bus.request<User[]>(IdentitySubjects.me, { actor: req.actor, correlation_id: req.correlation_id, params: {}, query: {}, body: {} });
    return user?.organizations.find((m) => m.organization_id === actor.organization_id)?.member_type ?? null;
  }

  /**
   * Owners and employees of the estate's organization write; its estate members read, once they
   * accepted and while they are still in that organization. Only a token of the estate's organization
   * counts. Anyone else does not learn that the estate exists.
   */
  function accessOf(role: MemberType | null, actor: Actor, organization_id: string, activeMemberIds: Iterable<string>): Access | null {
    if (organization_id !== actor.organization_id || !role) return null;
    if (WRITER_ROLES.has(role)) return 'WRITE';
    if ([...activeMemberIds].includes(actor.user_id)) return 'READ';
    return null;
  }

  async function requireAccess(req: ServiceRequest, organization_id: string, activeMemberIds: Iterable<string>, need: Access) {
    const actor = actorOf(req);
    const access = accessOf(await roleOf(req), actor, organization_id, activeMemberIds);
    if (!access) throw notFound('estate');
    if (need === 'WRITE' && access !== 'WRITE') throw new DomainError(403, ['only owners and employees of the organization may change an estate']);
    return access;
  }

  const estateIdOf = (req: ServiceRequest) => idParam(req, 'estate_id', 'estate');

  async function loadState(estate_id: string): Promise<{ state: EstateState; events: RecordedEvent[] }> {
    const events = await store.readStream(estateStream(estate_id));
    return { state: fold(estateDecider, events.map(toDomainEvent)), events };
  }

  /** The current detailed form, for a reader with at least `need`, as that reader may see it. */
  async function readable(req: ServiceRequest, need: Access = 'READ') {
    const estate_id = estateIdOf(req);
    const doc = await reads.get<EstateDetailDoc>(C.detail, estate_id);
    if (!doc?.view) throw notFound('estate');
    const access = await requireAccess(req, doc.view.organization_id, activeIn(doc.view), need);
    return { view: asSeenBy(doc.view, access, actorOf(req)), assessment: doc.assessment };
  }

  async function currentView(estate_id: string): Promise<EstateDetailDoc & { view: EstateView }> {
    const doc = await reads.get<EstateDetailDoc>(C.detail, estate_id);
    if (!doc?.view) throw notFound('estate');
    return doc as EstateDetailDoc & { view: EstateView };
  }

  /**
   * Reads the stream, checks the caller may write and runs the decider. What must follow a stored change
   * (freeing an external_id, deleting bytes) goes between this and `settle`: a read model slower than the
   * settle bound answers 503, but the change is stored all the same.
   */
  async function record(req: ServiceRequest, estate_id: string, command: EstateCommand, options: { system?: boolean } = {}) {
    const { state } = await loadState(estate_id);
    if (state.status !== 'ACTIVE') throw notFound('estate');
    if (!options.system) await requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
    const result = await handleCommand(store, estateStream(estate_id), estateDecider, command, ctx(req));
    return { before: state, after: result.state, position: result.position };
  }

  /** `record`, then wait until the read models show the change. */
  async function write(req: ServiceRequest, estate_id: string, command: EstateCommand, options: { system?: boolean } = {}) {
    const recorded = await record(req, estate_id, command, options);
    await settle(recorded.position);
    return recorded;
  }

  /** `managing_user_id` must be a member of the estate's organization (API.md 4.3). */
  async function checkManagingUser(req: ServiceRequest, organization_id: string, user_id: string | null | undefined) {
    if (!user_id) return;
    const members = await bus.request<OrganizationMember[]>(IdentitySubjects.organizationMembers, {
      actor: req.actor, correlation_id: req.correlation_id, params: { organization_id }, query: {}, body: {},
    });
    // An invitee who has not accepted is nobody's manager yet.
    if (!members.some((m) => m.user_id === user_id && m.status !== 'PENDING')) {
      throw new DomainError(400, ["managing_user_id must be a user of the estate's organization"]);
    }
  }

  const detailReply = async (estate_id: string) => {
    const doc = await currentView(estate_id);
    return renderEstate(doc.view, doc.assessment, config.publicUrl);
  };

  /**
   * Estates the caller sees, in the token's organization only: all of them for its owners and
   * employees, the ones they accepted an invitation to for its clients.
   */
  async function visibleList(req: ServiceRequest, filter: z.infer<typeof EstateListQuery>): Promise<EstateListDoc[]> {
    const actor = actorOf(req);
    const role = await roleOf(req);
    if (!role) return [];
    const extra = {
      ...(filter.external_id !== undefined ? { external_id: filter.external_id } : {}),
      ...(filter.estate_provider_type !== undefined ? { estate_provider_type: filter.estate_provider_type } : {}),
    };
    let all: EstateListDoc[];
    if (WRITER_ROLES.has(role)) {
      all = (await reads.query<EstateListDoc>(C.list, { filter: { organization_id: actor.organization_id, ...extra } })).items;
    } else {
      const { items: memberships } = await reads.query<MembershipDoc>(C.memberships, { filter: { user_id: actor.user_id, organization_id: actor.organization_id } });
      const memberOf = memberships.filter((m) => m.status !== 'PENDING').map((m) => m.estate_id);
      all = memberOf.length ? (await reads.query<EstateListDoc>(C.list, { filter: { _id: { $in: memberOf }, ...extra } })).items : [];
    }
    // Newest first; the id breaks ties so the order is stable.
    return all.sort((a, b) => (a.created_at === b.created_at ? a.id.localeCompare(b.id) : b.created_at.localeCompare(a.created_at)));
  }

  // ---- parts: one shape for roofs, floors, rooms and staircases ----

  type PartKind = 'roof' | 'floor' | 'room' | 'staircase';
  const partsOf = (view: EstateView, kind: PartKind, floor_id: string | null): Array<{ id: string }> => {
    if (kind === 'roof') return view.roofs;
    if (kind === 'floor') return view.floors;
    const floor = view.floors.find((f) => f.id === floor_id);
    if (!floor) throw notFound('floor');
    return kind === 'room' ? floor.rooms : floor.staircases;
  };
  const findPart = (view: EstateView, kind: PartKind, floor_id: string | null, id: string) => {
    const part = partsOf(view, kind, floor_id).find((p) => p.id === id);
    if (!part) throw notFound(kind);
    return part;
  };
  const floorIdOf = (req: ServiceRequest, kind: PartKind) => (kind === 'room' || kind === 'staircase' ? idParam(req, 'floor_id', 'floor') : null);

  const PART_COMMANDS = {
    roof: { create: CreateRoofBody, update: UpdateRoofBody, add: 'AddRoof', change: 'UpdateRoof', remove: 'RemoveRoof' },
    floor: { create: CreateFloorBody, update: UpdateFloorBody, add: 'AddFloor', change: 'UpdateFloor', remove: 'RemoveFloor' },
    room: { create: CreateRoomBody, update: UpdateRoomBody, add: 'AddRoom', change: 'UpdateRoom', remove: 'RemoveRoom' },
    staircase: { create: CreateStaircaseBody, update: UpdateStaircaseBody, add: 'AddStaircase', change: 'UpdateStaircase', remove: 'RemoveStaircase' },
  } as const;

  function partHandlers(kind: PartKind): { list: Handler; get: Handler; add: Handler; update: Handler; remove: Handler } {
    const spec = PART_COMMANDS[kind];
    const idKey = `${kind}_id`;
    const ids = (req: ServiceRequest) => {
      const floor_id = floorIdOf(req, kind);
      return { estate_id: estateIdOf(req), ...(floor_id ? { floor_id } : {}) } as { estate_id: string; floor_id?: string };
    };
    return {
      list: async (req) => {
        const { view } = await readable(req);
        return partsOf(view, kind, floorIdOf(req, kind));
      },
      get: async (req) => {
        const { view } = await readable(req);
        return findPart(view, kind, floorIdOf(req, kind), idParam(req, idKey, kind));
      },
      add: async (req) => {
        const base = ids(req);
        const fields = parse(spec.create, req.body);
        const part_id = newId(req, kind);
        await write(req, base.estate_id, { type: spec.add, ...base, [idKey]: part_id, fields } as EstateCommand);
        return findPart((await currentView(base.estate_id)).view, kind, base.floor_id ?? null, part_id);
      },
      update: async (req) => {
        const base = ids(req);
        const part_id = idParam(req, idKey, kind);
        const changes = parse(spec.update, req.body);
        await write(req, base.estate_id, { type: spec.change, ...base, [idKey]: part_id, changes } as EstateCommand);
        return findPart((await currentView(base.estate_id)).view, kind, base.floor_id ?? null, part_id);
      },
      remove: async (req) => {
        const base = ids(req);
        const part_id = idParam(req, idKey, kind);
        const before = await reads.get<EstateDetailDoc>(C.detail, base.estate_id);
        await write(req, base.estate_id, { type: spec.remove, ...base, [idKey]: part_id } as EstateCommand);
        return before?.view ? findPart(before.view, kind, base.floor_id ?? null, part_id) : {};
      },
    };
  }

  // ---- files and media ----

  function fileHandlers(kind: FileKind): { add: Handler; remove: Handler } {
    const list = kind === 'FILE' ? 'files' : 'media';
    const what = kind === 'FILE' ? 'file' : 'medium';
    return {
      add: async (req) => {
        const estate_id = estateIdOf(req);
        const upload = parse(UploadedFile, req.body);
        if (!(await blobs.head(upload.blob_key))) throw new DomainError(400, ['the uploaded file is not in the blob store']);
        const file_id = newId(req, 'file');
        await write(req, estate_id, { type: 'AddFile', estate_id, file_id, kind, upload });
        const file = (await currentView(estate_id)).view[list].find((f) => f.id === file_id);
        if (!file) throw new Error('file not projected');
        return renderFile(file);
      },
      remove: async (req) => {
        const estate_id = estateIdOf(req);
        const file_id = idParam(req, 'file_id', what);
        const before = await reads.get<EstateDetailDoc>(C.detail, estate_id);
        const { before: state, position } = await record(req, estate_id, { type: 'RemoveFile', estate_id, file_id, kind });
        // The bytes go with the file, so its download links answer 404 from now on.
        await blobs.delete(state.files[file_id]!.blob_key);
        await settle(position);
        const file = before?.view?.[list].find((f) => f.id === file_id);
        return file ? renderFile(file, false) : {};
      },
    };
  }

  const roofs = partHandlers('roof');
  /** Reserves (or frees) an organization's external_id for one estate; see external-id.decider.ts. */
  const externalId = (req: ServiceRequest, type: 'ClaimExternalId' | 'ReleaseExternalId', organization_id: string, external_id: string, estate_id: string) =>
    handleCommand(store, externalIdStream(organization_id, external_id), externalIdDecider, { type, organization_id, external_id, estate_id }, ctx(req));

  const floors = partHandlers('floor');
  const rooms = partHandlers('room');
  const staircases = partHandlers('staircase');
  const files = fileHandlers('FILE');
  const media = fileHandlers('MEDIA');

  const handlers: Record<string, Handler> = {
    [S.createEstate]: async (req) => {
      const actor = actorOf(req);
      const body = lowerIds(parse(CreateEstateBody, req.body));
      const role = await roleOf(req);
      if (!role || !WRITER_ROLES.has(role)) throw new DomainError(403, ['only owners and employees of the organization may create estates']);
      await checkManagingUser(req, actor.organization_id, body.managing_user_id);
      const estate_id = newId(req, 'estate');
      const { estate_provider_type = 'API', ...fields } = body;
      const external = fields.external_id ?? null;
      if (external) await externalId(req, 'ClaimExternalId', actor.organization_id, external, estate_id);
      let result;
      try {
        result = await handleCommand(store, estateStream(estate_id), estateDecider, {
          type: 'CreateEstate',
          estate_id,
          organization_id: actor.organization_id,
          estate_provider_type,
          referral_token: randomBytes(24).toString('base64url'),
          fields,
        }, ctx(req));
      } catch (err) {
        // The estate was refused (e.g. a postal code of the wrong country): its external_id stays free.
        if (external) await externalId(req, 'ReleaseExternalId', actor.organization_id, external, estate_id);
        throw err;
      }
      await settle(result.position);
      return detailReply(estate_id);
    },

    [S.listEstates]: async (req) => (await visibleList(req, {})).map((doc) => renderListForm(doc, config.publicUrl)),

    [S.estateList]: async (req) => {
      const filter = parse(EstateListQuery, req.query ?? {});
      return { estates: (await visibleList(req, filter)).map((doc) => renderListItem(doc, config.publicUrl)) };
    },

    [S.getEstate]: async (req) => {
      const query = parse(GetEstateQuery, req.query ?? {});
      if (query.as_of === undefined) {
        const { view, assessment } = await readable(req);
        return renderEstate(view, assessment, config.publicUrl);
      }
      // Replays the stream to that moment; a deleted estate's past stays readable (API.md 4.3).
      const estate_id = estateIdOf(req);
      const { state, events } = await loadState(estate_id);
      if (state.status === 'NONE') throw notFound('estate');
      const access = await requireAccess(req, state.organization_id, activeMembers(state), 'READ');
      const asOf = Date.parse(query.as_of);
      const past = replayEstate(events.filter((e) => Date.parse(e.occurred_at) <= asOf));
      if (!past) throw new DomainError(404, [`estate did not exist at ${query.as_of}`]);
      const view = asSeenBy(past, access, actorOf(req));
      return renderEstate(view, assessEstate(view), config.publicUrl, (file_id) => file_id in state.files);
    },

    [S.updateEstate]: async (req) => {
      const estate_id = estateIdOf(req);
      const changes = lowerIds(parse(UpdateEstateBody, req.body));
      const { state } = await loadState(estate_id);
      if (state.status === 'ACTIVE' && changes.managing_user_id) {
        await requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
        await checkManagingUser(req, state.organization_id, changes.managing_user_id);
      }
      const before = state.fields.external_id;
      const after = changes.external_id === undefined ? before : changes.external_id;
      const moving = state.status === 'ACTIVE' && after !== before;
      if (moving) {
        await requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
        if (after) await externalId(req, 'ClaimExternalId', state.organization_id, after, estate_id);
      }
      let position: bigint | null;
      try {
        ({ position } = await record(req, estate_id, { type: 'UpdateEstate', estate_id, changes }));
      } catch (err) {
        if (moving && after) await externalId(req, 'ReleaseExternalId', state.organization_id, after, estate_id);
        throw err;
      }
      if (moving && before) await externalId(req, 'ReleaseExternalId', state.organization_id, before, estate_id);
      await settle(position);
      return detailReply(estate_id);
    },

    [S.deleteEstate]: async (req) => {
      const estate_id = estateIdOf(req);
      const before = await reads.get<EstateDetailDoc>(C.detail, estate_id);
      const { before: state, position } = await record(req, estate_id, { type: 'DeleteEstate', estate_id });
      for (const file of Object.values(state.files)) await blobs.delete(file.blob_key);
      if (state.fields.external_id) await externalId(req, 'ReleaseExternalId', state.organization_id, state.fields.external_id, estate_id);
      await settle(position);
      return before?.view ? renderViewListForm(before.view, before.assessment, config.publicUrl) : {};
    },

    [S.history]: async (req) => {
      const estate_id = estateIdOf(req);
      const { state, events } = await loadState(estate_id);
      if (state.status === 'NONE') throw notFound('estate');
      const access = await requireAccess(req, state.organization_id, activeMembers(state), 'READ');
      const reader = { actor: actorOf(req), client: access === 'READ' };
      return events.map((e) => historyEntry(e, reader));
    },

    [S.addFile]: files.add,
    [S.removeFile]: files.remove,
    [S.addMedia]: media.add,
    [S.removeMedia]: media.remove,

    [S.listRoofs]: roofs.list,
    [S.getRoof]: roofs.get,
    [S.addRoof]: roofs.add,
    [S.updateRoof]: roofs.update,
    [S.removeRoof]: roofs.remove,
    [S.listFloors]: floors.list,
    [S.getFloor]: floors.get,
    [S.addFloor]: floors.add,
    [S.updateFloor]: floors.update,
    [S.removeFloor]: floors.remove,
    [S.listRooms]: rooms.list,
    [S.getRoom]: rooms.get,
    [S.addRoom]: rooms.add,
    [S.updateRoom]: rooms.update,
    [S.removeRoom]: rooms.remove,
    [S.listStaircases]: staircases.list,
    [S.getStaircase]: staircases.get,
    [S.addStaircase]: staircases.add,
    [S.updateStaircase]: staircases.update,
    [S.removeStaircase]: staircases.remove,

    [S.listMembers]: async (req) => (await readable(req)).view.members,

    [S.addMember]: async (req) => {
      const estate_id = estateIdOf(req);
      const body = parse(AddEstateMemberBody, req.body);
      const { state } = await loadState(estate_id);
      if (state.status !== 'ACTIVE') throw notFound('estate');
      await requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
      // Identity invites the person as a CLIENT of the organization (an active member keeps their role and
      // is active here at once); an invitee is PENDING, under the names given here, until they accept.
      const member = await bus.request<OrganizationMember>(IdentitySubjects.attachClientMember, {
        actor: req.actor,
        correlation_id: req.correlation_id,
        // A retried invitation (its first attempt died) is the same invitation in identity too.
        ...(req.idempotency_key ? { idempotency_key: req.idempotency_key } : {}),
        params: {},
        query: {},
        body: { organization_id: state.organization_id, ...body, estate_id },
      });
      const { user_id, email_address, first_name, last_name, status } = member;
      await write(req, estate_id, { type: 'AddEstateMember', estate_id, user_id, email_address, first_name, last_name, status });
      const added = (await currentView(estate_id)).view.members.find((m) => m.user_id === user_id);
      if (!added) throw new Error('member not projected');
      return added;
    },

    [S.removeMember]: async (req) => {
      const estate_id = estateIdOf(req);
      const user_id = idParam(req, 'member_id', 'member');
      const before = await reads.get<EstateDetailDoc>(C.detail, estate_id);
      await write(req, estate_id, { type: 'RemoveEstateMember', estate_id, user_id, reason: 'REMOVED_FROM_ESTATE' });
      return before?.view?.members.find((m) => m.user_id === user_id) ?? {};
    },

    [S.referral]: async (req) => {
      const token = String(req.params['token'] ?? '');
      if (!REFERRAL_TOKEN_RE.test(token)) throw notFound('page');
      const referral = await reads.get<ReferralDoc>(C.referrals, token);
      const doc = referral && (await reads.get<EstateListDoc>(C.list, referral.estate_id));
      if (!doc) throw notFound('page');
      return renderReferral(doc);
    },

    [S.recordTrajectoryQuality]: async (req) => {
      const body = parse(EstateCommands.RecordTrajectoryQuality, req.body);
      await write(req, body.estate_id.toLowerCase(), { type: 'RecordTrajectoryQuality', ...body, estate_id: body.estate_id.toLowerCase() }, { system: true });
      const doc = await currentView(body.estate_id.toLowerCase());
      return renderEstate(doc.view, doc.assessment, config.publicUrl);
    },
  };

  const subscriptions: Closeable[] = [];
  for (const [subject, handler] of Object.entries(handlers)) {
    subscriptions.push(await bus.handle(subject, (payload) => handler(payload as ServiceRequest)));
  }
  subscriptions.push(
    await startOrganizationMembersReactor({
      bus,
      readStore: reads,
      log,
      ...(deps.settlement ? { settlement: deps.settlement } : {}),
      removeMember: async (event, estate_id, user_id) => {
        const result = await handleCommand(store, estateStream(estate_id), estateDecider, {
          type: 'RemoveEstateMember', estate_id, user_id, reason: 'LEFT_ORGANIZATION',
        }, reactionContext(event, now()));
        await settle(result.position);
      },
    }),
  );
  subscriptions.push(
    await startMemberActivationReactor({
      bus,
      readStore: reads,
      log,
      ...(deps.settlement ? { settlement: deps.settlement } : {}),
      activateMember: async (event, estate_id, user_id) => {
        const result = await handleCommand(store, estateStream(estate_id), estateDecider, {
          type: 'ActivateEstateMember', estate_id, user_id,
        }, reactionContext(event, now()));
        await settle(result.position);
      },
    }),
  );
  subscriptions.push(
    await startMemberDetailsReactor({
      bus,
      readStore: reads,
      log,
      ...(deps.settlement ? { settlement: deps.settlement } : {}),
      updateMember: async (event, estate_id, user_id, changes) => {
        const result = await handleCommand(store, estateStream(estate_id), estateDecider, {
          type: 'UpdateEstateMemberDetails', estate_id, user_id, changes,
        }, reactionContext(event, now()));
        await settle(result.position);
      },
    }),
  );
  log.info({ subjects: Object.keys(handlers).length }, 'estates service ready');

  return {
    projection,
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}

/** Members whose invitation was accepted (views of earlier versions carry no status: all active). */
const activeIn = (view: EstateView) => view.members.filter((m) => m.status !== 'PENDING').map((m) => m.user_id);

/**
 * What a reader sees of an estate: a CLIENT (an invited buyer) sees themself among the members, never
 * the other buyers (their names and addresses are not theirs to read).
 */
function asSeenBy(view: EstateView, access: Access, actor: Actor): EstateView {
  return access === 'WRITE' ? view : { ...view, members: view.members.filter((m) => m.user_id === actor.user_id) };
}

/** Kept outside the projection's collections, so a rebuild does not erase it. */
const META = 'estates_meta';

/**
 * The stored quality labels and estimates come from the energy model: when its version changes,
 * the views are rebuilt from the events so every estate is graded by the model in use.
 */
async function rebuildWhenModelChanged(reads: ReadStore, projection: Projection, log: Logger) {
  const stored = await reads.get<{ model_version: string }>(META, 'energy-model');
  if (stored?.model_version === MODEL_VERSION) return;
  if (stored) {
    log.info({ from: stored.model_version, to: MODEL_VERSION }, 'energy model changed: rebuilding the estate views');
    await projection.rebuild();
  }
  await reads.transaction((tx) => tx.put(META, 'energy-model', { model_version: MODEL_VERSION }));
}


/** A path id that is not a UUID names nothing (404), like an id of another tenant. */
function idParam(req: ServiceRequest, key: string, what: string): string {
  const value = String(req.params?.[key] ?? '').toLowerCase();
  if (!UUID_RE.test(value)) throw notFound(what);
  return value;
}

