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
import { actorOf, commandContext, parse, readYourWrites } from '@renopath/platform/service/handler-kit.ts';
import {
  AddOrganizationMemberBody,
  AdminCreateApiClientBody,
  AdminCreateOrganizationBody,
  AttachClientMemberBody,
  DEFAULT_SCOPES,
  IdentitySubjects as S,
  TokenRequestBody,
  UpdateOrganizationBody,
  UpdateUserBody,
  type Actor,
  type ApiClientCreated,
  type AdminOrganizationCreated,
  type Organization,
  type OrganizationProfile,
  type Scope,
  type ServiceRequest,
  type TokenReply,
  type User,
} from '@renopath/contracts';
import { apiClientDecider, apiClientStream } from './api-client/api-client.decider.ts';
import { C, DIRECTORY_PROJECTION, memberKey, projectDirectory, type ApiClientDoc, type MemberDoc } from './directory/directory.projection.ts';
import { emailClaimDecider, emailStream, normalizeEmail } from './email/email-claim.decider.ts';
import { organizationDecider, organizationStream, zipcodeProblem } from './organization/organization.decider.ts';
import { hashSecret, newSecret, newWebhookSecret, verifySecret } from './tokens/secrets.ts';
import type { SigningKeys } from './tokens/signing-keys.ts';
import { userDecider, userStream } from './user/user.decider.ts';

export interface IdentityConfig {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  settleTimeoutMs: number;
}

export interface IdentityDeps {
  bus: Bus;
  eventStore: EventStore;
  readStore: ReadStore;
  keys: SigningKeys;
  config: IdentityConfig;
  log: Logger;
  now?: () => Date;
}

export interface IdentityService {
  projection: Projection;
  /** First start of an empty store: a demo organization, owner and API client (API.md 3). */
  bootstrapIfEmpty(credentials: { client_id?: string; client_secret?: string }): Promise<null | { client_id: string; client_secret: string; organization_id: string; user_id: string }>;
  close(): Promise<void>;
}

