import { z } from 'zod';
import { Country, Region } from './enums.ts';
import { distinct, emailAddress, singleLine } from './text.ts';

/** Identity context: organizations, users, members, API clients and tokens (docs/http-contract.md "Authentication, roles and rate limits", "Members and invitations"). */

export const Uuid = z.uuid({ error: 'must be a UUID' });
/** An instant as ISO 8601 in UTC (`2026-01-31T09:15:00.000Z`). */
export const Timestamp = z.string().meta({ format: 'date-time' });
/** When a stored resource was created and last changed, in that order. */
export const stamps = { created_at: Timestamp, updated_at: Timestamp } as const;
export const MemberType = z.enum(['OWNER', 'EMPLOYEE', 'CLIENT']);
export type MemberType = z.infer<typeof MemberType>;
/** The members who write in their organization (estates, renovations, jobs); a CLIENT reads what they are a member of. */
export const WRITER_ROLES: ReadonlySet<MemberType> = new Set(['OWNER', 'EMPLOYEE']);
export const isWriterRole = (role: string | null | undefined): boolean => WRITER_ROLES.has(role as MemberType);
/** Extension (docs/http-contract.md "Members and invitations"): an invited member is PENDING, granting nothing, until they accept the emailed invitation. */
export const MembershipStatus = z.enum(['PENDING', 'ACTIVE']);
export type MembershipStatus = z.infer<typeof MembershipStatus>;
/**
 * `passports` (extension) writes renovation passports: drafts, the advisor's edits and the signature;
 * reading them takes `reports`, so a bank's or a grant office's client can read without signing.
 */
export const Scope = z.enum(['estates', 'renovations', 'calculations', 'reports', 'organization', 'audit', 'passports']);
export type Scope = z.infer<typeof Scope>;
/** What a client holds unless issued otherwise (docs/http-contract.md "Authentication, roles and rate limits"): everything but `audit`. */
export const DEFAULT_SCOPES: Scope[] = ['estates', 'renovations', 'calculations', 'reports', 'organization', 'passports'];

// Text rules (controls, unpaired surrogates, bidi overrides): text.ts.
const name = singleLine(200);
const email = emailAddress();
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
  .refine((b) => Object.keys(b).length > 0, nonEmpty)
  .meta({ minProperties: 1 });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/**
 * A phone number as people write it: an optional leading +, digits, and spaces or ( ) . / - between
 * them; 8 to 15 digits, the longest being E.164's maximum (ITU-T E.164, 2010).
 */
const phone = z
  .string()
  .trim()
  .max(32)
  // One pattern (published in the document): an optional +, a digit, then 7 to 14 more digits with ( ) . / - or spaces around them.
  .regex(/^\+?[0-9](?:[ ()./-]*[0-9]){7,14}[ ()./-]*$/, 'must be a phone number: 8 to 15 digits, with an optional leading + and spaces');
const text = singleLine;

/**
 * The organization's editable profile (the interface's "Organization"; `vat_number` and `external_id`
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

/** `region` follows from zipcode and country (the interface: read-only); sending it is refused by name. */
const notEditable = z
  .custom<never>(() => false, { message: 'is not editable: it follows from zipcode and country' })
  .optional()
  .meta({ readOnly: true, description: 'Read-only: derived from zipcode and country; refused in a body.' });

export const UpdateOrganizationBody = z
  .strictObject({ ...OrganizationProfileFields, region: notEditable })
  .partial()
  .refine((b) => Object.keys(b).length > 0, nonEmpty)
  .meta({ minProperties: 1 });
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

/** Who a person is, as a body names them when inviting or creating them. */
const PersonFields = { email_address: email, first_name: name, last_name: name };
/** Who a person is, as events and replies record them: the strings a body's PersonFields checked. */
export const personRecord = () => ({ email_address: z.string(), first_name: z.string(), last_name: z.string() });

export const AddOrganizationMemberBody = z.strictObject({ ...PersonFields, member_type: MemberType });
export type AddOrganizationMemberBody = z.infer<typeof AddOrganizationMemberBody>;

export const AttachClientMemberBody = z.strictObject({
  organization_id: Uuid,
  ...PersonFields,
  /** The estate the person is invited to (named in the invitation). */
  estate_id: Uuid.optional(),
});
export type AttachClientMemberBody = z.infer<typeof AttachClientMemberBody>;

