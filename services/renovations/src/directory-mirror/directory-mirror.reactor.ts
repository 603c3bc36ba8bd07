import type { Closeable } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { IdentityEvents, type MemberType } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const IDENTITY_CONSUMER = 'renovations-identity';

export const D = {
  /** `<organization_id>:<user_id>` -> the member's role (active memberships only: invitations grant nothing). */
  roles: 'renovations_roles',
  /** user id -> the user's `external_id` (the search's `managing_user.external_id` and `external_user_id` filter). */
  users: 'renovations_users',
} as const;

export interface RoleDoc {
  organization_id: string;
  user_id: string;
  member_type: MemberType;
}

export interface UserDoc {
  user_id: string;
  external_id: string | null;
}

export const roleId = (organization_id: string, user_id: string) => `${organization_id}:${user_id}`;

/**
 * What this context needs of identity, kept from its events: the role of each organization member
 * (access follows the token's organization and the role there, docs/http-contract.md) and users' external ids.
 * Writes are idempotent (a put or delete by key), so a redelivery changes nothing.
 */
export function startDirectoryMirrorReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { readStore } = options;
  const { OrganizationMemberAdded, OrganizationMemberRemoved, UserUpdated } = IdentityEvents;
  const contracts = { OrganizationMemberAdded, OrganizationMemberRemoved, UserUpdated };
  return consumeParsedEvents(options, IDENTITY_CONSUMER, contracts, async (event) => {
    if (event.type === 'UserUpdated') {
      const { user_id, changes } = event.data;
      if (changes.external_id === undefined) return;
      await readStore.transaction((tx) => tx.put<UserDoc>(D.users, user_id, { user_id, external_id: changes.external_id ?? null }));
      return;
    }
    const { organization_id, user_id } = event.data;
    const id = roleId(organization_id, user_id);
    if (event.type === 'OrganizationMemberAdded') {
      const { member_type } = event.data;
      await readStore.transaction((tx) => tx.put<RoleDoc>(D.roles, id, { organization_id, user_id, member_type }));
    } else await readStore.transaction((tx) => tx.delete(D.roles, id));
  });
}
