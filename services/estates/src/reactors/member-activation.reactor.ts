import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { IdentityEvents } from '@renopath/contracts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const MEMBER_ACTIVATION_CONSUMER = 'estates-member-activation';

/**
 * An invited estate member gets access only once they accept (docs/http-contract.md "Members and invitations"): when identity records
 * them as an active member of the organization, each of their pending estate memberships there
 * starts (`EstateMemberActivated`). At least once: a redelivery finds nothing pending.
 */
export function startMemberActivationReactor(options: {
  bus: Bus;
  readStore: ReadStore;
  log: Logger;
  activateMember(event: EventEnvelope, estate_id: string, user_id: string): Promise<void>;
  settlement?: Settlement;
}): Promise<Closeable> {
  const { bus, readStore, log, activateMember } = options;
  return consumeEvents(bus, MEMBER_ACTIVATION_CONSUMER, options.settlement, async (event) => {
    // Parsed with the contract (the place where an upcaster goes); a malformed event would be redelivered
    // forever, so it is logged and passed over.
    const parsed = IdentityEvents.OrganizationMemberAdded.safeParse(event.data);
    if (!parsed.success) {
      options.log.error(
        { err: parsed.error, event_id: event.event_id, type: event.type },
        'identity event does not match its contract; skipped',
      );
      return;
    }
    const { organization_id, user_id } = parsed.data;
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id, status: 'PENDING' } });
    for (const membership of items) await activateMember(event, membership.estate_id, user_id);
    if (items.length)
      log.info({ organization_id, user_id, estates: items.length }, 'estate memberships started with the accepted invitation');
  });
}
