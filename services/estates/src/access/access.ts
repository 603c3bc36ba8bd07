import { DomainError, notFound, type ReadStore } from '@renopath/platform';
import { actorOf, readShared } from '@renopath/platform/service/handler-kit.ts';
import { WRITER_ROLES, type Actor, type MemberType, type ServiceRequest } from '@renopath/contracts';
import type { EstateView } from '../estate-views/estate-view.ts';
import { roleId, roleIn, ROLES, type RoleDoc } from '../directory/directory.reactor.ts';

/** Who may do what (docs/http-contract.md "Authentication, roles and rate limits"). */
export type Access = 'READ' | 'WRITE';

/**
 * Owners and employees of the estate's organization write; its estate members read, once they
 * accepted and while they are still in that organization. Only a token of the estate's organization
 * counts. Anyone else does not learn that the estate exists.
 */
export function accessOf(role: MemberType | null, actor: Actor, organization_id: string, activeMemberIds: Iterable<string>): Access | null {
  if (organization_id !== actor.organization_id || !role) return null;
  if (WRITER_ROLES.has(role)) return 'WRITE';
  if ([...activeMemberIds].includes(actor.user_id)) return 'READ';
  return null;
}

/** Members whose invitation was accepted (views of earlier versions carry no status: all active). */
export const activeIn = (view: EstateView) => view.members.filter((m) => m.status !== 'PENDING').map((m) => m.user_id);

/**
 * What a reader sees of an estate: a CLIENT (an invited buyer) sees themself among the members, never
 * the other buyers (their names and addresses are not theirs to read).
 */
export function asSeenBy(view: EstateView, access: Access, actor: Actor): EstateView {
  return access === 'WRITE' ? view : { ...view, members: view.members.filter((m) => m.user_id === actor.user_id) };
}

export type AccessControl = ReturnType<typeof accessControl>;

/**
 * Roles come from the local copy of identity's memberships (directory reactor), never from a request
 * to identity: a request to estates is answered by estates alone (issue 9).
 */
export function accessControl(reads: ReadStore) {
  /** The caller's role in the token's organization; the user's other organizations grant nothing here. */
  const roleOf = async (req: ServiceRequest): Promise<MemberType | null> => {
    const actor = actorOf(req);
    // Every request reads it and none changes it: the store's shared copy, no parse per request.
    return (await readShared<RoleDoc>(reads, ROLES, roleId(actor.organization_id, actor.user_id)))?.member_type ?? null;
  };

  return {
    roleOf,
    async requireAccess(req: ServiceRequest, organization_id: string, activeMemberIds: Iterable<string>, need: Access): Promise<Access> {
      const access = accessOf(await roleOf(req), actorOf(req), organization_id, activeMemberIds);
      if (!access) throw notFound('estate');
      if (need === 'WRITE' && access !== 'WRITE')
        throw new DomainError(403, ['only owners and employees of the organization may change an estate']);
      return access;
    },
    async requireWriter(req: ServiceRequest): Promise<void> {
      const role = await roleOf(req);
      if (!role || !WRITER_ROLES.has(role))
        throw new DomainError(403, ['only owners and employees of the organization may create estates']);
    },
    /** `managing_user_id` must be an active member of the estate's organization (docs/http-contract.md "Estates and their parts"); an invitee is nobody's manager yet. */
    async checkManagingUser(organization_id: string, user_id: string | null | undefined): Promise<void> {
      if (!user_id) return;
      if (!(await roleIn(reads, organization_id, user_id)))
        throw new DomainError(400, ["managing_user_id must be a user of the estate's organization"]);
    },
  };
}
