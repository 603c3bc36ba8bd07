import { randomUUID } from 'node:crypto';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { DomainError } from '@renopath/platform';
import { isPrivateStream } from '@renopath/platform/service/relay.ts';
import { newId, parse } from '@renopath/platform/service/handler-kit.ts';
import {
  AdminCreateOrganizationBody,
  DEFAULT_SCOPES,
  IdentitySubjects as S,
  type AdminOrganizationCreated,
  type Organization,
  type OrganizationProfile,
  type ServiceRequest,
  type User,
} from '@renopath/contracts';
import { apiClientStream } from '../api-client/api-client.decider.ts';
import { C } from '../directory/directory.projection.ts';
import { normalizeEmail } from '../email/email-claim.decider.ts';
import type { Invitations } from '../invitation/invitation.ts';
import { zipcodeProblem } from '../organization/organization.decider.ts';
import { hashSecret, newSecret, newWebhookSecret } from '../tokens/secrets.ts';
import { onboardingDecider, onboardingStream } from './onboarding.decider.ts';
import type { IdentityKit } from '../kit.ts';

/**
 * An organization with its owner and API client (admin API, first start): the request starts the
 * onboarding and the onboarding process manager carries it out across the streams (see
 * onboarding.process.ts); the first-start bootstrap uses a fixed key, so the next start finds it.
 */
export function onboarding(kit: IdentityKit, { invitationTerms, sendInvitation }: Invitations) {
  const { store, reads, secrets, config, ctx, settle, getUser, orgState, onboardings } = kit;

  /**
   * Starts the onboarding (one event, which the onboarding process manager carries out) and answers
   * once it is done. The secrets are made here, since the reply is the only place they appear in clear.
   */
  async function createOrganizationWithOwner(
    req: ServiceRequest,
    body: AdminCreateOrganizationBody,
    clientCredentials?: { client_id: string; client_secret: string },
  ): Promise<AdminOrganizationCreated> {
    const profile = profileOf(body);
    // Refused before anything is stored, so a bad request leaves no trace.
    const problem = zipcodeProblem(profile.zipcode, profile.country);
    if (problem) throw new DomainError(400, [problem]);
    // From the idempotency key when there is one: a retry (or the bootstrap after a crash) is the same onboarding.
    const organization_id = newId(req, 'organization');
    const { client_id, client_secret } = clientCredentials ?? { client_id: randomUUID(), client_secret: newSecret() };
    const webhook_secret = newWebhookSecret();
    // Used only when the address already has an account, which is not the operator's to hand an organization to.
    const invitation = invitationTerms(req, organization_id, body.owner, null);
    const started = await handleCommand(
      store,
      onboardingStream(organization_id),
      onboardingDecider,
      {
        type: 'StartOnboarding',
        organization_id,
        profile,
        owner: {
          user_id: newId(req, 'user'),
          email_address: normalizeEmail(body.owner.email_address),
          first_name: body.owner.first_name,
          last_name: body.owner.last_name,
        },
        owner_invitation: {
          invitation_id: invitation.terms.invitation_id,
          token_hash: invitation.terms.token_hash,
          expires_at: invitation.terms.expires_at,
        },
        client: {
          client_id,
          scopes: DEFAULT_SCOPES,
          secret_hash: await hashSecret(client_secret),
          webhook_secret_encrypted: secrets.seal(webhook_secret, client_id),
        },
      },
      ctx(req),
    );
    await onboarded(onboardings, started.position, config.settleTimeoutMs);
    const issued = (await store.readStream(apiClientStream(client_id))).at(-1);
    await settle(issued?.position ?? null);
    const org = await orgState(organization_id);
    const pendingOwner = Object.keys(org.pending)[0];
    const user_id = pendingOwner ?? Object.keys(org.members)[0]!;
    if (pendingOwner) await sendInvitation(org, user_id, { ...invitation.terms }, invitation.token);
    const [organization, user] = await Promise.all([reads.get<Organization>(C.organizations, organization_id), getUser(user_id)]);
    const owner = pendingOwner ? invitedOwner(user!, invitation.terms.email_address, body.owner) : user!;
    return {
      organization: organization!,
      user: owner,
      owner_status: pendingOwner ? 'PENDING' : 'ACTIVE',
      client_id,
      client_secret,
      webhook_secret,
    };
  }

  const handlers: Record<string, (req: ServiceRequest) => Promise<unknown>> = {
    [S.adminCreateOrganization]: async (req) => createOrganizationWithOwner(req, parse(AdminCreateOrganizationBody, req.body)),
  };

  const bootstrapIfEmpty = (credentials: { client_id?: string; client_secret?: string }) =>
    bootstrap(kit, createOrganizationWithOwner, credentials);

  return { createOrganizationWithOwner, handlers, bootstrapIfEmpty };
}

