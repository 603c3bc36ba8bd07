import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { detectRegion } from '@renopath/energy/model/region.ts';
import type { Country, IdentityEvent, MemberType, Organization, OrganizationMember, Region, Scope, User } from '@renopath/contracts';

/**
 * The identity directory: users (with their memberships), organizations, members (denormalised
 * with the user's name so a member list is one query) and API clients (without secrets).
 */
export const DIRECTORY_PROJECTION = 'identity-directory';
export const C = {
  users: 'identity_users',
  organizations: 'identity_organizations',
  members: 'identity_members',
  clients: 'identity_api_clients',
} as const;

export interface ApiClientDoc {
  client_id: string;
  user_id: string;
  organization_id: string;
  scopes: Scope[];
  created_at: string;
  revoked: boolean;
  revoked_at: string | null;
}
/**
 * Stored under `memberKey`; the document is the reply as it stands (`id` is the user's id). Documents
 * of earlier versions have no `status`: they were all active (`memberReply`).
 */
export type MemberDoc = OrganizationMember;
export const memberReply = (doc: MemberDoc): MemberDoc => ({ ...doc, status: doc.status ?? 'ACTIVE' });
/** User documents of earlier versions have no `pending_email_address`. */
export const userReply = (user: User): User => ({ ...user, pending_email_address: user.pending_email_address ?? null });

export const memberKey = (organization_id: string, user_id: string) => `${organization_id}:${user_id}`;

/** The interface's read-only `region`: NL is one region; a Belgian one follows from the postal code's range (energy model data). */
export function regionOf(country: Country, zipcode: string | null): Region | null {
  if (country === 'NL') return 'NETHERLANDS';
  return zipcode === null ? null : detectRegion(zipcode, 'BE');
}

/** The read in the interface's field order, region derived again on every change. */
function organizationRead(org: Omit<Organization, 'region'>): Organization {
  const { id, phone_number, email_address, organization_name, country, street, house_number, house_number_extra, zipcode, place } = org;
  return {
    id,
    phone_number,
    email_address,
    organization_name,
    country,
    region: regionOf(country, zipcode),
    street,
    house_number,
    house_number_extra,
    zipcode,
    place,
    vat_number: org.vat_number,
    external_id: org.external_id,
    created_at: org.created_at,
    updated_at: org.updated_at,
  };
}

export async function projectDirectory(recorded: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as IdentityEvent;
  const at = recorded.occurred_at;
  switch (event.type) {
    case 'UserRegistered':
      return onUserRegistered(event, tx, at);
    case 'UserUpdated':
      return onUserUpdated(event, tx, at);
    case 'UserEmailChangeRequested':
      return onUserEmailChangeRequested(event, tx, at);
    case 'OrganizationCreated':
      return onOrganizationCreated(event, tx, at);
    case 'OrganizationUpdated':
      return onOrganizationUpdated(event, tx, at);
    case 'OrganizationMemberAdded':
      return onOrganizationMemberAdded(event, tx, at);
    case 'OrganizationMemberInvited':
      return onOrganizationMemberInvited(event, tx, at);
    case 'OrganizationMemberRemoved':
      return onOrganizationMemberRemoved(event, tx, at);
    case 'ApiClientIssued':
      return onApiClientIssued(event, tx, at);
    case 'ApiClientRevoked':
      return onApiClientRevoked(event, tx, at);
    default:
      return;
  }
}

type Event<T extends IdentityEvent['type']> = Extract<IdentityEvent, { type: T }>;

async function onUserRegistered(event: Event<'UserRegistered'>, tx: ReadStoreTx, at: string): Promise<void> {
  const user: User = {
    id: event.data.user_id,
    email_address: event.data.email_address,
    first_name: event.data.first_name,
    last_name: event.data.last_name,
    external_id: null,
    organizations: [],
    pending_email_address: null,
    created_at: at,
    updated_at: at,
  };
  await tx.put(C.users, user.id, user);
}

async function onUserUpdated(event: Event<'UserUpdated'>, tx: ReadStoreTx, at: string): Promise<void> {
  const user = await tx.get<User>(C.users, event.data.user_id);
  if (!user) return;
  const confirmed = event.data.changes.email_address !== undefined;
  const updated = { ...user, ...event.data.changes, ...(confirmed ? { pending_email_address: null } : {}), updated_at: at };
  await tx.put(C.users, user.id, updated);
  const { email_address, first_name, last_name } = updated;
  const { items } = await tx.query<MemberDoc>(C.members, { filter: { user_id: user.id } });
  // Organizations the user has not joined keep the names their inviter gave, never the user's own.
  for (const m of items) {
    if (memberReply(m).status === 'ACTIVE')
      await tx.put(C.members, memberKey(m.organization_id, m.user_id), { ...m, email_address, first_name, last_name });
  }
}

