import type { Logger } from 'pino';
import { DomainError, type EventStore, type ReadStore } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { reactionContext } from '@renopath/platform/service/handler-kit.ts';
import { runProcessManager, type ProcessManager } from '@renopath/platform/service/process-manager.ts';
import { IdentityEvents } from '@renopath/contracts';
import { fold } from '@renopath/platform/service/decider.ts';
import { emailClaimDecider, emailStream } from '../email/email-claim.decider.ts';
import { userDecider, userStream } from '../user/user.decider.ts';

export const REGISTRATION_PROCESS = 'identity-registration';

/**
 * Registration is two streams: the user's, then the claim of their address. The request appends
 * the user; this process manager claims the address for every registered user, so a crash between
 * the two appends is completed on restart instead of leaving a claim for a user who never exists.
 * A claim already held by another user is that user's (a concurrent registration of the same
 * address won); the loser stays an unclaimed user nobody refers to.
 *
 * A confirmed address change is the same shape: the new address is claimed, the user updated, the
 * old address released. The request does all three; a crash after the update leaves the old one
 * held, so the manager releases it here too (a release by a user who no longer holds it is a no-op).
 */
export function startRegistrationProcess(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  log: Logger;
  now: () => Date;
}): ProcessManager {
  const { eventStore, readStore, log, now } = deps;
  return runProcessManager({
    name: REGISTRATION_PROCESS,
    eventStore,
    readStore,
    eventTypes: ['UserRegistered', 'UserUpdated'],
    // Parsed with the contract's schemas: where a future upcaster goes.
    async handle(event) {
      const context = reactionContext(event, now());
      if (event.type === 'UserUpdated') {
        const { user_id, changes } = IdentityEvents.UserUpdated.parse(event.data);
        if (changes.email_address === undefined) return;
        const before = (await eventStore.readStream(userStream(user_id))).filter((e) => e.revision < event.revision);
        const previous = fold(
          userDecider,
          before.map((e) => e as never),
        ).email_address;
        if (previous && previous !== changes.email_address) {
          await handleCommand(
            eventStore,
            emailStream(previous),
            emailClaimDecider,
            { type: 'ReleaseEmailAddress', email_address: previous, user_id },
            context,
          );
        }
        return;
      }
      const { user_id, email_address } = IdentityEvents.UserRegistered.parse(event.data);
      try {
        await handleCommand(
          eventStore,
          emailStream(email_address),
          emailClaimDecider,
          { type: 'ClaimEmailAddress', email_address, user_id },
          context,
        );
      } catch (err) {
        if (err instanceof DomainError && err.status === 409) return;
        throw err;
      }
    },
    onError: (err, event) => log.error({ err, event_id: event?.event_id }, 'registration process failed; retrying'),
  });
}
