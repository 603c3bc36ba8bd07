import { handleCommand } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { actorOf, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  AcceptInvitationBody,
  AddOrganizationMemberBody,
  AttachClientMemberBody,
  IdentitySubjects as S,
  UpdateOrganizationBody,
  type InvitationAcceptance,
  type Organization,
  type ServiceRequest,
} from '@renopath/contracts';
import { C, memberKey, memberReply, type MemberDoc } from '../directory/directory.projection.ts';
import { readEmailedToken } from '../mail/emailed-token.ts';
import { INVALID_INVITATION, organizationDecider, organizationStream, type OrganizationCommand } from './organization.decider.ts';
import type { Access } from '../access/access.ts';
import type { Invitations } from '../invitation/invitation.ts';
import type { IdentityKit } from '../kit.ts';

/** The organization query set and its commands: profile, members, invitations accepted. */
export function organizationHandlers(kit: IdentityKit, { requireMembership, requireTokenOrganization }: Access, { invite }: Invitations) {
  const { reads, getUser, orgState } = kit;
  const decide = (req: ServiceRequest, command: OrganizationCommand) => decideSettled(kit, req, command);

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.organizations]: async (req) => {
      // The token's organization, while the user is an active member: never the user's other organizations.
      const actor = actorOf(req);
      const me = await getUser(actor.user_id);
      if (!me?.organizations.some((m) => m.organization_id === actor.organization_id)) return [];
      const org = await reads.get<Organization>(C.organizations, actor.organization_id);
      return org ? [org] : [];
    },

    [S.updateOrganization]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      const { region: _readOnly, ...changes } = parse(UpdateOrganizationBody, req.body);
      await decide(req, {
        type: 'UpdateOrganization',
        organization_id,
        actor_user_id: actor.user_id,
        changes,
      });
      return await reads.get<Organization>(C.organizations, organization_id);
    },

    [S.organizationMembers]: async (req) => {
      const organization_id = req.params['organization_id'] ?? '';
      const membership = await requireMembership(actorOf(req), organization_id);
      // Clients (invited buyers) read their estates, not the agency's staff and other buyers (docs/http-contract.md "Authentication, roles and rate limits").
      if (membership.member_type === 'CLIENT') throw new DomainError(403, ["clients may not list the organization's members"]);
      const { items } = await reads.query<MemberDoc>(C.members, {
        filter: { organization_id },
        sort: [{ field: 'created_at', order: 'ASC' }],
      });
      return items.map(memberReply);
    },

    [S.addOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      const body = parse(AddOrganizationMemberBody, req.body);
      // Check the owner rule before creating anybody, so a refused request leaves no trace.
      const org = await orgState(organization_id);
      const role = org.members[actor.user_id];
      if (!org.exists || !role) throw new DomainError(404, ['organization not found']);
      if (role !== 'OWNER') throw new DomainError(403, ['only an owner of the organization may do this']);
      return invite(req, {
        organization_id,
        actor_user_id: actor.user_id,
        person: body,
        member_type: body.member_type,
        attach: false,
        estate_id: null,
      });
    },

    [S.acceptInvitation]: (req) => acceptInvitation(kit, req),

    [S.removeOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      // The interface names the path parameter `member_id`; it is the member's user id.
      const user_id = req.params['member_id'] ?? '';
      const before = await reads.get<MemberDoc>(C.members, memberKey(organization_id, user_id));
      await decide(req, {
        type: 'RemoveOrganizationMember',
        organization_id,
        actor_user_id: actor.user_id,
        user_id,
      });
      return before && memberReply(before);
    },

    [S.attachClientMember]: async (req) => {
      const { organization_id, estate_id, ...person } = parse(AttachClientMemberBody, req.body);
      const org = await orgState(organization_id);
      if (!org.exists) throw new DomainError(404, ['organization not found']);
      // The estates context checked that the caller may write the estate; an active member keeps their role.
      return invite(req, {
        organization_id,
        actor_user_id: null,
        person,
        member_type: 'CLIENT',
        attach: true,
        estate_id: estate_id ?? null,
      });
    },
  };

  return handlers;
}

/** Appends an organization command and waits until the read model shows it. */
async function decideSettled(kit: IdentityKit, req: ServiceRequest, command: OrganizationCommand) {
  const result = await handleCommand(kit.store, organizationStream(command.organization_id), organizationDecider, command, kit.ctx(req));
  await kit.settle(result.position);
  return result;
}

/** An emailed invitation token accepted: the invitee becomes a member, with the estates they were invited to. */
async function acceptInvitation(kit: IdentityKit, req: ServiceRequest): Promise<InvitationAcceptance> {
  const { now, orgState } = kit;
  const { token } = parse(AcceptInvitationBody, req.body);
  const read = readEmailedToken(token, 2);
  if (!read) throw INVALID_INVITATION();
  const [organization_id, invitation_id] = read.ids as [string, string];
  const before = await orgState(organization_id);
  const invitee = Object.entries(before.pending).find(([, p]) => p.invitations[invitation_id]);
  if (!invitee) throw INVALID_INVITATION();
  const [user_id, pending] = invitee;
  const result = await decideSettled(kit, req, {
    type: 'AcceptOrganizationInvitation',
    organization_id,
    invitation_id,
    token_hash: read.token_hash,
    now: now().toISOString(),
  });
  const estate_ids = [...new Set(Object.values(pending.invitations).flatMap((i) => (i.estate_id ? [i.estate_id] : [])))];
  return { organization_id, user_id, member_type: result.state.members[user_id] ?? pending.member_type, status: 'ACTIVE', estate_ids };
}
