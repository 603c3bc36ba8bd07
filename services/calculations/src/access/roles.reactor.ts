import type { Logger } from 'pino';
import type { Bus, Closeable, ReadStore } from '@renopath/platform';
import { consumeEvents } from '@renopath/platform/service/reactor.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import { IdentityEvents, type MemberType } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const IDENTITY_CONSUMER = 'calculations-identity';

/** `<organization_id>:<user_id>` -> the member's role in the organization. */
export const ROLES = 'calculations_roles';

export interface RoleDoc {
  organization_id: string;
  user_id: string;
  member_type: MemberType;
}

export const roleKey = (organization_id: string, user_id: string) => `${organization_id}:${user_id}`;

/**
 * The roles of organization members, from identity's events: who may see all of an organization's
 * jobs (owners and employees) and who only their own and their estates' (clients). Writes are a put
 * or delete by key, so a redelivered event changes nothing.
 */
export function startRolesReactor(options: { bus: Bus; readStore: ReadStore; log: Logger; settlement?: Settlement }): Promise<Closeable> {
  const { bus, readStore, log } = options;
  return consumeEvents(bus, IDENTITY_CONSUMER, options.settlement, async (envelope) => {
    if (envelope.type === 'OrganizationMemberAdded') {
      const parsed = IdentityEvents.OrganizationMemberAdded.safeParse(envelope.data);
      if (parsed.success) {
        const { organization_id, user_id, member_type } = parsed.data;
        await readStore.transaction((tx) =>
          tx.put<RoleDoc>(ROLES, roleKey(organization_id, user_id), { organization_id, user_id, member_type }),
        );
      } else log.error({ event_id: envelope.event_id }, 'identity event does not match its contract; skipped');
    } else if (envelope.type === 'OrganizationMemberRemoved') {
      const parsed = IdentityEvents.OrganizationMemberRemoved.safeParse(envelope.data);
      if (parsed.success) await readStore.transaction((tx) => tx.delete(ROLES, roleKey(parsed.data.organization_id, parsed.data.user_id)));
      else log.error({ event_id: envelope.event_id }, 'identity event does not match its contract; skipped');
    }
  });
}
