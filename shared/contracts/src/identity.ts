import { z } from 'zod';
import { Country, Region } from './enums.ts';

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

/**
 * A phone number as people write it: an optional leading +, digits, and spaces or ( ) . / - between
 * them; 8 to 15 digits, the longest being E.164's maximum (ITU-T E.164, 2010).
 */
const phone = z
  .string()
  .trim()
  .max(32)
  .refine((v) => /^\+?[0-9][0-9 ()./-]*$/.test(v) && /^(?:\D*\d){8,15}\D*$/.test(v), {
    message: 'must be a phone number: 8 to 15 digits, with an optional leading + and spaces',
  });
const text = (max: number) => z.string().trim().min(1).max(max).regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/**
 * The organization's editable profile (INTERFACE.md "Organization"; `vat_number` and `external_id`
 * are extensions). `null` clears an optional field. The identity service checks `zipcode` against
 * `country` (a postal code of that country), also when only one of them changes.
 */
const OrganizationProfileFields = {
  phone_number: phone.nullable(),
  email_address: email.nullable(),
  organization_name: name,
  country: Country,
  street: text(200).nullable(),
  house_number: text(16).nullable(),
  house_number_extra: text(16).nullable(),
  zipcode: text(16).nullable(),
  place: text(200).nullable(),
  vat_number: z.string().max(32).nullable(),
  external_id: externalId,
};
/** What an organization event records about its profile; `region` is derived from it, never stored. */
export const OrganizationProfile = z.object({
  phone_number: z.string().nullable(),
  email_address: z.string().nullable(),
  organization_name: z.string(),
  country: Country,
  street: z.string().nullable(),
  house_number: z.string().nullable(),
  house_number_extra: z.string().nullable(),
  zipcode: z.string().nullable(),
  place: z.string().nullable(),
  vat_number: z.string().nullable(),
  external_id: z.string().nullable(),
});
export type OrganizationProfile = z.infer<typeof OrganizationProfile>;

/** `region` follows from zipcode and country (INTERFACE.md: read-only); sending it is refused by name. */
const notEditable = z
  .custom<never>(() => false, { message: 'is not editable: it follows from zipcode and country' })
  .optional()
  .meta({ readOnly: true, description: 'Read-only: derived from zipcode and country; refused in a body.' });

export const UpdateOrganizationBody = z
  .strictObject({ ...OrganizationProfileFields, region: notEditable })
  .partial()
  .refine((b) => Object.keys(b).length > 0, nonEmpty);
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

/** Who a person is, as a body names them when inviting or creating them. */
const PersonFields = { email_address: email, first_name: name, last_name: name };

export const AddOrganizationMemberBody = z.strictObject({ ...PersonFields, member_type: MemberType });
export type AddOrganizationMemberBody = z.infer<typeof AddOrganizationMemberBody>;

export const AttachClientMemberBody = z.strictObject({ organization_id: Uuid, ...PersonFields });
export type AttachClientMemberBody = z.infer<typeof AttachClientMemberBody>;

/**
 * API.md 3 names the organization `name`; INTERFACE.md's `organization_name` and the other profile
 * fields are accepted too (extension). One of `name` and `organization_name` is required.
 */
export const AdminCreateOrganizationBody = z
  .strictObject({
    ...OrganizationProfileFields,
    name: name.optional(),
    organization_name: name.optional(),
    phone_number: OrganizationProfileFields.phone_number.optional(),
    email_address: OrganizationProfileFields.email_address.optional(),
    street: OrganizationProfileFields.street.optional(),
    house_number: OrganizationProfileFields.house_number.optional(),
    house_number_extra: OrganizationProfileFields.house_number_extra.optional(),
    zipcode: OrganizationProfileFields.zipcode.optional(),
    place: OrganizationProfileFields.place.optional(),
    vat_number: OrganizationProfileFields.vat_number.optional(),
    external_id: OrganizationProfileFields.external_id.optional(),
    region: notEditable,
    owner: z.strictObject(PersonFields),
  })
  .refine((b) => b.name !== undefined || b.organization_name !== undefined, { message: 'is required', path: ['name'] })
  .refine((b) => b.name === undefined || b.organization_name === undefined || b.name === b.organization_name, {
    message: 'must equal name when both are given',
    path: ['organization_name'],
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

/** INTERFACE.md "Organization" in its order; then the extensions. Unknown values are null. */
export const Organization = z.object({
  id: Uuid,
  phone_number: z.string().nullable(),
  email_address: z.string().nullable(),
  organization_name: z.string(),
  country: Country,
  region: Region.nullable(),
  street: z.string().nullable(),
  house_number: z.string().nullable(),
  house_number_extra: z.string().nullable(),
  zipcode: z.string().nullable(),
  place: z.string().nullable(),
  vat_number: z.string().nullable(),
  external_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Organization = z.infer<typeof Organization>;

/** A member as INTERFACE.md lists them: `id` is the member's user id; `user_id`, `organization_id`, `created_at` are extensions. */
export const OrganizationMember = z.object({
  id: Uuid,
  email_address: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  member_type: MemberType,
  user_id: Uuid,
  organization_id: Uuid,
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
  OrganizationCreated: z.object({ organization_id: Uuid, ...OrganizationProfile.shape }),
  OrganizationUpdated: z.object({ organization_id: Uuid, changes: OrganizationProfile.partial() }),
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
