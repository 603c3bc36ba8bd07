import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { IdentityEvents } from '@renopath/contracts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const MEMBER_DETAILS_CONSUMER = 'estates-member-details';

const COPIED_FIELDS = ['email_address', 'first_name', 'last_name'] as const;
export type MemberDetails = Partial<Record<(typeof COPIED_FIELDS)[number], string>>;

/**
 * Estates keep a copy of each member's name and email address; when identity records a change to
 * them, every estate the user is a member of records it too (`EstateMemberDetailsUpdated`).
 */
export function startMemberDetailsReactor(options: {
  bus: Bus;
  readStore: ReadStore;
  log: Logger;
  updateMember(event: EventEnvelope, estate_id: string, user_id: string, changes: MemberDetails): Promise<void>;
  settlement?: Settlement;
}): Promise<Closeable> {
  const { bus, readStore, updateMember } = options;
  return consumeEvents(bus, MEMBER_DETAILS_CONSUMER, options.settlement, async (event) => {
    // Parsed with the contract (the place where an upcaster goes); a malformed event would be redelivered
    // forever, so it is logged and passed over.
    const parsed = IdentityEvents.UserUpdated.safeParse(event.data);
    if (!parsed.success) {
      options.log.error(
        { err: parsed.error, event_id: event.event_id, type: event.type },
        'identity event does not match its contract; skipped',
      );
      return;
    }
    const { user_id, changes: given } = parsed.data;
    const changes: MemberDetails = {};
    for (const field of COPIED_FIELDS) if (typeof given[field] === 'string') changes[field] = given[field];
    if (Object.keys(changes).length > 0) {
      const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { user_id } });
      // An invitee's own profile is not the inviting organization's to see before they accept.
      for (const membership of items)
        if (membership.status !== 'PENDING') await updateMember(event, membership.estate_id, user_id, changes);
    }
  });
}