/**
 * docs/http-contract.md "Authentication, roles and rate limits" names the organization `name`; the interface's `organization_name` and the other profile
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

/**
 * Extensions: redeeming the single-use, expiring token a message sent to an address carries. The
 * token is the proof that the redeemer reads that address.
 */
const EmailedToken = z
  .string()
  .min(20)
  .max(400)
  .regex(/^[A-Za-z0-9._-]+$/, 'must be the code from the message');
export const AcceptInvitationBody = z.strictObject({ token: EmailedToken });
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;
export const ConfirmEmailChangeBody = z.strictObject({ token: EmailedToken });
export type ConfirmEmailChangeBody = z.infer<typeof ConfirmEmailChangeBody>;

export const AdminCreateApiClientBody = z.strictObject({
  user_id: Uuid,
  /** Extension: which of the user's organizations the client acts in; default the user's first. */
  organization_id: Uuid.optional(),
  scopes: distinct(z.array(Scope).min(1)).optional(),
});
export type AdminCreateApiClientBody = z.infer<typeof AdminCreateApiClientBody>;

// ---- HTTP replies (read models) ----

export const Membership = z.object({ organization_id: Uuid, member_type: MemberType });
export const User = z.object({
  id: Uuid,
  ...personRecord(),
  external_id: z.string().nullable(),
  /** Active memberships only: a pending invitation grants nothing. */
  organizations: z.array(Membership),
  /** Extension: an address asked for and not yet confirmed from that address; null when none. */
  pending_email_address: z.string().nullable(),
  ...stamps,
});
export type User = z.infer<typeof User>;

/** The recorded profile with the derived `region` after `country`, where the interface puts it. */
function profileWithRegion() {
  const { phone_number, email_address, organization_name, country, ...address } = OrganizationProfile.shape;
  return { phone_number, email_address, organization_name, country, region: Region.nullable(), ...address };
}

/** The interface "Organization" in its order; then the extensions. Unknown values are null. */
export const Organization = z.object({ id: Uuid, ...profileWithRegion(), ...stamps });
export type Organization = z.infer<typeof Organization>;

/** A member as the interface lists them: `id` is the member's user id; `user_id`, `organization_id`, `created_at` are extensions. */
export const OrganizationMember = z.object({
  id: Uuid,
  ...personRecord(),
  member_type: MemberType,
  user_id: Uuid,
  organization_id: Uuid,
  /** PENDING: invited, names and address as the inviter gave them; ACTIVE: accepted (or created by the operator). */
  status: MembershipStatus,
  created_at: Timestamp,
});
export type OrganizationMember = z.infer<typeof OrganizationMember>;

/** Reply of `POST /v1/invitations/accept`: the membership the invitation granted. */
export const InvitationAcceptance = z.object({
  organization_id: Uuid,
  user_id: Uuid,
  member_type: MemberType,
  status: z.literal('ACTIVE'),
  /** The estates whose invitations this acceptance activated too (estate members). */
  estate_ids: z.array(Uuid),
});
export type InvitationAcceptance = z.infer<typeof InvitationAcceptance>;

/** Reply of `POST /v1/email-changes/confirm`. */
export const EmailChangeConfirmation = z.object({ user_id: Uuid, email_address: z.string() });
export type EmailChangeConfirmation = z.infer<typeof EmailChangeConfirmation>;

/** Reply of the operator's `DELETE /admin/api-clients/{client_id}`: the client is revoked, its tokens stop working. */
export const ApiClientRevoked = z.object({ client_id: z.string(), revoked: z.literal(true) });

/** Reply of the operator's `POST /admin/api-clients/{client_id}/webhook-secret`: the new secret, shown once. */
export const WebhookSecretRotated = z.object({ client_id: Uuid, webhook_secret: z.string() });
export type WebhookSecretRotated = z.infer<typeof WebhookSecretRotated>;

/** The operator's view of the embedded outbox (`GET /admin/outbox`, `renopath outbox`). */
export const OutboxQuery = z.strictObject({
  to: emailAddress().optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type OutboxQuery = z.infer<typeof OutboxQuery>;
export const OutboxMessage = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sent_at: Timestamp,
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

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
  /** The owner. When the address already had an account, only what the operator gave is shown and the owner is PENDING. */
  user: User,
  /** Extension: ACTIVE for a new address; PENDING until an existing account accepts the emailed invitation. */
  owner_status: MembershipStatus,
  client_id: Uuid,
  client_secret: z.string(),
  webhook_secret: z.string(),
});
export type AdminOrganizationCreated = z.infer<typeof AdminOrganizationCreated>;

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
export type Jwks = z.infer<typeof Jwks>;

