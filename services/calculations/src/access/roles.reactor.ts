import type { Closeable } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
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
export function startRolesReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { readStore } = options;
  const { OrganizationMemberAdded, OrganizationMemberRemoved } = IdentityEvents;
  return consumeParsedEvents(options, IDENTITY_CONSUMER, { OrganizationMemberAdded, OrganizationMemberRemoved }, async (event) => {
    const { organization_id, user_id } = event.data;
    const key = roleKey(organization_id, user_id);
    if (event.type === 'OrganizationMemberAdded') {
      const { member_type } = event.data;
      await readStore.transaction((tx) => tx.put<RoleDoc>(ROLES, key, { organization_id, user_id, member_type }));
    } else await readStore.transaction((tx) => tx.delete(ROLES, key));
  });
}
