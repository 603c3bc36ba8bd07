import { DomainError, notFound } from '@renopath/platform';
// Only the postal-code rules, not the whole energy model.
import { isPostalCodeOf } from '@renopath/energy/model/region.ts';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { Country, IdentityEvent, MemberType, OrganizationProfile } from '@renopath/contracts';
import { sameHash } from '../mail/emailed-token.ts';

type OrganizationEvent = Extract<IdentityEvent, { type: `Organization${string}` }>;

/** What an invitation records: who was asked (as the inviter named them) and the hash of the emailed code. */
export interface InvitationTerms {
  invitation_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  estate_id: string | null;
  token_hash: string;
  expires_at: string;
}

export type OrganizationCommand =
  /** `owner_invitation`: the owner's address already has an account, which must accept before it owns anything. */
  | {
      type: 'CreateOrganization';
      organization_id: string;
      profile: OrganizationProfile;
      owner_user_id: string;
      owner_invitation?: InvitationTerms;
    }
  /** `actor_user_id` null: the operator (admin API), who is not bound by the owner rule. */
  | { type: 'UpdateOrganization'; organization_id: string; actor_user_id: string | null; changes: Partial<OrganizationProfile> }
  /**
   * Invites a person: a pending membership until they accept. An active member is not invited
   * again: an owner's invitation changes their role; an `attach` (estate member) leaves it as it is.
   * `attach` keeps the role a pending invitation already offers, else offers CLIENT.
   */
  | {
      type: 'InviteOrganizationMember';
      organization_id: string;
      actor_user_id: string | null;
      user_id: string;
      member_type: MemberType;
      attach: boolean;
      invitation: InvitationTerms;
    }
  /** Redeems an emailed code; `now` comes in with the command (the decider stays pure). */
  | { type: 'AcceptOrganizationInvitation'; organization_id: string; invitation_id: string; token_hash: string; now: string }
  | { type: 'RemoveOrganizationMember'; organization_id: string; actor_user_id: string | null; user_id: string };

export interface PendingMembership {
  member_type: MemberType;
  invitations: Record<string, { token_hash: string; expires_at: string; estate_id: string | null }>;
}

export interface OrganizationState extends OrganizationProfile {
  exists: boolean;
  /** Active members: only these hold a role. */
  members: Record<string, MemberType>;
  /** Invited, not yet accepted: they hold nothing. */
  pending: Record<string, PendingMembership>;
}

/** One answer for every code that does not work (unknown, used, expired, withdrawn): it tells nothing more. */
export const INVALID_INVITATION = () => new DomainError(400, ['the invitation code is not valid or has expired']);

const NO_PROFILE: OrganizationProfile = {
  phone_number: null,
  email_address: null,
  organization_name: '',
  country: 'BE',
  street: null,
  house_number: null,
  house_number_extra: null,
  zipcode: null,
  place: null,
  vat_number: null,
  external_id: null,
};

/** The 400 message when `zipcode` is not a postal code of `country` (the energy model's one definition of both), else null. */
export function zipcodeProblem(zipcode: string | null, country: Country): string | null {
  if (zipcode === null || isPostalCodeOf(zipcode, country)) return null;
  return country === 'BE'
    ? 'zipcode must be a Belgian postal code (4 digits, 1000-9999)'
    : 'zipcode must be a Dutch postal code (4 digits and 2 letters, like 1234 AB)';
}

function checkZipcode(zipcode: string | null, country: Country) {
  const problem = zipcodeProblem(zipcode, country);
  if (problem) throw new DomainError(400, [problem]);
}

export const organizationStream = (id: string) => `organization-${id}`;

function requireOwner(state: OrganizationState, actor: string | null) {
  if (!state.exists) throw notFound('organization');
  if (actor === null) return;
  // Non-members must not learn that the organization exists.
  if (!state.members[actor]) throw notFound('organization');
  if (state.members[actor] !== 'OWNER') throw new DomainError(403, ['only an owner of the organization may do this']);
}

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState: () => ({ exists: false, ...NO_PROFILE, members: {}, pending: {} }),

  // One function per command below; this only dispatches (emmett's shape).
  decide(command, state): OrganizationEvent[] {
    switch (command.type) {
      case 'CreateOrganization':
        return createOrganization(command, state);
      case 'UpdateOrganization':
        return updateOrganization(command, state);
      case 'InviteOrganizationMember':
        return inviteOrganizationMember(command, state);
      case 'AcceptOrganizationInvitation':
        return acceptOrganizationInvitation(command, state);
      case 'RemoveOrganizationMember':
        return removeOrganizationMember(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated': {
        const { organization_id: _id, ...profile } = event.data;
        return { ...state, ...profile, exists: true };
      }
      case 'OrganizationUpdated':
        return { ...state, ...event.data.changes };
      case 'OrganizationMemberInvited': {
        const { user_id, member_type, invitation_id, token_hash, expires_at, estate_id } = event.data;
        const invitations = { ...state.pending[user_id]?.invitations, [invitation_id]: { token_hash, expires_at, estate_id } };
        return { ...state, pending: { ...state.pending, [user_id]: { member_type, invitations } } };
      }
      case 'OrganizationMemberAdded': {
        const { [event.data.user_id]: _accepted, ...pending } = state.pending;
        return { ...state, members: { ...state.members, [event.data.user_id]: event.data.member_type }, pending };
      }
      case 'OrganizationMemberRemoved': {
        const { [event.data.user_id]: _removed, ...members } = state.members;
        const { [event.data.user_id]: _withdrawn, ...pending } = state.pending;
        return { ...state, members, pending };
      }
      default:
        return state;
    }
  },
};

