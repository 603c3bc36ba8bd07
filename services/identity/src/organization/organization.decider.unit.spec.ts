import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { organizationDecider } from './organization.decider.ts';

const spec = deciderSpec(organizationDecider);
const ORG = '11111111-1111-4111-8111-111111111111';
const OWNER = '22222222-2222-4222-8222-222222222222';
const EMPLOYEE = '33333333-3333-4333-8333-333333333333';
const profile = {
  phone_number: null, email_address: null, organization_name: 'Immo', country: 'BE' as const, street: null, house_number: null,
  house_number_extra: null, zipcode: '9000', place: 'Gent', vat_number: null, external_id: null,
};
const created = [
  { type: 'OrganizationCreated' as const, data: { organization_id: ORG, ...profile } },
  { type: 'OrganizationMemberAdded' as const, data: { organization_id: ORG, user_id: OWNER, member_type: 'OWNER' as const } },
];
const withEmployee = [...created, { type: 'OrganizationMemberAdded' as const, data: { organization_id: ORG, user_id: EMPLOYEE, member_type: 'EMPLOYEE' as const } }];

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
      .when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: OWNER, changes: { organization_name: 'Immo Plus', country: 'BE' } })
      .then([{ type: 'OrganizationUpdated', data: { organization_id: ORG, changes: { organization_name: 'Immo Plus' } } }]);
    spec.given(created).when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: OWNER, changes: { organization_name: 'Immo' } }).then([]);
  });

  it('checks the zipcode against the country, whichever of the two changes', () => {
    const update = (changes: object) => ({ type: 'UpdateOrganization' as const, organization_id: ORG, actor_user_id: OWNER, changes });
    spec.given(created).when(update({ zipcode: '0999' })).thenFails(400, /zipcode must be a Belgian postal code/);
    // The kept zipcode 9000 is not Dutch.
    spec.given(created).when(update({ country: 'NL' })).thenFails(400, /zipcode must be a Dutch postal code/);
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
    spec.given(withEmployee).when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: EMPLOYEE, changes: { organization_name: 'X' } }).thenFails(403);
    spec.given(withEmployee).when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: 'stranger', changes: { organization_name: 'X' } }).thenFails(404);
    spec.given([]).when({ type: 'UpdateOrganization', organization_id: ORG, actor_user_id: null, changes: { organization_name: 'X' } }).thenFails(404);
  });

  it('adds members idempotently and changes a member type', () => {
    spec.given(withEmployee).when({ type: 'AddOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE, member_type: 'EMPLOYEE' }).then([]);
    spec
      .given(withEmployee)
      .when({ type: 'AddOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE, member_type: 'OWNER' })
      .then([{ type: 'OrganizationMemberAdded', data: { organization_id: ORG, user_id: EMPLOYEE, member_type: 'OWNER' } }]);
  });

  it('keeps at least one owner', () => {
    spec.given(withEmployee).when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: OWNER }).thenFails(409, /at least one owner/);
    spec.given(withEmployee).when({ type: 'AddOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: OWNER, member_type: 'CLIENT' }).thenFails(409);
  });

  it('removes a member; removing a non-member is 404', () => {
    spec
      .given(withEmployee)
      .when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE })
      .then([{ type: 'OrganizationMemberRemoved', data: { organization_id: ORG, user_id: EMPLOYEE } }]);
    spec.given(created).when({ type: 'RemoveOrganizationMember', organization_id: ORG, actor_user_id: OWNER, user_id: EMPLOYEE }).thenFails(404);
  });
});
