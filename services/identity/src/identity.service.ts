import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import {
  DomainError,
  type Bus,
  type Closeable,
  type EventStore,
  type ReadStore,
} from '@renopath/platform';
import { runProjection, type Projection } from '@renopath/platform/projection-runner.ts';
import { actorOf, commandContext, newId, parse, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import type { Mailer, MailMessage } from '@renopath/platform/ports/mailer.ts';
import {
  AcceptInvitationBody,
  AddOrganizationMemberBody,
  AdminCreateApiClientBody,
  AdminCreateOrganizationBody,
  AttachClientMemberBody,
  ConfirmEmailChangeBody,
  DEFAULT_SCOPES,
  IdentitySubjects as S,
  OutboxQuery,
  TokenRequestBody,
  UpdateOrganizationBody,
  UpdateUserBody,
  type Actor,
  type ApiClientCreated,
  type AdminOrganizationCreated,
  type EmailChangeConfirmation,
  type InvitationAcceptance,
  type MemberType,
  type Organization,
  type OrganizationProfile,
  type Scope,
  type ServiceRequest,
  type TokenReply,
  type User,
  type WebhookSecretRotated,
} from '@renopath/contracts';
import { apiClientDecider, apiClientStream } from './api-client/api-client.decider.ts';
import {
  C, DIRECTORY_PROJECTION, memberKey, memberReply, projectDirectory, userReply, type ApiClientDoc, type MemberDoc,
} from './directory/directory.projection.ts';
import { emailClaimDecider, emailStream, normalizeEmail } from './email/email-claim.decider.ts';
import { addressInUseMessage, emailChangeMessage, invitationMessage } from './mail/messages.ts';
import { newEmailedToken, readEmailedToken } from './mail/emailed-token.ts';
import {
  INVALID_INVITATION, organizationDecider, organizationStream, zipcodeProblem, type InvitationTerms, type OrganizationState,
} from './organization/organization.decider.ts';
import { hashSecret, newSecret, newWebhookSecret, verifySecret } from './tokens/secrets.ts';
import type { SigningKeys } from './tokens/signing-keys.ts';
import { confirmableAddress, INVALID_EMAIL_CHANGE, userDecider, userStream } from './user/user.decider.ts';
import type { SecretBox } from './webhook-secrets/secret-box.ts';

export interface IdentityConfig {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  settleTimeoutMs: number;
  /** Base of the addresses named in messages. */
  publicUrl: string;
}

export interface IdentityDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  keys: SigningKeys;
  /** Invitations and address confirmations go out through it. */
  mailer: Mailer;
  /** Seals webhook secrets: events carry only the ciphertext. */
  secrets: SecretBox;
  config: IdentityConfig;
  log: Logger;
  now?: () => Date;
}

export interface IdentityService {
  projection: Projection;
  /** First start of an empty store: a demo organization, owner and API client (API.md 3). */
  bootstrapIfEmpty(credentials: { client_id?: string; client_secret?: string }): Promise<null | { client_id: string; client_secret: string; organization_id: string; user_id: string }>;
  /** The API client's webhook signing secret in clear, for the context that signs webhooks in this process; null when unknown. */
  webhookSecret(client_id: string): Promise<string | null>;
  close(): Promise<void>;
}

const INVALID_CLIENT = new DomainError(400, ['client_id or client_secret is not valid']);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long an emailed code works: an invitation may wait for a week, an address change for a day. */
const INVITATION_TTL_MS = 7 * 86_400_000;
const EMAIL_CHANGE_TTL_MS = 86_400_000;