/** The profile an admin body gives (`name` per docs/http-contract.md "Authentication, roles and rate limits", `organization_name` per the interface); the rest unknown. */
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

/** Whether the store holds an event besides the context's private streams (the signing keys come first). */
async function holdsDomainEvents(store: IdentityKit['store']): Promise<boolean> {
  for (let after = 0n; ; ) {
    const page = await store.readAll({ after, maxCount: 50 });
    if (page.length === 0) return false;
    if (page.some((e) => !isPrivateStream(e.stream))) return true;
    after = page.at(-1)!.position;
  }
}

type CreateOrganizationWithOwner = ReturnType<typeof onboarding>['createOrganizationWithOwner'];

/** First start of an empty store: a demo organization, owner and API client (docs/http-contract.md "Authentication, roles and rate limits"). */
async function bootstrap(
  kit: IdentityKit,
  createOrganizationWithOwner: CreateOrganizationWithOwner,
  credentials: { client_id?: string; client_secret?: string },
) {
  const { store, log } = kit;
  const client_id = (credentials.client_id ?? randomUUID()).toLowerCase();
  const client_secret = credentials.client_secret ?? newSecret();
  // A fixed key per client: a bootstrap cut off by a crash is resumed on the next start, each step written once.
  const req: ServiceRequest = {
    actor: null,
    correlation_id: `bootstrap-${randomUUID()}`,
    idempotency_key: `bootstrap:${client_id}`,
    params: {},
    query: {},
    body: {},
  };
  if (await holdsDomainEvents(store)) {
    const started = (await store.readStream(onboardingStream(newId(req, 'organization')))).length > 0;
    const issued = (await store.readStream(apiClientStream(client_id))).length > 0;
    if (!started || issued) return null;
    // The onboarding process manager finishes it; this start waits for it and answers as a first start would.
    log.warn({ client_id }, 'resuming a bootstrap cut off before its API client was issued');
  }
  const created = await createOrganizationWithOwner(
    req,
    {
      organization_name: 'Demo organization',
      country: 'BE',
      owner: { email_address: 'demo@renopath.example', first_name: 'Demo', last_name: 'User' },
    },
    { client_id, client_secret },
  );
  return { client_id: created.client_id, client_secret, organization_id: created.organization.id, user_id: created.user.id };
}

/** A pending owner as the reply shows them: only what the operator gave; the account's own profile and other organizations are not shown. */
function invitedOwner(user: User, email_address: string, given: AdminCreateOrganizationBody['owner']): User {
  return {
    ...user,
    email_address,
    first_name: given.first_name,
    last_name: given.last_name,
    external_id: null,
    organizations: [],
    pending_email_address: null,
  };
}

/** Waits for the onboarding process manager to carry out the onboarding just started. */
async function onboarded(onboardings: IdentityKit['onboardings'], position: bigint | null, timeoutMs: number): Promise<void> {
  if (position === null) return;
  try {
    await onboardings.waitFor(position, timeoutMs);
  } catch {
    throw new DomainError(503, ['the change was saved but is not readable yet; read it again shortly']);
  }
}
