import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { IdentityEvents } from '@renopath/contracts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ORGANIZATION_MEMBERS_CONSUMER = 'estates-organization-members';

/**
 * Removing someone from an organization also ends their estate memberships there (docs/http-contract.md "Members and invitations"), each
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
  return consumeEvents(bus, ORGANIZATION_MEMBERS_CONSUMER, options.settlement, async (event) => {
    // Parsed with the contract (the place where an upcaster goes); a malformed event would be redelivered
    // forever, so it is logged and passed over.
    const parsed = IdentityEvents.OrganizationMemberRemoved.safeParse(event.data);
    if (!parsed.success) {
      options.log.error(
        { err: parsed.error, event_id: event.event_id, type: event.type },
        'identity event does not match its contract; skipped',
      );
      return;
    }
    const { organization_id, user_id } = parsed.data;
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id } });
    for (const membership of items) await removeMember(event, membership.estate_id, user_id);
    if (items.length)
      log.info({ organization_id, user_id, estates: items.length }, 'estate memberships ended with the organization membership');
  });
}