export async function startIdentity(deps: IdentityDeps): Promise<IdentityService> {
  const { bus, eventStore: store, readStore: reads, keys, mailer, secrets, config, log } = deps;
  const now = deps.now ?? (() => new Date());

  const projection = await runProjection({
    name: DIRECTORY_PROJECTION,
    eventStore: store,
    readStore: reads,
    collections: Object.values(C),
    handle: projectDirectory,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'directory projection failed; retrying'),
  });

  const ctx = (req: ServiceRequest) => commandContext(req, now());
  const settle = readYourWrites(projection, config.settleTimeoutMs);

  const getUser = async (id: string) => {
    const user = await reads.get<User>(C.users, id);
    return user && userReply(user);
  };
  const orgState = async (organization_id: string) =>
    fold(organizationDecider, (await store.readStream(organizationStream(organization_id))).map((e) => e as never));
  const claimOf = async (email: string) => fold(emailClaimDecider, (await store.readStream(emailStream(email))).map((e) => e as never)).user_id;

  /** A message is a courtesy on top of a stored change: a mail server that is down must not undo the change. */
  async function deliver(message: MailMessage) {
    try {
      await mailer.send(message);
    } catch (err) {
      log.error({ err, subject: message.subject }, 'could not send a message; the change stands, the sender may invite again');
    }
  }

  /**
   * The user an address belongs to; a new address gets a user at once (its claim keeps one address
   * one person), whose address is proven when they accept what was sent to it. `existing` tells
   * whether the address had an account.
   */
  async function claimEmailAndRegister(req: ServiceRequest, owner: { email_address: string; first_name: string; last_name: string }) {
    const email = normalizeEmail(owner.email_address);
    const claimed = await claimOf(email);
    if (claimed) return { user_id: claimed, position: null as bigint | null, existing: true };
    const user_id = newId(req, 'user');
    try {
      await handleCommand(store, emailStream(email), emailClaimDecider, { type: 'ClaimEmailAddress', email_address: email, user_id }, ctx(req));
    } catch (err) {
      // Another request claimed the address first: that user is the address's.
      const winner = err instanceof DomainError && err.status === 409 ? await claimOf(email) : null;
      if (winner) return { user_id: winner, position: null as bigint | null, existing: true };
      throw err;
    }
    const registered = await handleCommand(store, userStream(user_id), userDecider, {
      type: 'RegisterUser', user_id, email_address: email, first_name: owner.first_name, last_name: owner.last_name,
    }, ctx(req));
    return { user_id, position: registered.position, existing: false };
  }

  /** New invitation terms: the code goes by mail, only its hash into the event. */
  function invitationTerms(req: ServiceRequest, organization_id: string, person: { email_address: string; first_name: string; last_name: string }, estate_id: string | null) {
    const invitation_id = newId(req, 'invitation');
    const { token, token_hash } = newEmailedToken(organization_id, invitation_id);
    const terms: InvitationTerms = {
      invitation_id,
      email_address: normalizeEmail(person.email_address),
      first_name: person.first_name,
      last_name: person.last_name,
      estate_id,
      token_hash,
      expires_at: new Date(now().getTime() + INVITATION_TTL_MS).toISOString(),
    };
    return { terms, token };
  }

  /** Mails the code when this request's invitation is the one stored (a deduplicated retry's code would not work). */
  async function sendInvitation(state: OrganizationState, user_id: string, terms: InvitationTerms, token: string) {
    const stored = state.pending[user_id];
    if (stored?.invitations[terms.invitation_id]?.token_hash !== terms.token_hash) return;
    await deliver(invitationMessage({
      to: terms.email_address, first_name: terms.first_name, organization_name: state.organization_name, member_type: stored.member_type,
      estate: terms.estate_id !== null, token, expires_at: terms.expires_at, publicUrl: config.publicUrl,
    }));
  }

  /**
   * Invites a person into an organization (API.md 4.6): pending until they accept, whether or not
   * the address has an account, and answered with the names the inviter gave.
   */
  async function invite(req: ServiceRequest, o: {
    organization_id: string; actor_user_id: string | null; person: { email_address: string; first_name: string; last_name: string };
    member_type: MemberType; attach: boolean; estate_id: string | null;
  }): Promise<MemberDoc> {
    const { user_id } = await claimEmailAndRegister(req, o.person);
    const { terms, token } = invitationTerms(req, o.organization_id, o.person, o.estate_id);
    const result = await handleCommand(store, organizationStream(o.organization_id), organizationDecider, {
      type: 'InviteOrganizationMember', organization_id: o.organization_id, actor_user_id: o.actor_user_id, user_id, member_type: o.member_type, attach: o.attach, invitation: terms,
    }, ctx(req));
    await settle(result.position);
    await sendInvitation(result.state, user_id, terms, token);
    const member = await reads.get<MemberDoc>(C.members, memberKey(o.organization_id, user_id));
    if (!member) throw new Error('member not projected');
    return memberReply(member);
  }

  /** A new API client; the credentials are the bootstrap's configured ones, else both are made here. */
  async function issueClient(
    req: ServiceRequest, user_id: string, organization_id: string, scopes: Scope[],
    { client_id, client_secret }: { client_id: string; client_secret: string } = { client_id: randomUUID(), client_secret: newSecret() },
  ): Promise<ApiClientCreated & { position: bigint | null }> {
    const webhook_secret = newWebhookSecret();
    const result = await handleCommand(store, apiClientStream(client_id), apiClientDecider, {
      type: 'IssueApiClient', client_id, user_id, organization_id, scopes, secret_hash: await hashSecret(client_secret),
      webhook_secret_encrypted: secrets.seal(webhook_secret, client_id),
    }, ctx(req));
    return { client_id, client_secret, webhook_secret, user_id, organization_id, scopes, position: result.position };
  }

  async function createOrganizationWithOwner(req: ServiceRequest, body: AdminCreateOrganizationBody, clientCredentials?: { client_id: string; client_secret: string }): Promise<AdminOrganizationCreated> {
    const profile = profileOf(body);
    // Refused before the owner is registered, so a bad request leaves no user behind.
    const problem = zipcodeProblem(profile.zipcode, profile.country);
    if (problem) throw new DomainError(400, [problem]);
    const { user_id, existing } = await claimEmailAndRegister(req, body.owner);
    const organization_id = randomUUID();
    // An address that already has an account is not the operator's to hand an organization to: its user must accept.
    const invitation = existing ? invitationTerms(req, organization_id, body.owner, null) : null;
    const created = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
      type: 'CreateOrganization', organization_id, profile, owner_user_id: user_id, ...(invitation ? { owner_invitation: invitation.terms } : {}),
    }, ctx(req));
    // A pending owner's client works once they accept (the token endpoint wants an active membership).
    const client = await issueClient(req, user_id, organization_id, DEFAULT_SCOPES, clientCredentials);
    await settle(client.position);
    if (invitation) await sendInvitation(created.state, user_id, invitation.terms, invitation.token);
    const [organization, user] = await Promise.all([reads.get<Organization>(C.organizations, organization_id), getUser(user_id)]);
    const owner: User = invitation
      ? // Only what the operator gave: the account's own profile and other organizations are not shown.
        { ...user!, email_address: invitation.terms.email_address, first_name: body.owner.first_name, last_name: body.owner.last_name, external_id: null, organizations: [], pending_email_address: null }
      : user!;
    return {
      organization: organization!, user: owner, owner_status: invitation ? 'PENDING' : 'ACTIVE',
      client_id: client.client_id, client_secret: client.client_secret, webhook_secret: client.webhook_secret,
    };
  }

  /** The profile an admin body gives (`name` per API.md 3, `organization_name` per INTERFACE.md); the rest unknown. */
  function profileOf(body: AdminCreateOrganizationBody): OrganizationProfile {
    return {
      phone_number: body.phone_number ?? null,
      email_address: body.email_address ?? null,
      organization_name: (body.organization_name ?? body.name)!,
      country: body.country,
      street: body.street ?? null,
      house_number: body.house_number ?? null,
      house_number_extra: body.house_number_extra ?? null,
      zipcode: body.zipcode ?? null,
      place: body.place ?? null,
      vat_number: body.vat_number ?? null,
      external_id: body.external_id ?? null,
    };
  }

  /**
   * May `actor` see (and, as `write`, edit) user `targetId`? Only through the token's organization
   * and active memberships: 404 hides everyone else (other tenants, people merely invited).
   */
  async function authorizeUserAccess(actor: Actor, targetId: string, write: boolean): Promise<User> {
    const target = await getUser(targetId);
    const shared = target?.organizations.some((m) => m.organization_id === actor.organization_id);
    if (!target || (target.id !== actor.user_id && !shared)) throw new DomainError(404, ['user not found']);
    if (write && target.id !== actor.user_id) {
      const me = await getUser(actor.user_id);
      const role = me?.organizations.find((m) => m.organization_id === actor.organization_id)?.member_type;
      if (role !== 'OWNER') throw new DomainError(403, ['only the user or an owner of their organization may edit a user']);
      // Users are global: an owner must not rewrite the profile a member also has in another organization.
      if (!target.organizations.every((m) => m.organization_id === actor.organization_id)) {
        throw new DomainError(403, ['a user who also belongs to another organization may only be edited by themself']);
      }
    }
    return target;
  }

  /** The caller's role in `organization_id`: only the token's organization counts, never another of the same user. */
  async function requireMembership(actor: Actor, organization_id: string) {
    if (organization_id !== actor.organization_id) throw new DomainError(404, ['organization not found']);
    const me = await getUser(actor.user_id);
    const membership = me?.organizations.find((m) => m.organization_id === organization_id);
    if (!membership) throw new DomainError(404, ['organization not found']);
    return membership;
  }
  /** Writes to an organization go through the token's organization only (404 otherwise, like another tenant's). */
  function requireTokenOrganization(actor: Actor, organization_id: string) {
    if (organization_id !== actor.organization_id) throw new DomainError(404, ['organization not found']);
  }

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.issueToken]: async (req) => {
      const body = parse(TokenRequestBody, req.body);
      const events = UUID_RE.test(body.client_id) ? await store.readStream(apiClientStream(body.client_id.toLowerCase())) : [];
      const client = fold(apiClientDecider, events.map((e) => e as never));
      const known = client.exists && !client.revoked;
      // An unknown or revoked id is checked against a dummy hash: its answer takes as long as a wrong secret's.
      const matches = await verifySecret(body.client_secret, known ? client.secret_hash : null);
      if (!known || !matches) throw INVALID_CLIENT;
      // A client whose user left the organization must not act in it any more.
      const user = await getUser(client.user_id);
      if (!user?.organizations.some((m) => m.organization_id === client.organization_id)) throw INVALID_CLIENT;
      const access_token = await keys.sign(
        { iss: config.issuer, aud: config.audience, sub: client.user_id, org: client.organization_id, client_id: body.client_id.toLowerCase(), scope: client.scopes.join(' ') },
        config.tokenTtlSeconds,
      );
      return { access_token, expires_in: config.tokenTtlSeconds, token_type: 'Bearer' } satisfies TokenReply;
    },

    [S.jwks]: async () => keys.jwks(),

    [S.revokedClients]: async () => {
      const { items } = await reads.query<ApiClientDoc>(C.clients, { filter: { revoked: true } });
      return { client_ids: items.map((c) => c.client_id) };
    },

    [S.me]: async (req) => {
      const user = await getUser(actorOf(req).user_id);
      if (!user) throw new DomainError(404, ['user not found']);
      return [user];
    },

    [S.updateUser]: async (req) => {
      const actor = actorOf(req);
      const user_id = req.params['user_id'] ?? '';
      const { email_address, ...changes } = parse(UpdateUserBody, req.body);
      const target = await authorizeUserAccess(actor, user_id, true);
      const email = email_address === undefined ? null : normalizeEmail(email_address);
      const changingAddress = email !== null && email !== target.email_address;
      // The address is where invitations go: only its owner asks for another one, and only that address confirms it.
      if (changingAddress && user_id !== actor.user_id) throw new DomainError(403, ['only the user may change their own email address']);
      let position: bigint | null = null;
      if (Object.keys(changes).length > 0) {
        position = (await handleCommand(store, userStream(user_id), userDecider, { type: 'UpdateUser', user_id, changes }, ctx(req))).position;
      }
      if (changingAddress) {
        const { token, token_hash } = newEmailedToken(user_id);
        const expires_at = new Date(now().getTime() + EMAIL_CHANGE_TTL_MS).toISOString();
        const requested = await handleCommand(store, userStream(user_id), userDecider, { type: 'RequestEmailChange', user_id, email_address: email, token_hash, expires_at }, ctx(req));
        position = requested.position ?? position;
        // The same answer whether or not the address has an account: its owner gets a neutral note, no code.
        const taken = (await claimOf(email)) !== null;
        if (requested.state.pending_email?.token_hash === token_hash) {
          await deliver(taken ? addressInUseMessage({ to: email }) : emailChangeMessage({ to: email, token, expires_at, publicUrl: config.publicUrl }));
        }
      }
      await settle(position);
      return await getUser(user_id);
    },

    [S.confirmEmailChange]: async (req): Promise<EmailChangeConfirmation> => {
      const { token } = parse(ConfirmEmailChangeBody, req.body);
      const read = readEmailedToken(token, 1);
      if (!read) throw INVALID_EMAIL_CHANGE();
      const [user_id] = read.ids as [string];
      const state = fold(userDecider, (await store.readStream(userStream(user_id))).map((e) => e as never));
      const at = now().toISOString();
      const email = confirmableAddress(state, read.token_hash, at);
      try {
        await handleCommand(store, emailStream(email), emailClaimDecider, { type: 'ClaimEmailAddress', email_address: email, user_id }, ctx(req));
      } catch (err) {
        // Taken since the request: the code cannot complete, and says no more than any other bad code.
        if (err instanceof DomainError && err.status === 409) throw INVALID_EMAIL_CHANGE();
        throw err;
      }
      let confirmed;
      try {
        confirmed = await handleCommand(store, userStream(user_id), userDecider, { type: 'ConfirmEmailChange', user_id, token_hash: read.token_hash, now: at }, ctx(req));
      } catch (err) {
        await handleCommand(store, emailStream(email), emailClaimDecider, { type: 'ReleaseEmailAddress', email_address: email, user_id }, ctx(req));
        throw err;
      }
      await handleCommand(store, emailStream(state.email_address), emailClaimDecider, { type: 'ReleaseEmailAddress', email_address: state.email_address, user_id }, ctx(req));
      await settle(confirmed.position);
      return { user_id, email_address: email };
    },

    [S.organizations]: async (req) => {
      // The token's organization, while the user is an active member: never the user's other organizations.
      const actor = actorOf(req);
      const me = await getUser(actor.user_id);
      if (!me?.organizations.some((m) => m.organization_id === actor.organization_id)) return [];
      const org = await reads.get<Organization>(C.organizations, actor.organization_id);
      return org ? [org] : [];
    },

    [S.updateOrganization]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      const { region: _readOnly, ...changes } = parse(UpdateOrganizationBody, req.body);
      const result = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
        type: 'UpdateOrganization', organization_id, actor_user_id: actor.user_id, changes,
      }, ctx(req));
      await settle(result.position);
      return await reads.get<Organization>(C.organizations, organization_id);
    },

    [S.organizationMembers]: async (req) => {
      const organization_id = req.params['organization_id'] ?? '';
      const membership = await requireMembership(actorOf(req), organization_id);
      // Clients (invited buyers) read their estates, not the agency's staff and other buyers (API.md 3).
      if (membership.member_type === 'CLIENT') throw new DomainError(403, ['clients may not list the organization\'s members']);
      const { items } = await reads.query<MemberDoc>(C.members, { filter: { organization_id }, sort: [{ field: 'created_at', order: 'ASC' }] });
      return items.map(memberReply);
    },

    [S.addOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      const body = parse(AddOrganizationMemberBody, req.body);
      // Check the owner rule before creating anybody, so a refused request leaves no trace.
      const org = await orgState(organization_id);
      const role = org.members[actor.user_id];
      if (!org.exists || !role) throw new DomainError(404, ['organization not found']);
      if (role !== 'OWNER') throw new DomainError(403, ['only an owner of the organization may do this']);
      return invite(req, { organization_id, actor_user_id: actor.user_id, person: body, member_type: body.member_type, attach: false, estate_id: null });
    },

    [S.acceptInvitation]: async (req): Promise<InvitationAcceptance> => {
      const { token } = parse(AcceptInvitationBody, req.body);
      const read = readEmailedToken(token, 2);
      if (!read) throw INVALID_INVITATION();
      const [organization_id, invitation_id] = read.ids as [string, string];
      const before = await orgState(organization_id);
      const invitee = Object.entries(before.pending).find(([, p]) => p.invitations[invitation_id]);
      if (!invitee) throw INVALID_INVITATION();
      const [user_id, pending] = invitee;
      const result = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
        type: 'AcceptOrganizationInvitation', organization_id, invitation_id, token_hash: read.token_hash, now: now().toISOString(),
      }, ctx(req));
      await settle(result.position);
      const estate_ids = [...new Set(Object.values(pending.invitations).flatMap((i) => (i.estate_id ? [i.estate_id] : [])))];
      return { organization_id, user_id, member_type: result.state.members[user_id] ?? pending.member_type, status: 'ACTIVE', estate_ids };
    },

    [S.removeOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      requireTokenOrganization(actor, organization_id);
      // INTERFACE.md names the path parameter `member_id`; it is the member's user id.
      const user_id = req.params['member_id'] ?? '';
      const before = await reads.get<MemberDoc>(C.members, memberKey(organization_id, user_id));
      const result = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
        type: 'RemoveOrganizationMember', organization_id, actor_user_id: actor.user_id, user_id,
      }, ctx(req));
      await settle(result.position);
      return before && memberReply(before);
    },

    [S.attachClientMember]: async (req) => {
      const { organization_id, estate_id, ...person } = parse(AttachClientMemberBody, req.body);
      const org = await orgState(organization_id);
      if (!org.exists) throw new DomainError(404, ['organization not found']);
      // The estates context checked that the caller may write the estate; an active member keeps their role.
      return invite(req, { organization_id, actor_user_id: null, person, member_type: 'CLIENT', attach: true, estate_id: estate_id ?? null });
    },

    [S.adminCreateOrganization]: async (req) => createOrganizationWithOwner(req, parse(AdminCreateOrganizationBody, req.body)),

    [S.adminCreateApiClient]: async (req) => {
      const body = parse(AdminCreateApiClientBody, req.body);
      const user = await getUser(body.user_id);
      if (!user) throw new DomainError(404, ['user not found']);
      const organization_id = body.organization_id ?? user.organizations[0]?.organization_id;
      if (!organization_id || !user.organizations.some((m) => m.organization_id === organization_id)) {
        throw new DomainError(400, ['organization_id must be an organization the user is a member of']);
      }
      const { position, ...client } = await issueClient(req, user.id, organization_id, body.scopes ?? DEFAULT_SCOPES);
      await settle(position);
      return client;
    },

    [S.adminRevokeApiClient]: async (req) => {
      const client_id = (req.params['client_id'] ?? '').toLowerCase();
      if (!UUID_RE.test(client_id)) throw new DomainError(404, ['API client not found']);
      const result = await handleCommand(store, apiClientStream(client_id), apiClientDecider, { type: 'RevokeApiClient', client_id }, ctx(req));
      await settle(result.position);
      return { client_id, revoked: true };
    },

    [S.adminRotateWebhookSecret]: async (req): Promise<WebhookSecretRotated> => {
      const client_id = (req.params['client_id'] ?? '').toLowerCase();
      if (!UUID_RE.test(client_id)) throw new DomainError(404, ['API client not found']);
      const webhook_secret = newWebhookSecret();
      const result = await handleCommand(store, apiClientStream(client_id), apiClientDecider, {
        type: 'RotateWebhookSecret', client_id, webhook_secret_encrypted: secrets.seal(webhook_secret, client_id),
      }, ctx(req));
      await settle(result.position);
      return { client_id, webhook_secret };
    },

    [S.adminOutbox]: async (req) => {
      const query = parse(OutboxQuery, req.query ?? {});
      const messages = await mailer.outbox({ ...(query.to ? { to: query.to } : {}), ...(query.limit ? { limit: query.limit } : {}) });
      if (messages === null) throw new DomainError(404, ['there is no outbox: messages leave by SMTP (RENOPATH_SMTP_URL is set)']);
      return messages;
    },
  };

  const subscriptions: Closeable[] = [];
  for (const [subject, handler] of Object.entries(handlers)) {
    subscriptions.push(await bus.handle(subject, (payload) => handler(payload as ServiceRequest)));
  }
  log.info({ subjects: Object.keys(handlers).length }, 'identity service ready');

  return {
    projection,
    async bootstrapIfEmpty(credentials) {
      if ((await store.headPosition()) > 0n) return null;
      const client_id = credentials.client_id ?? randomUUID();
      const client_secret = credentials.client_secret ?? newSecret();
      const req: ServiceRequest = { actor: null, correlation_id: `bootstrap-${randomUUID()}`, params: {}, query: {}, body: {} };
      const created = await createOrganizationWithOwner(
        req,
        { organization_name: 'Demo organization', country: 'BE', owner: { email_address: 'demo@renopath.example', first_name: 'Demo', last_name: 'User' } },
        { client_id: client_id.toLowerCase(), client_secret },
      );
      return { client_id: created.client_id, client_secret, organization_id: created.organization.id, user_id: created.user.id };
    },
    async webhookSecret(client_id) {
      const client = fold(apiClientDecider, (await store.readStream(apiClientStream(client_id.toLowerCase()))).map((e) => e as never));
      if (!client.exists) return null;
      if (client.webhook_secret_encrypted) return secrets.open(client.webhook_secret_encrypted, client_id.toLowerCase());
      return client.legacy_webhook_secret;
    },
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}
