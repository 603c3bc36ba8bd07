import type { Logger } from 'pino';
import type { Bus, Closeable, EventEnvelope, ReadStore } from '@renopath/platform';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { C, type MembershipDoc } from '../estate-views/estate-views.projection.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const MEMBER_ACTIVATION_CONSUMER = 'estates-member-activation';

/**
 * An invited estate member gets access only once they accept (API.md 4.6): when identity records
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
  const tracked = options.settlement?.reactor(MEMBER_ACTIVATION_CONSUMER, ['identity']);
  return bus.consume(MEMBER_ACTIVATION_CONSUMER, { subjects: ['evt.identity.OrganizationMemberAdded'] }, async (event) => {
    const organization_id = String(event.data['organization_id']);
    const user_id = String(event.data['user_id']);
    const { items } = await readStore.query<MembershipDoc>(C.memberships, { filter: { organization_id, user_id, status: 'PENDING' } });
    for (const membership of items) await activateMember(event, membership.estate_id, user_id);
    if (items.length) log.info({ organization_id, user_id, estates: items.length }, 'estate memberships started with the accepted invitation');
    tracked?.handled(event);
  });
}