const INVALID_CLIENT = new DomainError(400, ['client_id or client_secret is not valid']);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startIdentity(deps: IdentityDeps): Promise<IdentityService> {
  const { bus, eventStore: store, readStore: reads, keys, config, log } = deps;
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

  const getUser = (id: string) => reads.get<User>(C.users, id);

  async function claimEmailAndRegister(req: ServiceRequest, owner: { email_address: string; first_name: string; last_name: string }) {
    const email = normalizeEmail(owner.email_address);
    const claim = fold(emailClaimDecider, (await store.readStream(emailStream(email))).map((e) => e as never));
    if (claim.user_id) return { user_id: claim.user_id, position: null as bigint | null };
    const user_id = randomUUID();
    await handleCommand(store, emailStream(email), emailClaimDecider, { type: 'ClaimEmailAddress', email_address: email, user_id }, ctx(req));
    const registered = await handleCommand(store, userStream(user_id), userDecider, {
      type: 'RegisterUser', user_id, email_address: email, first_name: owner.first_name, last_name: owner.last_name,
    }, ctx(req));
    return { user_id, position: registered.position };
  }

  /** A new API client; the credentials are the bootstrap's configured ones, else both are made here. */
  async function issueClient(
    req: ServiceRequest, user_id: string, organization_id: string, scopes: Scope[],
    { client_id, client_secret }: { client_id: string; client_secret: string } = { client_id: randomUUID(), client_secret: newSecret() },
  ): Promise<ApiClientCreated & { position: bigint | null }> {
    const webhook_secret = newWebhookSecret();
    const result = await handleCommand(store, apiClientStream(client_id), apiClientDecider, {
      type: 'IssueApiClient', client_id, user_id, organization_id, scopes, secret_hash: await hashSecret(client_secret), webhook_secret,
    }, ctx(req));
    return { client_id, client_secret, webhook_secret, user_id, organization_id, scopes, position: result.position };
  }

  async function createOrganizationWithOwner(req: ServiceRequest, body: AdminCreateOrganizationBody, clientCredentials?: { client_id: string; client_secret: string }): Promise<AdminOrganizationCreated> {
    const profile = profileOf(body);
    // Refused before the owner is registered, so a bad request leaves no user behind.
    const problem = zipcodeProblem(profile.zipcode, profile.country);
    if (problem) throw new DomainError(400, [problem]);
    const { user_id } = await claimEmailAndRegister(req, body.owner);
    const organization_id = randomUUID();
    await handleCommand(store, organizationStream(organization_id), organizationDecider, {
      type: 'CreateOrganization', organization_id, profile, owner_user_id: user_id,
    }, ctx(req));
    const client = await issueClient(req, user_id, organization_id, DEFAULT_SCOPES, clientCredentials);
    await settle(client.position);
    const [organization, user] = await Promise.all([reads.get<Organization>(C.organizations, organization_id), getUser(user_id)]);
    return { organization: organization!, user: user!, client_id: client.client_id, client_secret: client.client_secret, webhook_secret: client.webhook_secret };
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

  /** May `actor` see (and, as `write`, edit) user `targetId`? 404 hides users of other tenants. */
  async function authorizeUserAccess(actor: Actor, targetId: string, write: boolean): Promise<User> {
    const target = await getUser(targetId);
    const shared = target?.organizations.some((m) => m.organization_id === actor.organization_id);
    if (!target || (target.id !== actor.user_id && !shared)) throw new DomainError(404, ['user not found']);
    if (write && target.id !== actor.user_id) {
      const me = await getUser(actor.user_id);
      const role = me?.organizations.find((m) => m.organization_id === actor.organization_id)?.member_type;
      if (role !== 'OWNER') throw new DomainError(403, ['only the user or an owner of their organization may edit a user']);
      // Users are global: an owner who added someone by email must not rewrite the profile (or login email) they have elsewhere.
      const owned = new Set(me!.organizations.filter((m) => m.member_type === 'OWNER').map((m) => m.organization_id));
      if (!target.organizations.every((m) => owned.has(m.organization_id))) {
        throw new DomainError(403, ['a user who also belongs to another organization may only be edited by themself']);
      }
    }
    return target;
  }

  async function requireMembership(actor: Actor, organization_id: string) {
    const me = await getUser(actor.user_id);
    const membership = me?.organizations.find((m) => m.organization_id === organization_id);
    if (!membership) throw new DomainError(404, ['organization not found']);
    return membership;
  }

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.issueToken]: async (req) => {
      const body = parse(TokenRequestBody, req.body);
      if (!UUID_RE.test(body.client_id)) throw INVALID_CLIENT;
      const events = await store.readStream(apiClientStream(body.client_id.toLowerCase()));
      const client = fold(apiClientDecider, events.map((e) => e as never));
      if (!client.exists || client.revoked || !(await verifySecret(body.client_secret, client.secret_hash))) throw INVALID_CLIENT;
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
      const changes = parse(UpdateUserBody, req.body);
      const target = await authorizeUserAccess(actor, user_id, true);
      let position: bigint | null = null;
      if (changes.email_address && normalizeEmail(changes.email_address) !== target.email_address) {
        const email = normalizeEmail(changes.email_address);
        await handleCommand(store, emailStream(email), emailClaimDecider, { type: 'ClaimEmailAddress', email_address: email, user_id }, ctx(req));
        changes.email_address = email;
      } else if (changes.email_address) {
        delete changes.email_address;
      }
      const result = await handleCommand(store, userStream(user_id), userDecider, { type: 'UpdateUser', user_id, changes }, ctx(req));
      position = result.position;
      if (changes.email_address) {
        await handleCommand(store, emailStream(target.email_address), emailClaimDecider, { type: 'ReleaseEmailAddress', email_address: target.email_address, user_id }, ctx(req));
      }
      await settle(position);
      return await getUser(user_id);
    },

    [S.organizations]: async (req) => {
      const me = await getUser(actorOf(req).user_id);
      const orgs = await Promise.all((me?.organizations ?? []).map((m) => reads.get<Organization>(C.organizations, m.organization_id)));
      return orgs.filter((o): o is Organization => o !== null);
    },

    [S.updateOrganization]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
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
      return items;
    },

    [S.addOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      const body = parse(AddOrganizationMemberBody, req.body);
      // Check the owner rule before creating anybody, so a refused request leaves no trace.
      const org = fold(organizationDecider, (await store.readStream(organizationStream(organization_id))).map((e) => e as never));
      const role = org.members[actor.user_id];
      if (!org.exists || !role) throw new DomainError(404, ['organization not found']);
      if (role !== 'OWNER') throw new DomainError(403, ['only an owner of the organization may do this']);
      const { user_id } = await claimEmailAndRegister(req, body);
      const result = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
        type: 'AddOrganizationMember', organization_id, actor_user_id: actor.user_id, user_id, member_type: body.member_type,
      }, ctx(req));
      await settle(result.position);
      const member = await reads.get<MemberDoc>(C.members, memberKey(organization_id, user_id));
      if (!member) throw new Error('member not projected');
      return member;
    },

    [S.removeOrganizationMember]: async (req) => {
      const actor = actorOf(req);
      const organization_id = req.params['organization_id'] ?? '';
      // INTERFACE.md names the path parameter `member_id`; it is the member's user id.
      const user_id = req.params['member_id'] ?? '';
      const before = await reads.get<MemberDoc>(C.members, memberKey(organization_id, user_id));
      const result = await handleCommand(store, organizationStream(organization_id), organizationDecider, {
        type: 'RemoveOrganizationMember', organization_id, actor_user_id: actor.user_id, user_id,
      }, ctx(req));
      await settle(result.position);
      return before;
    },

    [S.attachClientMember]: async (req) => {
      const body = parse(AttachClientMemberBody, req.body);
      const org = fold(organizationDecider, (await store.readStream(organizationStream(body.organization_id))).map((e) => e as never));
      if (!org.exists) throw new DomainError(404, ['organization not found']);
      const { user_id } = await claimEmailAndRegister(req, body);
      let position: bigint | null = null;
      if (!org.members[user_id]) {
        const result = await handleCommand(store, organizationStream(body.organization_id), organizationDecider, {
          type: 'AddOrganizationMember', organization_id: body.organization_id, actor_user_id: null, user_id, member_type: 'CLIENT',
        }, ctx(req));
        position = result.position;
      }
      await settle(position);
      const member = await reads.get<MemberDoc>(C.members, memberKey(body.organization_id, user_id));
      if (!member) throw new Error('member not projected');
      return member;
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
    async close() {
      for (const s of subscriptions) await s.close();
      await projection.close();
    },
  };
}
