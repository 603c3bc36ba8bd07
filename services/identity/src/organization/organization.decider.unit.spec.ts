import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { organizationDecider } from './organization.decider.ts';

const spec = deciderSpec(organizationDecider);
const ORG = '11111111-1111-4111-8111-111111111111';
const OWNER = '22222222-2222-4222-8222-222222222222';
const EMPLOYEE = '33333333-3333-4333-8333-333333333333';
const NEWCOMER = '44444444-4444-4444-8444-444444444444';
const INV = '55555555-5555-4555-8555-555555555555';
const INV2 = '66666666-6666-4666-8666-666666666666';
const profile = {
  phone_number: null,
  email_address: null,
  organization_name: 'Immo',
  country: 'BE' as const,
  street: null,
  house_number: null,
  house_number_extra: null,
  zipcode: '9000',
  place: 'Gent',
  vat_number: null,
  external_id: null,
};
const created = [
  { type: 'OrganizationCreated' as const, data: { organization_id: ORG, ...profile } },
  { type: 'OrganizationMemberAdded' as const, data: { organization_id: ORG, user_id: OWNER, member_type: 'OWNER' as const } },
];
const withEmployee = [
  ...created,
  { type: 'OrganizationMemberAdded' as const, data: { organization_id: ORG, user_id: EMPLOYEE, member_type: 'EMPLOYEE' as const } },
];

