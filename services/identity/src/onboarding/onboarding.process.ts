import type { Logger } from 'pino';
import { DomainError, type EventStore, type ReadStore, type RecordedEvent } from '@renopath/platform';
import { fold, handleCommand, type CommandContext } from '@renopath/platform/service/decider.ts';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { IdentityEvents } from '@renopath/contracts';
import { apiClientDecider, apiClientStream } from '../api-client/api-client.decider.ts';
import { emailClaimDecider, emailStream, normalizeEmail } from '../email/email-claim.decider.ts';
import { organizationDecider, organizationStream } from '../organization/organization.decider.ts';
import { userDecider, userStream } from '../user/user.decider.ts';

export const ONBOARDING_PROCESS = 'identity-onboarding';

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
  const state = async <S>(decider: Parameters<typeof fold<never, S>>[0], stream: string) =>
    fold(
      decider,
      (await store.readStream(stream)).map((e) => e as never),
    );
  const registered = async (user_id: string) => (await state(userDecider, userStream(user_id))).exists;
  const holderOf = async (email: string) => (await state(emailClaimDecider, emailStream(email))).user_id;

  /** The owner's user id and whether the address already had an account (which must accept). */
  async function owner(o: { user_id: string; email_address: string; first_name: string; last_name: string }, context: CommandContext) {
    const email = normalizeEmail(o.email_address);
    const holder = await holderOf(email);
    if (holder && holder !== o.user_id && (await registered(holder))) return { user_id: holder, existing: true };
    // A claim whose user was never registered (cut off before registration came first) is completed.
    const user_id = holder ?? o.user_id;
    if (!(await registered(user_id))) {
      await handleCommand(
        store,
        userStream(user_id),
        userDecider,
        { type: 'RegisterUser', user_id, email_address: email, first_name: o.first_name, last_name: o.last_name },
        context,
      );
    }
    try {
      await handleCommand(
        store,
        emailStream(email),
        emailClaimDecider,
        { type: 'ClaimEmailAddress', email_address: email, user_id },
        context,
      );
    } catch (err) {
      if (!(err instanceof DomainError && err.status === 409)) throw err;
      // Registered by someone else meanwhile: that account is the address's.
      const winner = await holderOf(email);
      if (!winner) throw err;
      return { user_id: winner, existing: true };
    }
    return { user_id, existing: false };
  }

  async function handle(event: RecordedEvent) {
    // Parsed with the contract's schema: where a future upcaster goes.
    const o = IdentityEvents.OnboardingStarted.parse(event.data);
    const context: CommandContext = {
      now: now().toISOString(),
      metadata: { actor: event.metadata.actor, correlation_id: event.metadata.correlation_id, causation_id: event.event_id },
    };
    const org = await state(organizationDecider, organizationStream(o.organization_id));
    let user_id: string;
    if (org.exists) {
      // Created by an earlier attempt: its owner is the one it named.
      user_id = Object.keys(org.members)[0] ?? Object.keys(org.pending)[0]!;
    } else {
      const found = await owner(o.owner, context);
      user_id = found.user_id;
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
          owner_user_id: user_id,
          ...(owner_invitation ? { owner_invitation } : {}),
        },
        context,
      );
    }
    if (!(await state(apiClientDecider, apiClientStream(o.client.client_id))).exists) {
      // A pending owner's client works once they accept (the token endpoint wants an active membership).
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
  }

  return runProcessManager({
    name: ONBOARDING_PROCESS,
    eventStore: store,
    readStore,
    eventTypes: ['OnboardingStarted'],
    handle,
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'onboarding process failed; retrying'),
  });
}
