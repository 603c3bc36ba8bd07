import { DomainError } from '@renopath/platform';
// Only the postal-code rules, not the whole energy model.
import { isPostalCodeOf } from '@renopath/energy/model/region.ts';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { Country, IdentityEvent, MemberType, OrganizationProfile } from '@renopath/contracts';

type OrganizationEvent = Extract<IdentityEvent, { type: `Organization${string}` }>;

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organization_id: string; profile: OrganizationProfile; owner_user_id: string }
  /** `actor_user_id` null: the operator (admin API), who is not bound by the owner rule. */
  | { type: 'UpdateOrganization'; organization_id: string; actor_user_id: string | null; changes: Partial<OrganizationProfile> }
  | { type: 'AddOrganizationMember'; organization_id: string; actor_user_id: string | null; user_id: string; member_type: MemberType }
  | { type: 'RemoveOrganizationMember'; organization_id: string; actor_user_id: string | null; user_id: string };

export interface OrganizationState extends OrganizationProfile {
  exists: boolean;
  members: Record<string, MemberType>;
}

const NO_PROFILE: OrganizationProfile = {
  phone_number: null, email_address: null, organization_name: '', country: 'BE', street: null, house_number: null,
  house_number_extra: null, zipcode: null, place: null, vat_number: null, external_id: null,
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

const notFound = () => new DomainError(404, ['organization not found']);

function requireOwner(state: OrganizationState, actor: string | null) {
  if (!state.exists) throw notFound();
  if (actor === null) return;
  // Non-members must not learn that the organization exists.
  if (!state.members[actor]) throw notFound();
  if (state.members[actor] !== 'OWNER') throw new DomainError(403, ['only an owner of the organization may do this']);
}

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState: () => ({ exists: false, ...NO_PROFILE, members: {} }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization': {
        if (state.exists) throw new DomainError(409, ['organization already exists']);
        const { organization_id, profile, owner_user_id } = command;
        checkZipcode(profile.zipcode, profile.country);
        return [
          { type: 'OrganizationCreated', data: { organization_id, ...profile } },
          { type: 'OrganizationMemberAdded', data: { organization_id, user_id: owner_user_id, member_type: 'OWNER' } },
        ];
      }
      case 'UpdateOrganization': {
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
      case 'AddOrganizationMember': {
        requireOwner(state, command.actor_user_id);
        if (state.members[command.user_id] === command.member_type) return [];
        if (state.members[command.user_id] === 'OWNER' && ownerCount(state) === 1) throw lastOwner();
        return [
          {
            type: 'OrganizationMemberAdded',
            data: { organization_id: command.organization_id, user_id: command.user_id, member_type: command.member_type },
          },
        ];
      }
      case 'RemoveOrganizationMember': {
        requireOwner(state, command.actor_user_id);
        if (!state.members[command.user_id]) throw new DomainError(404, ['member not found']);
        if (state.members[command.user_id] === 'OWNER' && ownerCount(state) === 1) throw lastOwner();
        return [{ type: 'OrganizationMemberRemoved', data: { organization_id: command.organization_id, user_id: command.user_id } }];
      }
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
      case 'OrganizationMemberAdded':
        return { ...state, members: { ...state.members, [event.data.user_id]: event.data.member_type } };
      case 'OrganizationMemberRemoved': {
        const { [event.data.user_id]: _removed, ...members } = state.members;
        return { ...state, members };
      }
      default:
        return state;
    }
  },
};

const ownerCount = (state: OrganizationState) => Object.values(state.members).filter((t) => t === 'OWNER').length;
const lastOwner = () => new DomainError(409, ['an organization must keep at least one owner']);
