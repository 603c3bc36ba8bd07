import type { Closeable, ReadStore } from '@renopath/platform';
import { consumeParsedEvents, type ReadStoreReactorOptions } from '@renopath/platform/service/reactor.ts';
import { IdentityEvents, type MemberType } from '@renopath/contracts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const DIRECTORY_CONSUMER = 'estates-directory';

/**
 * `<organization_id>:<user_id>` -> the member's role, active memberships only (an invitation grants
 * nothing until accepted). Outside the estate views' collections: a rebuild of those leaves it alone.
 */
export const ROLES = 'estates_roles';

export interface RoleDoc {
  organization_id: string;
  user_id: string;
  member_type: MemberType;
}

export const roleId = (organization_id: string, user_id: string) => `${organization_id}:${user_id}`;

/**
 * What estates needs of identity, kept from its events so a request never asks identity (issue 9):
 * each organization member's role (access follows the token's organization and the role there,
 * docs/http-contract.md "Authentication, roles and rate limits"; a managing user must be an active member). A role change is a new `OrganizationMemberAdded`.
 * Writes are a put or a delete by key, so a redelivery changes nothing. The gateway's settle waits for
 * this consumer after an identity write, so a removed member loses access with the removal's reply.
 */
export function startDirectoryReactor(options: ReadStoreReactorOptions): Promise<Closeable> {
  const { readStore } = options;
  const { OrganizationMemberAdded, OrganizationMemberRemoved } = IdentityEvents;
  return consumeParsedEvents(options, DIRECTORY_CONSUMER, { OrganizationMemberAdded, OrganizationMemberRemoved }, async (event) => {
    const { organization_id, user_id } = event.data;
    const id = roleId(organization_id, user_id);
    if (event.type === 'OrganizationMemberAdded') {
      const { member_type } = event.data;
      await readStore.transaction((tx) => tx.put<RoleDoc>(ROLES, id, { organization_id, user_id, member_type }));
    } else await readStore.transaction((tx) => tx.delete(ROLES, id));
  });
}

/** The caller's role in an organization, from the local copy. */
export async function roleIn(readStore: ReadStore, organization_id: string, user_id: string): Promise<MemberType | null> {
  return (await readStore.get<RoleDoc>(ROLES, roleId(organization_id, user_id)))?.member_type ?? null;
}