const ownerCount = (state: OrganizationState) => Object.values(state.members).filter((t) => t === 'OWNER').length;
const lastOwner = () => new DomainError(409, ['an organization must keep at least one owner']);

type Command<T extends OrganizationCommand['type']> = Extract<OrganizationCommand, { type: T }>;

function createOrganization(command: Command<'CreateOrganization'>, state: OrganizationState): OrganizationEvent[] {
  if (state.exists) throw new DomainError(409, ['organization already exists']);
  const { organization_id, profile, owner_user_id, owner_invitation } = command;
  checkZipcode(profile.zipcode, profile.country);
  return [
    { type: 'OrganizationCreated', data: { organization_id, ...profile } },
    owner_invitation
      ? {
          type: 'OrganizationMemberInvited',
          data: { organization_id, user_id: owner_user_id, member_type: 'OWNER', ...owner_invitation },
        }
      : { type: 'OrganizationMemberAdded', data: { organization_id, user_id: owner_user_id, member_type: 'OWNER' } },
  ];
}

function updateOrganization(command: Command<'UpdateOrganization'>, state: OrganizationState): OrganizationEvent[] {
  requireOwner(state, command.actor_user_id);
  const changes: Partial<OrganizationProfile> = Object.fromEntries(
    Object.entries(command.changes).filter(([k, v]) => v !== undefined && state[k as keyof OrganizationProfile] !== v),
  );
  // A new country must fit the zipcode kept, and a new zipcode the country kept.
  if ('zipcode' in changes || 'country' in changes) {
    checkZipcode('zipcode' in changes ? (changes.zipcode ?? null) : state.zipcode, changes.country ?? state.country);
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'OrganizationUpdated', data: { organization_id: command.organization_id, changes } }];
}

function inviteOrganizationMember(command: Command<'InviteOrganizationMember'>, state: OrganizationState): OrganizationEvent[] {
  requireOwner(state, command.actor_user_id);
  const { organization_id, user_id, invitation } = command;
  const role = state.members[user_id];
  if (role) {
    if (command.attach || role === command.member_type) return [];
    if (role === 'OWNER' && ownerCount(state) === 1) throw lastOwner();
    return [{ type: 'OrganizationMemberAdded', data: { organization_id, user_id, member_type: command.member_type } }];
  }
  const member_type = command.attach ? (state.pending[user_id]?.member_type ?? 'CLIENT') : command.member_type;
  return [{ type: 'OrganizationMemberInvited', data: { organization_id, user_id, member_type, ...invitation } }];
}

function acceptOrganizationInvitation(command: Command<'AcceptOrganizationInvitation'>, state: OrganizationState): OrganizationEvent[] {
  if (!state.exists) throw INVALID_INVITATION();
  for (const [user_id, pending] of Object.entries(state.pending)) {
    const invitation = pending.invitations[command.invitation_id];
    if (!invitation) continue;
    if (!sameHash(invitation.token_hash, command.token_hash) || Date.parse(command.now) >= Date.parse(invitation.expires_at)) break;
    return [
      {
        type: 'OrganizationMemberAdded',
        data: { organization_id: command.organization_id, user_id, member_type: pending.member_type },
      },
    ];
  }
  // Used (the membership is active and the invitation gone), withdrawn, expired or never issued.
  throw INVALID_INVITATION();
}

function removeOrganizationMember(command: Command<'RemoveOrganizationMember'>, state: OrganizationState): OrganizationEvent[] {
  requireOwner(state, command.actor_user_id);
  // Removing someone invited withdraws the invitation.
  if (state.pending[command.user_id] && !state.members[command.user_id]) {
    return [{ type: 'OrganizationMemberRemoved', data: { organization_id: command.organization_id, user_id: command.user_id } }];
  }
  if (!state.members[command.user_id]) throw new DomainError(404, ['member not found']);
  if (state.members[command.user_id] === 'OWNER' && ownerCount(state) === 1) throw lastOwner();
  return [{ type: 'OrganizationMemberRemoved', data: { organization_id: command.organization_id, user_id: command.user_id } }];
}