/** The verified caller, as the gateway passes it with every command and query. */
/** Calculations asks identity to sign a webhook delivery (`cmd.identity.sign-webhook`): the secret never leaves identity. */
export const SignWebhookBody = z.strictObject({
  client_id: z.string().min(1).max(64),
  /** The `webhook-id` header. */
  id: z.string().min(1).max(255),
  /** The `webhook-timestamp` header: Unix seconds. */
  timestamp: z.number().int().min(0),
  /** The exact bytes sent, as text: a job's result can be large. */
  body: z.string().max(16 * 1024 * 1024),
});
export type SignWebhookBody = z.infer<typeof SignWebhookBody>;

/** `cmd.identity.sign-document`: the JWS payload and its `typ` header (e.g. `renovation-passport+jws`). */
export const SignDocumentBody = z.strictObject({
  payload: z.record(z.string(), z.unknown()),
  typ: z.string().regex(/^[a-z0-9.+-]{1,64}$/),
});
export type SignDocumentBody = z.infer<typeof SignDocumentBody>;

export const Actor = z.object({
  user_id: Uuid,
  organization_id: Uuid,
  client_id: z.string(),
  scopes: z.array(Scope),
});
export type Actor = z.infer<typeof Actor>;

/** Issuer and audience both the identity service and the gateway use unless configured otherwise. */
export const TOKEN_DEFAULTS = { issuer: 'renopath', audience: 'renopath-api' } as const;

/** Claims of an access token (docs/http-contract.md "Authentication, roles and rate limits"). */
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
  /** An active member (the owner at creation, an accepted invitation, a role change). */
  OrganizationMemberAdded: z.object({ organization_id: Uuid, user_id: Uuid, member_type: MemberType }),
  /**
   * A pending membership: grants nothing until the invitee redeems the token (only its SHA-256 is
   * stored) before `expires_at`. Names and address are the inviter's, shown only to this organization.
   */
  OrganizationMemberInvited: z.object({
    organization_id: Uuid,
    user_id: Uuid,
    member_type: MemberType,
    invitation_id: Uuid,
    ...personRecord(),
    /** The estate that invited them (estate members), else null. */
    estate_id: Uuid.nullable(),
    token_hash: z.string(),
    expires_at: Timestamp,
  }),
  OrganizationMemberRemoved: z.object({ organization_id: Uuid, user_id: Uuid }),
  /**
   * An organization asked for with its owner and API client (admin API, first start). The onboarding
   * process manager carries it out: registers the owner (or, for an address that has an account,
   * invites them with `owner_invitation`), creates the organization, issues the client.
   */
  OnboardingStarted: z.object({
    organization_id: Uuid,
    profile: OrganizationProfile,
    /** `user_id`: the owner's id when the address has no account yet. */
    owner: z.object({ user_id: Uuid, ...personRecord() }),
    owner_invitation: z.object({ invitation_id: Uuid, token_hash: z.string(), expires_at: Timestamp }),
    client: z.object({ client_id: z.string(), scopes: z.array(Scope), secret_hash: z.string(), webhook_secret_encrypted: z.string() }),
  }),
  UserRegistered: z.object({ user_id: Uuid, ...personRecord() }),
  UserUpdated: z.object({
    user_id: Uuid,
    changes: z.object({ ...personRecord(), external_id: z.string().nullable() }).partial(),
  }),
  /** A new address asked for; it replaces the current one only when confirmed with the token sent to it (hash stored). */
  UserEmailChangeRequested: z.object({ user_id: Uuid, email_address: z.string(), token_hash: z.string(), expires_at: Timestamp }),
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
    /** The webhook signing secret, AES-256-GCM under RENOPATH_SECRETS_KEY (never in clear in an event or on the bus). */
    webhook_secret_encrypted: z.string().optional(),
    /** Written in clear by earlier versions only; read for compatibility, never written. */
    webhook_secret: z.string().optional(),
  }),
  ApiClientWebhookSecretRotated: z.object({ client_id: Uuid, webhook_secret_encrypted: z.string() }),
  ApiClientRevoked: z.object({ client_id: Uuid, user_id: Uuid, organization_id: Uuid }),
} as const;
export type IdentityEventType = keyof typeof IdentityEvents;
export type IdentityEvent = {
  [K in IdentityEventType]: { type: K; data: z.infer<(typeof IdentityEvents)[K]> };
}[IdentityEventType];
