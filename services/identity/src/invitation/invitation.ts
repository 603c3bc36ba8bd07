import { handleCommand } from '@renopath/platform/service/decider.ts';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import type { MemberType, ServiceRequest } from '@renopath/contracts';
import { C, memberKey, memberReply, type MemberDoc } from '../directory/directory.projection.ts';
import { normalizeEmail } from '../email/email-claim.decider.ts';
import { invitationMessage } from '../mail/messages.ts';
import { newEmailedToken } from '../mail/emailed-token.ts';
import {
  organizationDecider,
  organizationStream,
  type InvitationTerms,
  type OrganizationState,
} from '../organization/organization.decider.ts';
import type { Registration } from '../registration/registration.ts';
import type { IdentityKit } from '../kit.ts';

/** How long an emailed invitation code works: an invitation may wait for a week. */
const INVITATION_TTL_MS = 7 * 86_400_000;

/** Invitations into an organization: terms, the emailed code, the pending membership. */
export function invitations(kit: IdentityKit, { claimEmailAndRegister }: Registration) {
  const { store, reads, config, now, ctx, settle, deliver } = kit;

  /** New invitation terms: the code goes by mail, only its hash into the event. */
  function invitationTerms(
    req: ServiceRequest,
    organization_id: string,
    person: { email_address: string; first_name: string; last_name: string },
    estate_id: string | null,
  ) {
    const invitation_id = newId(req, 'invitation');
    const { token, token_hash } = newEmailedToken(organization_id, invitation_id);
    const terms: InvitationTerms = {
      invitation_id,
      email_address: normalizeEmail(person.email_address),
      first_name: person.first_name,
      last_name: person.last_name,
      estate_id,
      token_hash,
      expires_at: new Date(now().getTime() + INVITATION_TTL_MS).toISOString(),
    };
    return { terms, token };
  }

  /** Mails the code when this request's invitation is the one stored (a deduplicated retry's code would not work). */
  async function sendInvitation(state: OrganizationState, user_id: string, terms: InvitationTerms, token: string) {
    const stored = state.pending[user_id];
    if (stored?.invitations[terms.invitation_id]?.token_hash !== terms.token_hash) return;
    await deliver(
      invitationMessage({
        to: terms.email_address,
        first_name: terms.first_name,
        organization_name: state.organization_name,
        member_type: stored.member_type,
        estate: terms.estate_id !== null,
        token,
        expires_at: terms.expires_at,
        publicUrl: config.publicUrl,
      }),
    );
  }

  /**
   * Invites a person into an organization (docs/http-contract.md "Members and invitations"): pending until they accept, whether or not
   * the address has an account, and answered with the names the inviter gave.
   */
  async function invite(
    req: ServiceRequest,
    o: {
      organization_id: string;
      actor_user_id: string | null;
      person: { email_address: string; first_name: string; last_name: string };
      member_type: MemberType;
      attach: boolean;
      estate_id: string | null;
    },
  ): Promise<MemberDoc> {
    const { user_id } = await claimEmailAndRegister(req, o.person);
    const { terms, token } = invitationTerms(req, o.organization_id, o.person, o.estate_id);
    const result = await handleCommand(
      store,
      organizationStream(o.organization_id),
      organizationDecider,
      {
        type: 'InviteOrganizationMember',
        organization_id: o.organization_id,
        actor_user_id: o.actor_user_id,
        user_id,
        member_type: o.member_type,
        attach: o.attach,
        invitation: terms,
      },
      ctx(req),
    );
    await settle(result.position);
    await sendInvitation(result.state, user_id, terms, token);
    const member = await reads.get<MemberDoc>(C.members, memberKey(o.organization_id, user_id));
    if (!member) throw new Error('member not projected');
    return memberReply(member);
  }

  return { invitationTerms, sendInvitation, invite };
}
export type Invitations = ReturnType<typeof invitations>;
