import { z } from 'zod';
import {
  AddOrganizationMemberBody,
  AdminCreateApiClientBody,
  AdminCreateOrganizationBody,
  AdminOrganizationCreated,
  ApiClientCreated,
  IdentitySubjects as S,
  Jwks,
  Organization,
  OrganizationMember,
  UpdateOrganizationBody,
  UpdateUserBody,
  User,
} from '@renopath/contracts';
import type { RouteDef } from './route.ts';

export const identityRoutes: RouteDef[] = [
  { method: 'GET', path: '/.well-known/jwks.json', prefix: 'bare', subject: S.jwks, auth: 'none', status: 200, reply: Jwks, summary: 'Public keys that verify access tokens', tag: 'auth', errors: [] },
  { method: 'GET', path: '/users/me', prefix: 'both', subject: S.me, auth: 'bearer', status: 200, reply: z.array(User), summary: "The token's user, in an array", tag: 'users', errors: [401] },
  { method: 'PATCH', path: '/users/{user_id}', prefix: 'both', subject: S.updateUser, auth: 'bearer', scope: 'organization', ids: ['user_id'], body: UpdateUserBody, status: 200, reply: User, summary: 'Edit a user (the user themself or an owner of their organization)', tag: 'users', errors: [400, 401, 403, 404, 409] },
  { method: 'GET', path: '/organizations', prefix: 'both', subject: S.organizations, auth: 'bearer', scope: 'organization', status: 200, reply: z.array(Organization), summary: "The caller's organizations", tag: 'organizations', errors: [401, 403] },
  { method: 'PATCH', path: '/organizations/{organization_id}', prefix: 'both', subject: S.updateOrganization, auth: 'bearer', scope: 'organization', ids: ['organization_id'], body: UpdateOrganizationBody, status: 200, reply: Organization, summary: 'Edit an organization (owners only); region is derived from zipcode and country', tag: 'organizations', errors: [400, 401, 403, 404] },
  { method: 'GET', path: '/organizations/{organization_id}/members', prefix: 'both', subject: S.organizationMembers, auth: 'bearer', scope: 'organization', ids: ['organization_id'], status: 200, reply: z.array(OrganizationMember), summary: "An organization's members", tag: 'organizations', errors: [401, 403, 404] },
  { method: 'POST', path: '/organizations/{organization_id}/members', prefix: 'both', subject: S.addOrganizationMember, auth: 'bearer', scope: 'organization', ids: ['organization_id'], body: AddOrganizationMemberBody, status: 201, reply: OrganizationMember, summary: 'Add a member (owners only); an unknown email address creates the user', tag: 'organizations', errors: [400, 401, 403, 404, 409] },
  { method: 'DELETE', path: '/organizations/{organization_id}/members/{member_id}', prefix: 'both', subject: S.removeOrganizationMember, auth: 'bearer', scope: 'organization', ids: ['organization_id', 'member_id'], status: 200, reply: OrganizationMember, summary: 'Remove a member by their user id (owners only; the last owner stays)', tag: 'organizations', errors: [401, 403, 404, 409] },
  { method: 'POST', path: '/admin/organizations', prefix: 'bare', subject: S.adminCreateOrganization, auth: 'admin', body: AdminCreateOrganizationBody, status: 201, reply: AdminOrganizationCreated, summary: "Operator: create an organization with its owner and the owner's API client", tag: 'admin', errors: [400, 401, 409] },
  { method: 'POST', path: '/admin/api-clients', prefix: 'bare', subject: S.adminCreateApiClient, auth: 'admin', body: AdminCreateApiClientBody, status: 201, reply: ApiClientCreated, summary: 'Operator: create an API client acting as a user', tag: 'admin', errors: [400, 401, 404] },
  { method: 'DELETE', path: '/admin/api-clients/{client_id}', prefix: 'bare', subject: S.adminRevokeApiClient, auth: 'admin', status: 200, reply: z.object({ client_id: z.string(), revoked: z.literal(true) }), summary: "Operator: revoke an API client; its tokens stop working at once", tag: 'admin', errors: [401, 404] },
];
