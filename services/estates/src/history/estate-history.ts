import type { RecordedEvent } from '@renopath/platform';
import type { Actor, EstateHistoryEntry } from '@renopath/contracts';

/** Personal details an estate's events carry about its members. */
const PERSONAL = ['email_address', 'first_name', 'last_name'] as const;

/**
 * One event as `/history` shows it. Upload keys are internal (the blob store's names): nobody sees
 * them. A CLIENT (an invited buyer) reads the estate, not the people around it: other members'
 * names and addresses, and the API client ids of the staff, are left out.
 */
export function historyEntry(e: RecordedEvent, reader: { actor: Actor; client: boolean }): EstateHistoryEntry {
  const { blob_key: _internal, ...data } = e.data as Record<string, unknown>;
  const ownAct = e.metadata.actor.client_id === reader.actor.client_id;
  return {
    event_id: e.event_id,
    type: e.type,
    revision: Number(e.revision),
    occurred_at: e.occurred_at,
    actor: reader.client && !ownAct ? { user_id: e.metadata.actor.user_id, client_id: null } : e.metadata.actor,
    correlation_id: e.metadata.correlation_id,
    causation_id: e.metadata.causation_id,
    data: reader.client && data['user_id'] !== undefined && data['user_id'] !== reader.actor.user_id ? withoutPersonal(data) : data,
  };
}

function withoutPersonal(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const field of PERSONAL) delete out[field];
  if (out['changes'] && typeof out['changes'] === 'object') {
    const changes = { ...(out['changes'] as Record<string, unknown>) };
    for (const field of PERSONAL) delete changes[field];
    out['changes'] = changes;
  }
  return out;
}
