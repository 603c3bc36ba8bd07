import { DomainError } from '@renopath/platform';
import type { Actor, User } from '@renopath/contracts';
import type { IdentityKit } from '../kit.ts';

/** Who may see or edit whom: only through the token's organization and active memberships. */
export function access(kit: IdentityKit) {
  const { getUser } = kit;

  /**
   * May `actor` see (and, as `write`, edit) user `targetId`? Only through the token's organization
   * and active memberships: 404 hides everyone else (other tenants, people merely invited).
   */
  async function authorizeUserAccess(actor: Actor, targetId: string, write: boolean): Promise<User> {
    const target = await getUser(targetId);
    const shared = target?.organizations.some((m) => m.organization_id === actor.organization_id);
    if (!target || (target.id !== actor.user_id && !shared)) throw new DomainError(404, ['user not found']);
    if (write && target.id !== actor.user_id) {
      const me = await getUser(actor.user_id);
      const role = me?.organizations.find((m) => m.organization_id === actor.organization_id)?.member_type;
      if (role !== 'OWNER') throw new DomainError(403, ['only the user or an owner of their organization may edit a user']);
      // Users are global: an owner must not rewrite the profile a member also has in another organization.
      if (!target.organizations.every((m) => m.organization_id === actor.organization_id)) {
        throw new DomainError(403, ['a user who also belongs to another organization may only be edited by themself']);
      }
    }
    return target;
  }

  /** The caller's role in `organization_id`: only the token's organization counts, never another of the same user. */
  async function requireMembership(actor: Actor, organization_id: string) {
    if (organization_id !== actor.organization_id) throw new DomainError(404, ['organization not found']);
    const me = await getUser(actor.user_id);
    const membership = me?.organizations.find((m) => m.organization_id === organization_id);
    if (!membership) throw new DomainError(404, ['organization not found']);
    return membership;
  }
  /** Writes to an organization go through the token's organization only (404 otherwise, like another tenant's). */
  function requireTokenOrganization(actor: Actor, organization_id: string) {
    if (organization_id !== actor.organization_id) throw new DomainError(404, ['organization not found']);
  }

  return { authorizeUserAccess, requireMembership, requireTokenOrganization };
}
export type Access = ReturnType<typeof access>;
