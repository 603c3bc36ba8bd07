import type { Logger } from 'pino';
import type { EventStore, ReadStore } from '@renopath/platform';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { reactionContext } from '@renopath/platform/service/handler-kit.ts';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { EstateEvents } from '@renopath/contracts';
import { parseEstateEvent } from '../estate/estate.events.ts';
import { estateDecider } from '../estate/estate.decider.ts';
import { externalIdDecider, externalIdStream } from './external-id.decider.ts';

/** Checkpoint name: it must not change, or the process would start again from the beginning of the log. */
export const EXTERNAL_ID_PROCESS = 'estates-external-id';

/**
 * Frees an estate's external_id once the estate stops naming it (an update moved it, or the estate was
 * deleted), from the stored event rather than from the request that wrote it: a crash between the
 * estate's change and the release is finished on restart, from the checkpoint (the claim of the new
 * id comes first, in the request, because its 409 is the request's answer).
 *
 * Idempotent: releasing an id the estate no longer holds records nothing, and an id the estate holds
 * again today (moved away, then back) is not released by a replay of the older move.
 */
export function startExternalIdProcess(options: {
  eventStore: EventStore;
  readStore: ReadStore;
  log: Logger;
  now: () => Date;
}): ProcessManager {
  const { eventStore, readStore, log, now } = options;
  return runProcessManager({
    name: EXTERNAL_ID_PROCESS,
    eventStore,
    readStore,
    eventTypes: ['EstateUpdated', 'EstateDeleted'],
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'external_id process failed; retrying'),
    async handle(event) {
      // Parsed with the contract: the place where an upcaster of older events goes.
      const { estate_id } = (event.type === 'EstateDeleted' ? EstateEvents.EstateDeleted : EstateEvents.EstateUpdated).parse(event.data);
      const history = await eventStore.readStream(event.stream);
      const before = fold(estateDecider, history.filter((e) => e.revision < event.revision).map(parseEstateEvent));
      const today = fold(estateDecider, history.map(parseEstateEvent));
      const held = before.fields.external_id;
      if (!held) return;
      if (today.status === 'ACTIVE' && today.fields.external_id === held) return;
      await handleCommand(
        eventStore,
        externalIdStream(before.organization_id, held),
        externalIdDecider,
        { type: 'ReleaseExternalId', organization_id: before.organization_id, external_id: held, estate_id },
        reactionContext(event, now()),
      );
    },
  });
}
