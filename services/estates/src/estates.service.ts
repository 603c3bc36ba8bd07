import type { Logger } from 'pino';
import type { BlobStore, Bus, Closeable, EventStore, ReadStore } from '@renopath/platform';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import type { ProcessManager } from '@renopath/platform/service/process-manager.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { serveMessages } from '@renopath/platform/service/handler-kit.ts';
import { EstatesSubjects as S } from '@renopath/contracts';
import { estateHandlers } from './estate/estate.handlers.ts';
import { describeEstateForJob } from './estate/job-estate.handlers.ts';
import { estateQueries } from './estate-queries/estate.queries.ts';
import { rebuildWhenModelChanged } from './estate-views/model-version.ts';
import { startExternalIdProcess } from './external-id/external-id.process.ts';
import { startFileBytesProcess } from './file-bytes/file-bytes.process.ts';
import { fileHandlers } from './files/files.handlers.ts';
import { historyQueries } from './history/history.queries.ts';
import { estatesKit, type EstatesConfig, type Handler } from './kit/estates-kit.ts';
import { memberHandlers } from './members/members.handlers.ts';
import { partHandlers } from './parts/parts.handlers.ts';
import { ESTATE_VIEWS } from './projections.ts';
import { startReactors } from './reactors/reactors.ts';

export type { EstatesConfig } from './kit/estates-kit.ts';

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
  /** The process managers: external_id releases, file bytes (the estate deletion cascade). */
  processes: ProcessManager[];
  close(): Promise<void>;
}

/**
 * The estates context: starts its projection, process managers and reactors, and wires each bus
 * subject to its handler. The handlers live with their aggregate, read model or query set.
 */
export async function startEstates(deps: EstatesDeps): Promise<EstatesService> {
  const { bus, eventStore, readStore, blobs, config, log } = deps;
  const now = deps.now ?? (() => new Date());

  const projection = runProjection({
    ...ESTATE_VIEWS,
    eventStore,
    readStore,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'estate views projection failed; retrying'),
  });
  await rebuildWhenModelChanged(readStore, projection, log);
  const processes = [
    startExternalIdProcess({ eventStore, readStore, log, now }),
    startFileBytesProcess({ eventStore, readStore, blobs, log }),
  ];

  const kit = estatesKit({ bus, store: eventStore, reads: readStore, blobs, config, log, now, followers: [projection, ...processes] });
  const estate = estateHandlers(kit);
  const history = historyQueries(kit);
  const queries = estateQueries(kit, history.asOf);
  const members = memberHandlers(kit);
  const files = fileHandlers(kit, 'FILE');
  const media = fileHandlers(kit, 'MEDIA');
  const roofs = partHandlers(kit, 'roof');
  const floors = partHandlers(kit, 'floor');
  const rooms = partHandlers(kit, 'room');
  const staircases = partHandlers(kit, 'staircase');

  const handlers: Record<string, Handler> = {
    [S.createEstate]: estate.create,
    [S.describeEstateForJob]: describeEstateForJob(kit, estate.create),
    [S.updateEstate]: estate.update,
    [S.deleteEstate]: estate.remove,
    [S.listEstates]: queries.list,
    [S.estateList]: queries.estateList,
    [S.getEstate]: queries.get,
    [S.history]: history.history,
    [S.listMembers]: queries.members,
    [S.addMember]: members.add,
    [S.removeMember]: members.remove,
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
  };

  const subscriptions: Closeable[] = await serveMessages(bus, handlers);
  subscriptions.push(...(await startReactors(kit, deps.settlement)));
  log.info({ subjects: Object.keys(handlers).length }, 'estates service ready');

  return {
    projection,
    processes,
    async close() {
      for (const s of subscriptions) await s.close();
      for (const p of processes) await p.close();
      await projection.close();
    },
  };
}