describe('organization decider', () => {
  it('creates an organization with its owner as first member', () => {
    spec.given([]).when({ type: 'CreateOrganization', organization_id: ORG, profile, owner_user_id: OWNER }).then(created);
  });

  it('refuses to create twice', () => {
    spec.given(created).when({ type: 'CreateOrganization', organization_id: ORG, profile, owner_user_id: OWNER }).thenFails(409);
  });

  it('refuses to create with a zipcode that is not a postal code of the country', () => {
    spec
      .given([])
      .when({ type: 'CreateOrganization', organization_id: ORG, profile: { ...profile, country: 'NL' }, owner_user_id: OWNER })
      .thenFails(400, /zipcode must be a Dutch postal code/);
  });

  it('lets an owner rename, and records only what changed', () => {
    spec
      .given(created)
      .when({
        type: 'UpdateOrganization',
        organization_id: ORG,
        actor_user_id: OWNER,
        changes: { organization_name: 'Immo Plus', country: 'BE' },
      })
      .then([{ type: 'OrganizationUpdated', data: { organization_id: ORG, changes: { organization_name: 'Immo Plus' } } }]);
    spec
      .given(created)
      .when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: OWNER, changes: { organization_name: 'Immo' } })
      .then([]);
  });

  it('checks the zipcode against the country, whichever of the two changes', () => {
    const update = (changes: object) => ({ type: 'UpdateOrganization' as const, organization_id: ORG, actor_user_id: OWNER, changes });
    spec
      .given(created)
      .when(update({ zipcode: '0999' }))
      .thenFails(400, /zipcode must be a Belgian postal code/);
    // The kept zipcode 9000 is not Dutch.
    spec
      .given(created)
      .when(update({ country: 'NL' }))
      .thenFails(400, /zipcode must be a Dutch postal code/);
    spec
      .given(created)
      .when(update({ country: 'NL', zipcode: '1012 AB' }))
      .then([{ type: 'OrganizationUpdated', data: { organization_id: ORG, changes: { country: 'NL', zipcode: '1012 AB' } } }]);
    spec
      .given(created)
      .when(update({ zipcode: null }))
      .then([{ type: 'OrganizationUpdated', data: { organization_id: ORG, changes: { zipcode: null } } }]);
  });

  it('forbids edits by an employee (403) and hides the organization from non-members (404)', () => {
    spec
      .given(withEmployee)
      .when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: EMPLOYEE, changes: { organization_name: 'X' } })
      .thenFails(403);
    spec
      .given(withEmployee)
      .when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: 'stranger', changes: { organization_name: 'X' } })
      .thenFails(404);
    spec
      .given([])
      .when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: null, changes: { organization_name: 'X' } })
      .thenFails(404);
  });

  const terms = (invitation_id: string, token_hash = 'a'.repeat(64), estate_id: string | null = null) => ({
    invitation_id,
    email_address: 'new@buyer.example',
    first_name: 'Given',
    last_name: 'ByInviter',
    estate_id,
    token_hash,
    expires_at: '2026-02-01T00:00:00.000Z',
  });
  const invite = (user_id: string, member_type: 'OWNER' | 'EMPLOYEE' | 'CLIENT', attach = false, invitation = terms(INV)) => ({
    type: 'InviteOrganizationMember' as const,
    organization_id: ORG,
    actor_user_id: attach ? null : OWNER,
    user_id,
    member_type,
    attach,
    invitation,
  });
  const invited = {
    type: 'OrganizationMemberInvited' as const,
    data: { organization_id: ORG, user_id: NEWCOMER, member_type: 'EMPLOYEE' as const, ...terms(INV) },
  };
  const accept = (token_hash: string, now = '2026-01-15T00:00:00.000Z', invitation_id = INV) => ({
    type: 'AcceptOrganizationInvitation' as const,
    organization_id: ORG,
    invitation_id,
    token_hash,
    now,
  });

  it('invites a newcomer: a pending membership, not a member', () => {
    spec.given(created).when(invite(NEWCOMER, 'EMPLOYEE')).then([invited]);
  });

  it("changes an active member's role instead of inviting them; an estate attachment leaves it", () => {
    spec.given(withEmployee).when(invite(EMPLOYEE, 'EMPLOYEE')).then([]);
    spec
      .given(withEmployee)
      .when(invite(EMPLOYEE, 'OWNER'))
      .then([{ type: 'OrganizationMemberAdded', data: { organization_id: ORG, user_id: EMPLOYEE, member_type: 'OWNER' } }]);
    spec
      .given(withEmployee)
      .when(invite(EMPLOYEE, 'CLIENT', true))
      .then([]);
  });

  it('an estate attachment keeps the role a pending invitation offers, else offers CLIENT', () => {
    spec
      .given([...created, invited])
      .when(invite(NEWCOMER, 'CLIENT', true, terms(INV2)))
      .then([
        { type: 'OrganizationMemberInvited', data: { organization_id: ORG, user_id: NEWCOMER, member_type: 'EMPLOYEE', ...terms(INV2) } },
      ]);
    spec
      .given(created)
      .when(invite(NEWCOMER, 'OWNER', true))
      .then([
        { type: 'OrganizationMemberInvited', data: { organization_id: ORG, user_id: NEWCOMER, member_type: 'CLIENT', ...terms(INV) } },
      ]);
  });

  it('only owners invite', () => {
    spec
      .given(withEmployee)
      .when({ ...invite(NEWCOMER, 'CLIENT'), actor_user_id: EMPLOYEE })
      .thenFails(403);
    spec
      .given(withEmployee)
      .when({ ...invite(NEWCOMER, 'CLIENT'), actor_user_id: NEWCOMER })
      .thenFails(404);
  });

  it('accepts with the right code before it expires, once', () => {
    const added = {
      type: 'OrganizationMemberAdded' as const,
      data: { organization_id: ORG, user_id: NEWCOMER, member_type: 'EMPLOYEE' as const },
    };
    spec
      .given([...created, invited])
      .when(accept('a'.repeat(64)))
      .then([added]);
    spec
      .given([...created, invited, added])
      .when(accept('a'.repeat(64)))
      .thenFails(400, /not valid or has expired/);
    spec
      .given([...created, invited])
      .when(accept('b'.repeat(64)))
      .thenFails(400);
    spec
      .given([...created, invited])
      .when(accept('a'.repeat(64), '2026-02-01T00:00:00.000Z'))
      .thenFails(400);
    spec
      .given([...created, invited])
      .when(accept('a'.repeat(64), undefined, INV2))
      .thenFails(400);
  });

  it('removing someone invited withdraws the invitation: the code no longer works', () => {
    const withdrawn = { type: 'OrganizationMemberRemoved' as const, data: { organization_id: ORG, user_id: NEWCOMER } };
    spec
      .given([...created, invited])
      .when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: NEWCOMER })
      .then([withdrawn]);
    spec
      .given([...created, invited, withdrawn])
      .when(accept('a'.repeat(64)))
      .thenFails(400);
  });

  it('creates an organization whose owner already has an account with the owner pending', () => {
    spec
      .given([])
      .when({ type: 'CreateOrganization', organization_id: ORG, profile, owner_user_id: NEWCOMER, owner_invitation: terms(INV) })
      .then([
        { type: 'OrganizationCreated', data: { organization_id: ORG, ...profile } },
        { type: 'OrganizationMemberInvited', data: { organization_id: ORG, user_id: NEWCOMER, member_type: 'OWNER', ...terms(INV) } },
      ]);
  });

  it('keeps at least one owner', () => {
    spec
      .given(withEmployee)
      .when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: OWNER })
      .thenFails(409, /at least one owner/);
    spec.given(withEmployee).when(invite(OWNER, 'CLIENT')).thenFails(409);
  });

  it('removes a member; removing a non-member is 404', () => {
    spec
      .given(withEmployee)
      .when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE })
      .then([{ type: 'OrganizationMemberRemoved', data: { organization_id: ORG, user_id: EMPLOYEE } }]);
    spec
      .given(created)
      .when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE })
      .thenFails(404);
  });
});
