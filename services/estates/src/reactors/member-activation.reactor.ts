import type { Closeable, EventEnvelope } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { traceFields } from '@renopath/platform/observability/tracing.ts';
import { IdentityEvents } from '@renopath/contracts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const MEMBER_ACTIVATION_CONSUMER = 'estates-member-activation';

/**
 * An invited estate member gets access only once they accept (docs/http-contract.md "Members and invitations"): when identity records
 * them as an active member of the organization, each of their pending estate memberships there
 * starts (`EstateMemberActivated`). At least once: a redelivery finds nothing pending.
 */
export function startMemberActivationReactor(
  options: ReadStoreReactorOptions & { activateMember(event: EventEnvelope, estate_id: string, user_id: string): Promise<void> },
): Promise<Closeable> {
  const { readStore, log, activateMember } = options;
  const added = { OrganizationMemberAdded: IdentityEvents.OrganizationMemberAdded };
  return consumeParsedEvents(options, MEMBER_ACTIVATION_CONSUMER, added, async ({ data }, event) => {
    const { organization_id, user_id } = data;
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id, status: 'PENDING' } });
    for (const membership of items) await activateMember(event, membership.estate_id, user_id);
    if (items.length)
      log.info(
        { organization_id, user_id, estates: items.length, ...traceFields(event.metadata) },
        'estate memberships started with the accepted invitation',
      );
  });
}
