import type { Logger } from 'pino';
import { DomainError, type EventStore, type ReadStore, type RecordedEvent } from '@renopath/platform';
import { fold, handleCommand, type CommandContext } from '@renopath/platform/service/decider.ts';
import { reactionContext } from '@renopath/platform/service/handler-kit.ts';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { IdentityEvents } from '@renopath/contracts';
import { apiClientDecider, apiClientStream } from '../api-client/api-client.decider.ts';
import { emailClaimDecider, emailStream, normalizeEmail } from '../email/email-claim.decider.ts';
import { organizationDecider, organizationStream } from '../organization/organization.decider.ts';
import { userDecider, userStream } from '../user/user.decider.ts';
import { claimEmail } from '../email/email-claims.ts';

export const ONBOARDING_PROCESS = 'identity-onboarding';

type OnboardingStarted = ReturnType<typeof IdentityEvents.OnboardingStarted.parse>;

/**
 * Carries out an `OnboardingStarted`: the owner (registered and claimed, or an existing account
 * invited), the organization, the API client, across four streams. Every step first looks whether
 * it is already done, so after a crash the same event is handled again and finishes the rest.
 */
export function startOnboardingProcess(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  log: Logger;
  now: () => Date;
}): ProcessManager {
  const { eventStore: store, readStore, log, now } = deps;
  return runProcessManager({
    name: ONBOARDING_PROCESS,
    eventStore: store,
    readStore,
    eventTypes: ['OnboardingStarted'],
    handle: (event) => onboard(store, event, now),
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'onboarding process failed; retrying'),
  });
}

/** One onboarding: the organization with its owner (unless an earlier attempt made it), then the API client. */
async function onboard(store: EventStore, event: RecordedEvent, now: () => Date): Promise<void> {
  // Parsed with the contract's schema: where a future upcaster goes.
  const o = IdentityEvents.OnboardingStarted.parse(event.data);
  const context = reactionContext(event, now());
  const org = await state(store, organizationDecider, organizationStream(o.organization_id));
  // Created by an earlier attempt: its owner is the one it named.
  const user_id = org.exists ? (Object.keys(org.members)[0] ?? Object.keys(org.pending)[0]!) : await createOrganization(store, o, context);
  if (!(await state(store, apiClientDecider, apiClientStream(o.client.client_id))).exists) {
    await issueClient(store, o, user_id, context);
  }
}

const state = async <S>(store: EventStore, decider: Parameters<typeof fold<never, S>>[0], stream: string) =>
  fold(
    decider,
    (await store.readStream(stream)).map((e) => e as never),
  );
const registered = async (store: EventStore, user_id: string) => (await state(store, userDecider, userStream(user_id))).exists;
const holderOf = async (store: EventStore, email: string) => (await state(store, emailClaimDecider, emailStream(email))).user_id;

/** The organization created with its owner (an existing account is invited to own it); returns the owner's id. */
async function createOrganization(store: EventStore, o: OnboardingStarted, context: CommandContext): Promise<string> {
  const found = await owner(store, o.owner, context);
  const owner_invitation = found.existing
    ? {
        ...o.owner_invitation,
        email_address: normalizeEmail(o.owner.email_address),
        first_name: o.owner.first_name,
        last_name: o.owner.last_name,
        estate_id: null,
      }
    : undefined;
  await handleCommand(
    store,
    organizationStream(o.organization_id),
    organizationDecider,
    {
      type: 'CreateOrganization',
      organization_id: o.organization_id,
      profile: o.profile,
      owner_user_id: found.user_id,
      ...(owner_invitation ? { owner_invitation } : {}),
    },
    context,
  );
  return found.user_id;
}

/** The owner's user id and whether the address already had an account (which must accept). */
async function owner(
  store: EventStore,
  o: { user_id: string; email_address: string; first_name: string; last_name: string },
  context: CommandContext,
) {
  const email = normalizeEmail(o.email_address);
  const holder = await holderOf(store, email);
  if (holder && holder !== o.user_id && (await registered(store, holder))) return { user_id: holder, existing: true };
  // A claim whose user was never registered (cut off before registration came first) is completed.
  const user_id = holder ?? o.user_id;
  if (!(await registered(store, user_id))) {
    await handleCommand(
      store,
      userStream(user_id),
      userDecider,
      { type: 'RegisterUser', user_id, email_address: email, first_name: o.first_name, last_name: o.last_name },
      context,
    );
  }
  try {
    await claimEmail(store, email, user_id, context);
  } catch (err) {
    if (!(err instanceof DomainError && err.status === 409)) throw err;
    // Registered by someone else meanwhile: that account is the address's.
    const winner = await holderOf(store, email);
    if (!winner) throw err;
    return { user_id: winner, existing: true };
  }
  return { user_id, existing: false };
}

/** The organization's API client, owned by `user_id`: a pending owner's client works once they accept (the token endpoint wants an active membership). */
async function issueClient(store: EventStore, o: OnboardingStarted, user_id: string, context: CommandContext): Promise<void> {
  await handleCommand(
    store,
    apiClientStream(o.client.client_id),
    apiClientDecider,
    {
      type: 'IssueApiClient',
      client_id: o.client.client_id,
      user_id,
      organization_id: o.organization_id,
      scopes: o.client.scopes,
      secret_hash: o.client.secret_hash,
      webhook_secret_encrypted: o.client.webhook_secret_encrypted,
    },
    context,
  );
}
