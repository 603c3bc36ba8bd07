import { z } from 'zod';
import { Country } from './enums.ts';

/** Identity context: organizations, users, members, API clients and tokens (API.md 3, 4.6). */

export const Uuid = z.uuid({ error: 'must be a UUID' });
export const Timestamp = z.string();
export const MemberType = z.enum(['OWNER', 'EMPLOYEE', 'CLIENT']);
export type MemberType = z.infer<typeof MemberType>;
export const Scope = z.enum(['estates', 'renovations', 'calculations', 'reports', 'organization', 'audit']);
export type Scope = z.infer<typeof Scope>;
/** What a client holds unless issued otherwise (API.md 3): everything but `audit`. */
export const DEFAULT_SCOPES: Scope[] = ['estates', 'renovations', 'calculations', 'reports', 'organization'];

const name = z.string().trim().min(1).max(200).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');
const email = z.email({ error: 'must be an email address' }).max(320);
const externalId = z.string().min(1).max(255).nullable();

// ---- HTTP bodies ----

/** PATCH bodies must change something; checked only when the fields themselves are valid. */
const nonEmpty = { message: 'must change at least one field', when: (p: { issues: unknown[] }) => p.issues.length === 0 };

export const TokenRequestBody = z.strictObject({
  client_id: z.string().min(1).max(200),
  client_secret: z.string().min(1).max(200),
  grant_type: z.literal('client_credentials').optional(),
});
export const TokenReply = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});
export type TokenReply = z.infer<typeof TokenReply>;

export const UpdateUserBody = z
  .strictObject({ first_name: name, last_name: name, email_address: email, external_id: externalId })
  .partial()
  .refine((b) => Object.keys(b).length > 0, nonEmpty);
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UpdateOrganizationBody = z
  .strictObject({ name, country: Country, vat_number: z.string().max(32).nullable(), external_id: externalId })
  .partial()
  .refine((b) => Object.keys(b).length > 0, nonEmpty);
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

/** Who a person is, as a body names them when inviting or creating them. */
const PersonFields = { email_address: email, first_name: name, last_name: name };

export const AddOrganizationMemberBody = z.strictObject({ ...PersonFields, member_type: MemberType });
export type AddOrganizationMemberBody = z.infer<typeof AddOrganizationMemberBody>;

export const AttachClientMemberBody = z.strictObject({ organization_id: Uuid, ...PersonFields });
export type AttachClientMemberBody = z.infer<typeof AttachClientMemberBody>;

export const AdminCreateOrganizationBody = z.strictObject({
  name,
  country: Country,
  owner: z.strictObject(PersonFields),
});
export type AdminCreateOrganizationBody = z.infer<typeof AdminCreateOrganizationBody>;

export const AdminCreateApiClientBody = z.strictObject({
  user_id: Uuid,
  /** Extension: which of the user's organizations the client acts in; default the user's first. */
  organization_id: Uuid.optional(),
  scopes: z
    .array(Scope)
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: 'must not repeat a value' })
    .optional(),
});
export type AdminCreateApiClientBody = z.infer<typeof AdminCreateApiClientBody>;

// ---- HTTP replies (read models) ----

export const Membership = z.object({ organization_id: Uuid, member_type: MemberType });
export const User = z.object({
  id: Uuid,
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  external_id: z.string().nullable(),
  organizations: z.array(Membership),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type User = z.infer<typeof User>;

export const Organization = z.object({
  id: Uuid,
  name: z.string(),
  country: Country,
  vat_number: z.string().nullable(),
  external_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Organization = z.infer<typeof Organization>;

export const OrganizationMember = z.object({
  user_id: Uuid,
  organization_id: Uuid,
  member_type: MemberType,
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  created_at: Timestamp,
});
export type OrganizationMember = z.infer<typeof OrganizationMember>;

export const ApiClientCreated = z.object({
  client_id: Uuid,
  client_secret: z.string(),
  webhook_secret: z.string(),
  user_id: Uuid,
  organization_id: Uuid,
  scopes: z.array(Scope),
});
export type ApiClientCreated = z.infer<typeof ApiClientCreated>;

export const AdminOrganizationCreated = z.object({
  organization: Organization,
  user: User,
  client_id: Uuid,
  client_secret: z.string(),
  webhook_secret: z.string(),
});
export type AdminOrganizationCreated = z.infer<typeof AdminOrganizationCreated>;

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
export type Jwks = z.infer<typeof Jwks>;

/** The verified caller, as the gateway passes it with every command and query. */
export const Actor = z.object({
  user_id: Uuid,
  organization_id: Uuid,
  client_id: z.string(),
  scopes: z.array(Scope),
});
export type Actor = z.infer<typeof Actor>;

/** Issuer and audience both the identity service and the gateway use unless configured otherwise. */
export const TOKEN_DEFAULTS = { issuer: 'renopath', audience: 'renopath-api' } as const;

/** Claims of an access token (API.md 3). */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  org: string;
  client_id: string;
  scope: string;
  iat: number;
  exp: number;
  jti: string;
}

// ---- events (past tense; every event names its aggregate id) ----

export const IdentityEvents = {
  OrganizationCreated: z.object({ organization_id: Uuid, name: z.string(), country: Country }),
  OrganizationUpdated: z.object({
    organization_id: Uuid,
    changes: z.object({ name: z.string(), country: Country, vat_number: z.string().nullable(), external_id: z.string().nullable() }).partial(),
  }),
  OrganizationMemberAdded: z.object({ organization_id: Uuid, user_id: Uuid, member_type: MemberType }),
  OrganizationMemberRemoved: z.object({ organization_id: Uuid, user_id: Uuid }),
  UserRegistered: z.object({ user_id: Uuid, email_address: z.string(), first_name: z.string(), last_name: z.string() }),
  UserUpdated: z.object({
    user_id: Uuid,
    changes: z.object({ email_address: z.string(), first_name: z.string(), last_name: z.string(), external_id: z.string().nullable() }).partial(),
  }),
  /** Claims an email address for one user (uniqueness through a stream per address). */
  EmailAddressClaimed: z.object({ email_address: z.string(), user_id: Uuid }),
  EmailAddressReleased: z.object({ email_address: z.string(), user_id: Uuid }),
  ApiClientIssued: z.object({
    client_id: Uuid,
    user_id: Uuid,
    organization_id: Uuid,
    scopes: z.array(Scope),
    /** scrypt hash of the secret; the secret itself is never stored. */
    secret_hash: z.string(),
    /** Needed in clear to sign webhooks (Standard Webhooks HMAC). */
    webhook_secret: z.string(),
  }),
  ApiClientRevoked: z.object({ client_id: Uuid, user_id: Uuid, organization_id: Uuid }),
} as const;
export type IdentityEventType = keyof typeof IdentityEvents;
export type IdentityEvent = {
  [K in IdentityEventType]: { type: K; data: z.infer<(typeof IdentityEvents)[K]> };
}[IdentityEventType];
