import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, ReadStore } from '@renopath/platform';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ORGANIZATION_MEMBERS_CONSUMER = 'estates-organization-members';

/**
 * Removing someone from an organization also ends their estate memberships there (API.md 4.6), each
 * as an `EstateMemberRemoved` event. At least once: a redelivery finds nothing left to remove.
 */
export function startOrganizationMembersReactor(options: {
  bus: Bus;
  readStore: ReadStore;
  log: Logger;
  removeMember(event: EventEnvelope, estate_id: string, user_id: string): Promise<void>;
  /** Read-your-writes bookkeeping: lets a settle query know when identity's removals are handled here. */
  settlement?: Settlement;
}): Promise<Closeable> {
  const { bus, readStore, log, removeMember } = options;
  const tracked = options.settlement?.reactor(ORGANIZATION_MEMBERS_CONSUMER, ['identity']);
  return bus.consume(ORGANIZATION_MEMBERS_CONSUMER, { subjects: ['evt.identity.OrganizationMemberRemoved'] }, async (event) => {
    const organization_id = String(event.data['organization_id']);
    const user_id = String(event.data['user_id']);
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id } });
    for (const membership of items) await removeMember(event, membership.estate_id, user_id);
    if (items.length) log.info({ organization_id, user_id, estates: items.length }, 'estate memberships ended with the organization membership');
    tracked?.handled(event);
  });
}
