import type { Actor } from './identity.ts';

/**
 * What the gateway sends a service for one HTTP request, on `cmd.<context>.<name>` or
 * `qry.<context>.<name>`: the verified caller, the request id and the validated inputs.
 */
export interface ServiceRequest<B = unknown, P = Record<string, string>, Q = Record<string, unknown>> {
  /** null only on the token endpoint and the operator admin API. */
  actor: Actor | null;
  correlation_id: string;
  /**
   * The client's `Idempotency-Key` scoped by API client and request (`<client_id>:<request hash>:<key>`):
   * services put it in their events' metadata and the event store writes a keyed command once.
   */
  idempotency_key?: string;
  params: P;
  query: Q;
  body: B;
  /**
   * The W3C trace context the request came in (its bus headers' `traceparent`, set by the serving
   * kit, not sent in the message): the handler's events carry it on (`commandContext`).
   */
  traceparent?: string;
}

/** Subjects of the identity context. */
export const IdentitySubjects = {
  issueToken: 'cmd.identity.issue-token',
  jwks: 'qry.identity.jwks',
  revokedClients: 'qry.identity.revoked-clients',
  me: 'qry.identity.me',
  updateUser: 'cmd.identity.update-user',
  organizations: 'qry.identity.organizations',
  updateOrganization: 'cmd.identity.update-organization',
  organizationMembers: 'qry.identity.organization-members',
  addOrganizationMember: 'cmd.identity.add-organization-member',
  removeOrganizationMember: 'cmd.identity.remove-organization-member',
  adminCreateOrganization: 'cmd.identity.admin-create-organization',
  adminCreateApiClient: 'cmd.identity.admin-create-api-client',
  adminRevokeApiClient: 'cmd.identity.admin-revoke-api-client',
  /**
   * Internal (other services, not HTTP): make a person a CLIENT member of an organization, creating
   * the user when the email address is new; an existing member keeps their role. Body:
   * AttachClientMemberBody; reply: OrganizationMember.
   */
  attachClientMember: 'cmd.identity.attach-client-member',
  /** Public (no token): redeem an emailed invitation token; the pending membership becomes ACTIVE. */
  acceptInvitation: 'cmd.identity.accept-invitation',
  /** Public (no token): redeem an emailed email-change token; the user's address changes. */
  confirmEmailChange: 'cmd.identity.confirm-email-change',
  adminRotateWebhookSecret: 'cmd.identity.admin-rotate-webhook-secret',
  adminOutbox: 'qry.identity.admin-outbox',
  /**
   * Internal (the calculations context, not HTTP): sign a webhook with the API client's webhook secret,
   * which never leaves identity. Body: { client_id, id, timestamp (Unix seconds), body (the exact
   * payload text) }; reply: { signature } (the Standard Webhooks `webhook-signature` value).
   */
  signWebhook: 'cmd.identity.sign-webhook',
  /**
   * Internal (the reporting context, not HTTP): sign a document's payload (a renovation passport) as
   * a compact JWS with identity's document key, which never leaves identity. Body: SignDocumentBody;
   * reply: { jws }. The key is published at `/.well-known/jwks.json` beside the token keys.
   */
  signDocument: 'cmd.identity.sign-document',
  /** Public: every key of `/.well-known/jwks.json`, the token keys and the document keys (`jwks` stays the token keys the gateway trusts). */
  publishedKeys: 'qry.identity.published-keys',
  /** Internal: the document keys alone (what a passport's signature is checked against). */
  documentKeys: 'qry.identity.document-keys',
} as const;
