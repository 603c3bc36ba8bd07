import type { Closeable, EventEnvelope } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
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
export function startMemberDetailsReactor(
  options: ReadStoreReactorOptions & {
    updateMember(event: EventEnvelope, estate_id: string, user_id: string, changes: MemberDetails): Promise<void>;
  },
): Promise<Closeable> {
  const { readStore, updateMember } = options;
  const updated = { UserUpdated: IdentityEvents.UserUpdated };
  return consumeParsedEvents(options, MEMBER_DETAILS_CONSUMER, updated, async ({ data }, event) => {
    const { user_id, changes: given } = data;
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
