import type { Logger } from 'pino';
import { DomainError, type BlobStore, type Bus, type EventStore, type ReadStore, type RecordedEvent, notFound } from '@renopath/platform';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { readFolded, type StreamFold } from '@renopath/platform/service/stream-state-cache.ts';
import { ProjectionTimeoutError } from '@renopath/platform/projection-runner.ts';
import { commandContext, idParam } from '@renopath/platform/service/handler-kit.ts';
import type { EstateCommand, ServiceRequest } from '@renopath/contracts';
import { parseEstateEvent } from '../estate/estate.events.ts';
import { activeMembers, estateDecider, estateStream, type EstateState } from '../estate/estate.decider.ts';
import { C, type EstateDetailDoc } from '../estate-views/estate-views.projection.ts';
import type { EstateView } from '../estate-views/estate-view.ts';
import { renderEstate } from '../estate-views/estate-views.render.ts';
import { accessControl, type AccessControl } from '../access/access.ts';

export type Handler = (req: ServiceRequest) => Promise<unknown>;

export interface EstatesConfig {
  /** Base of the links the service hands out (referral pages). */
  publicUrl: string;
  settleTimeoutMs: number;
}

/** What follows a stored change before a reply may read it: the views and the process managers' effects. */
export interface Follower {
  waitFor(position: bigint, timeoutMs?: number): Promise<void>;
}

/** Ids are stored in lower case (paths are lowered too): a body's managing_user_id in any case names the same user. */
export const lowerIds = <B extends { managing_user_id?: string | null | undefined }>(body: B): B =>
  body.managing_user_id ? { ...body, managing_user_id: body.managing_user_id.toLowerCase() } : body;

/** The estate as `loadState` folds it (parsed events), named once so the stream state cache keeps its states apart from the decider's own. */
const parsedEstateFold: StreamFold<EstateState> = {
  initialState: () => estateDecider.initialState(),
  evolve: (state, event) => estateDecider.evolve(state, parseEstateEvent(event)),
};

export type EstatesKit = ReturnType<typeof estatesKit>;

/** The pieces every handler of the context shares: storage, access control, read-your-writes. */
export function estatesKit(deps: {
  bus: Bus;
  store: EventStore;
  reads: ReadStore;
  blobs: BlobStore;
  config: EstatesConfig;
  log: Logger;
  now: () => Date;
  /** Everything a write's reply waits for (the views, the process managers). */
  followers: Follower[];
}) {
  const { store, reads, config, now, followers } = deps;
  const access: AccessControl = accessControl(reads);
  const ctx = (req: Pick<ServiceRequest, 'actor' | 'correlation_id' | 'idempotency_key'>) => commandContext(req, now());

  /** A read model or process manager slower than the bound answers 503, but the change is stored all the same. */
  async function settle(position: bigint | null): Promise<void> {
    if (position === null) return;
    try {
      await Promise.all(followers.map((f) => f.waitFor(position, config.settleTimeoutMs)));
    } catch (err) {
      if (!(err instanceof ProjectionTimeoutError)) throw err;
      throw new DomainError(503, ['the change was saved but is not readable yet; read it again shortly']);
    }
  }

  async function loadState(estate_id: string): Promise<{ state: EstateState; events: RecordedEvent[] }> {
    const events = await store.readStream(estateStream(estate_id));
    return { state: fold(estateDecider, events.map(parseEstateEvent)), events };
  }

  /**
   * `loadState`'s state without the events: from the state this process folded last, evolved with the
   * events stored since (shared with later reads, so never changed by the caller).
   */
  async function currentState(estate_id: string): Promise<EstateState> {
    return (await readFolded(store, estateStream(estate_id), parsedEstateFold)).state;
  }

  async function currentView(estate_id: string): Promise<EstateDetailDoc & { view: EstateView }> {
    const doc = await reads.get<EstateDetailDoc>(C.detail, estate_id);
    if (!doc?.view) throw notFound('estate');
    return doc as EstateDetailDoc & { view: EstateView };
  }

  /**
   * Checks the caller may write (on `state` when the caller already read it, so a write reads its
   * stream once more only, in `handleCommand`) and runs the decider. What must follow a stored change
   * (freeing an external_id, deleting bytes) is the process managers' work, from the stored events.
   */
  async function record(
    req: ServiceRequest,
    estate_id: string,
    command: EstateCommand,
    options: { system?: boolean; state?: EstateState } = {},
  ) {
    const state = options.state ?? (await currentState(estate_id));
    if (state.status !== 'ACTIVE') throw notFound('estate');
    if (!options.system) await access.requireAccess(req, state.organization_id, activeMembers(state), 'WRITE');
    const result = await handleCommand(store, estateStream(estate_id), estateDecider, command, ctx(req));
    return { before: state, after: result.state, position: result.position };
  }

  /** `record`, then wait until the read models and process managers show the change. */
  async function write(
    req: ServiceRequest,
    estate_id: string,
    command: EstateCommand,
    options: { system?: boolean; state?: EstateState } = {},
  ) {
    const recorded = await record(req, estate_id, command, options);
    await settle(recorded.position);
    return recorded;
  }

  const detailReply = async (estate_id: string) => {
    const doc = await currentView(estate_id);
    return renderEstate(doc.view, doc.assessment, config.publicUrl);
  };

  return {
    ...deps,
    access,
    ctx,
    settle,
    loadState,
    currentView,
    record,
    write,
    detailReply,
    estateIdOf: (req: ServiceRequest) => idParam(req, 'estate_id', 'estate'),
  };
}