async function onUserEmailChangeRequested(event: Event<'UserEmailChangeRequested'>, tx: ReadStoreTx, at: string): Promise<void> {
  const user = await tx.get<User>(C.users, event.data.user_id);
  if (user) await tx.put(C.users, user.id, { ...user, pending_email_address: event.data.email_address, updated_at: at });
}

async function onOrganizationCreated(event: Event<'OrganizationCreated'>, tx: ReadStoreTx, at: string): Promise<void> {
  const { organization_id, ...profile } = event.data;
  await tx.put(C.organizations, organization_id, organizationRead({ id: organization_id, ...profile, created_at: at, updated_at: at }));
}

async function onOrganizationUpdated(event: Event<'OrganizationUpdated'>, tx: ReadStoreTx, at: string): Promise<void> {
  const org = await tx.get<Organization>(C.organizations, event.data.organization_id);
  if (org) await tx.put(C.organizations, org.id, organizationRead({ ...org, ...event.data.changes, updated_at: at }));
}

async function onOrganizationMemberAdded(event: Event<'OrganizationMemberAdded'>, tx: ReadStoreTx, at: string): Promise<void> {
  const { organization_id, user_id, member_type } = event.data;
  const user = await tx.get<User>(C.users, user_id);
  if (!user) return;
  const key = memberKey(organization_id, user_id);
  const existing = await tx.get<MemberDoc>(C.members, key);
  await tx.put<MemberDoc>(C.members, key, {
    id: user_id,
    email_address: user.email_address,
    first_name: user.first_name,
    last_name: user.last_name,
    member_type,
    user_id,
    organization_id,
    status: 'ACTIVE',
    created_at: existing?.created_at ?? at,
  });
  await tx.put(C.users, user.id, {
    ...user,
    organizations: upsertMembership(user.organizations, organization_id, member_type),
    updated_at: at,
  });
}

async function onOrganizationMemberInvited(event: Event<'OrganizationMemberInvited'>, tx: ReadStoreTx, at: string): Promise<void> {
  const { organization_id, user_id, member_type, email_address, first_name, last_name } = event.data;
  const key = memberKey(organization_id, user_id);
  const existing = await tx.get<MemberDoc>(C.members, key);
  if (existing && memberReply(existing).status === 'ACTIVE') return;
  // What the inviter gave: the invitee's own profile is not this organization's to see before they accept.
  await tx.put<MemberDoc>(C.members, key, {
    id: user_id,
    email_address,
    first_name,
    last_name,
    member_type,
    user_id,
    organization_id,
    status: 'PENDING',
    created_at: existing?.created_at ?? at,
  });
}

async function onOrganizationMemberRemoved(event: Event<'OrganizationMemberRemoved'>, tx: ReadStoreTx, at: string): Promise<void> {
  const { organization_id, user_id } = event.data;
  await tx.delete(C.members, memberKey(organization_id, user_id));
  const user = await tx.get<User>(C.users, user_id);
  if (user) {
    await tx.put(C.users, user.id, {
      ...user,
      organizations: user.organizations.filter((m) => m.organization_id !== organization_id),
      updated_at: at,
    });
  }
}

async function onApiClientIssued(event: Event<'ApiClientIssued'>, tx: ReadStoreTx, at: string): Promise<void> {
  const { client_id, user_id, organization_id, scopes } = event.data;
  await tx.put<ApiClientDoc>(C.clients, client_id, {
    client_id,
    user_id,
    organization_id,
    scopes,
    created_at: at,
    revoked: false,
    revoked_at: null,
  });
}

async function onApiClientRevoked(event: Event<'ApiClientRevoked'>, tx: ReadStoreTx, at: string): Promise<void> {
  const doc = await tx.get<ApiClientDoc>(C.clients, event.data.client_id);
  if (doc) await tx.put(C.clients, doc.client_id, { ...doc, revoked: true, revoked_at: at });
}

function upsertMembership(list: User['organizations'], organization_id: string, member_type: MemberType): User['organizations'] {
  const rest = list.filter((m) => m.organization_id !== organization_id);
  return [...rest, { organization_id, member_type }];
}
