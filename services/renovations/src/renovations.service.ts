import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, EventStore, ReadStore } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { reactionContext, serveMessages } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { RenovationsSubjects as S, type RenovationCommand } from '@renopath/contracts';
import { startCalculationJobsReactor } from './calculation-jobs/calculation-jobs.reactor.ts';
import { startDirectoryMirrorReactor } from './directory-mirror/directory-mirror.reactor.ts';
import { cascadeEstateEvent } from './estate-cascade/estate-cascade.ts';
import { startEstateMirrorReactor } from './estate-mirror/estate-mirror.reactor.ts';
import { renovationsKit, type Handler, type RenovationsConfig } from './kit/renovations-kit.ts';
import { RENOVATION_VIEWS } from './projections.ts';
import { renovationDecider, renovationStream } from './renovation/renovation.decider.ts';
import { renovationHandlers } from './renovation/renovation.handlers.ts';
import { itemHandlers } from './renovation/renovation-items.handlers.ts';
import { C, type RenovationDoc } from './renovation-views/renovation-views.projection.ts';
import { renovationQueries } from './renovation-views/renovation.queries.ts';

export type { RenovationsConfig } from './kit/renovations-kit.ts';

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

/**
 * The renovations context: starts its projection and reactors (its copies of identity's roles and of
 * the estates, whose changes cascade to the renovations), and wires each bus subject to its handler.
 * The handlers live with their aggregate or read model.
 */
export async function startRenovations(deps: RenovationsDeps): Promise<RenovationsService> {
  const { bus, eventStore: store, readStore: reads, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const projection = runProjection({
    ...RENOVATION_VIEWS,
    eventStore: store,
    readStore: reads,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'renovation views projection failed; retrying'),
  });
  const kit = renovationsKit({ store, reads, projection, config, log, now });
  const { year, settle } = kit;
  const renovation = renovationHandlers(kit);
  const items = itemHandlers(kit);
  const queries = renovationQueries(kit);

  const handlers: Record<string, Handler> = {
    [S.createRenovation]: renovation.create,
    [S.createFromTrajectory]: renovation.createFromTrajectory,
    [S.deleteRenovation]: renovation.remove,
    [S.listRenovations]: queries.list,
    [S.getRenovation]: queries.get,
    [S.overview]: queries.overview,
    [S.overviewV1]: queries.overviewV1,
    [S.governmentGrants]: queries.governmentGrants,
    [S.search]: queries.search,
    [S.history]: queries.history,
    [S.addItem]: items.add,
    [S.listItems]: items.list,
    [S.getItem]: items.get,
    [S.updateItem]: items.update,
    [S.removeItem]: items.remove,
    [S.availableItems]: items.available,
  };

  const subscriptions: Closeable[] = await serveMessages(bus, handlers);
  const withSettlement = deps.settlement ? { settlement: deps.settlement } : {};
  /** Appends to a renovation for another context's event, then waits until the views show it. */
  const react = async (renovation_id: string, command: RenovationCommand, cause: EventEnvelope) => {
    const result = await handleCommand(store, renovationStream(renovation_id), renovationDecider, command, reactionContext(cause, now()));
    await settle(result.position);
  };
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
            run: react,
          },
          envelope,
          event,
          snapshot,
        ),
    }),
  );
  subscriptions.push(await startCalculationJobsReactor({ bus, readStore: reads, log, ...withSettlement, run: react }));
  log.info({ subjects: Object.keys(handlers).length }, 'renovations service ready');

  return {
    projection,
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}
