import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { Country, IdentityEvent, MemberType, UpdateOrganizationBody } from '@renopath/contracts';

type OrganizationEvent = Extract<IdentityEvent, { type: `Organization${string}` }>;

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organization_id: string; name: string; country: Country; owner_user_id: string }
  /** `actor_user_id` null: the operator (admin API), who is not bound by the owner rule. */
  | { type: 'UpdateOrganization'; organization_id: string; actor_user_id: string | null; changes: UpdateOrganizationBody }
  | { type: 'AddOrganizationMember'; organization_id: string; actor_user_id: string | null; user_id: string; member_type: MemberType }
  | { type: 'RemoveOrganizationMember'; organization_id: string; actor_user_id: string | null; user_id: string };

export interface OrganizationState {
  exists: boolean;
  name: string;
  country: Country;
  vat_number: string | null;
  external_id: string | null;
  members: Record<string, MemberType>;
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
  initialState: () => ({ exists: false, name: '', country: 'BE', vat_number: null, external_id: null, members: {} }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization': {
        if (state.exists) throw new DomainError(409, ['organization already exists']);
        const { organization_id, name, country, owner_user_id } = command;
        return [
          { type: 'OrganizationCreated', data: { organization_id, name, country } },
          { type: 'OrganizationMemberAdded', data: { organization_id, user_id: owner_user_id, member_type: 'OWNER' } },
        ];
      }
      case 'UpdateOrganization': {
        requireOwner(state, command.actor_user_id);
        const changes = Object.fromEntries(
          Object.entries(command.changes).filter(([k, v]) => state[k as keyof OrganizationState] !== v),
        );
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
      case 'OrganizationCreated':
        return { ...state, exists: true, name: event.data.name, country: event.data.country };
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
