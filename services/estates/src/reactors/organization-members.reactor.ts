import type { Closeable, EventEnvelope } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { traceFields } from '@renopath/platform/observability/tracing.ts';
import { IdentityEvents } from '@renopath/contracts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ORGANIZATION_MEMBERS_CONSUMER = 'estates-organization-members';

/**
 * Removing someone from an organization also ends their estate memberships there (docs/http-contract.md "Members and invitations"), each
 * as an `EstateMemberRemoved` event. At least once: a redelivery finds nothing left to remove.
 */
export function startOrganizationMembersReactor(
  options: ReadStoreReactorOptions & { removeMember(event: EventEnvelope, estate_id: string, user_id: string): Promise<void> },
): Promise<Closeable> {
  const { readStore, log, removeMember } = options;
  const removed = { OrganizationMemberRemoved: IdentityEvents.OrganizationMemberRemoved };
  return consumeParsedEvents(options, ORGANIZATION_MEMBERS_CONSUMER, removed, async ({ data }, event) => {
    const { organization_id, user_id } = data;
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id } });
    for (const membership of items) await removeMember(event, membership.estate_id, user_id);
    if (items.length)
      log.info(
        { organization_id, user_id, estates: items.length, ...traceFields(event.metadata) },
        'estate memberships ended with the organization membership',
      );
  });
}
