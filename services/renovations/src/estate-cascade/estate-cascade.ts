import type { EventEnvelope } from '@renopath/platform';
import type { EstateEvent, RenovationCommand } from '@renopath/contracts';
import { FIGURE_EVENTS, type Snapshot } from '../estate-mirror/estate-mirror.ts';

/**
 * The process manager from estates to renovations (docs/http-contract.md, docs/architecture.md): a part edit moves
 * the quantities and figures of the items linked to it; a removed roof, room, staircase or floor
 * takes its items along; a deleted estate deletes its renovations. Each live renovation of the
 * estate gets one command; the decider decides what actually changes.
 */
export interface CascadeDeps {
  liveRenovationsOf(estate_id: string): Promise<string[]>;
  run(renovation_id: string, command: RenovationCommand, cause: EventEnvelope): Promise<void>;
  year(): number;
}

export async function cascadeEstateEvent(deps: CascadeDeps, envelope: EventEnvelope, event: EstateEvent, estate: Snapshot): Promise<void> {
  const deleted = event.type === 'EstateDeleted';
  if (!deleted && !FIGURE_EVENTS.has(event.type)) return;
  for (const renovation_id of await deps.liveRenovationsOf(estate.estate_id)) {
    const command: RenovationCommand = deleted
      ? { type: 'DeleteRenovation', renovation_id, reason: 'ESTATE_DELETED' }
      : { type: 'ReconcileWithEstate', renovation_id, estate, year: deps.year() };
    await deps.run(renovation_id, command, envelope);
  }
}
