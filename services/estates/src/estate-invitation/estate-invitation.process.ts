import type { Closeable, EventStore } from '@renopath/platform';
import { fold, handleCommand } from '@renopath/platform/service/decider.ts';
import { reactionContext } from '@renopath/platform/service/handler-kit.ts';
import { consumeParsedEvents, type ReactorOptions } from '@renopath/platform/service/reactor.ts';
import { traceFields } from '@renopath/platform/observability/tracing.ts';
import { IdentityEvents } from '@renopath/contracts';
import { parseEstateEvent } from '../estate/estate.events.ts';
import { estateDecider, estateStream } from '../estate/estate.decider.ts';

/** Durable consumer name: it must not change, or the bus would start a new consumer from the beginning. */
export const ESTATE_INVITATION_CONSUMER = 'estates-estate-invitation';

/**
 * The estate member invitation spans two contexts: estates asks identity to invite (`addMember`), identity
 * records `OrganizationMemberInvited` with the estate's id, and the estate records its pending member.
 * The request appends that member itself (its reply shows them), but a crash, or a failed append, after
 * identity's answer would leave an invitee the estate never lists: this process manager finishes the
 * workflow from identity's stored event. Durable consumer: resumed where it left off after a restart.
 *
 * Idempotent: a member the estate already has is nothing to add, and a user the estate ever had (since
 * removed) is not brought back by a replayed invitation: a new invitation goes through `addMember` again.
 */
export function startEstateInvitationProcess(
  options: ReactorOptions & {
    eventStore: EventStore;
    now: () => Date;
    /** Waits until the views show an appended change. */
    settle(position: bigint | null): Promise<void>;
  },
): Promise<Closeable> {
  const { eventStore, log, now, settle } = options;
  const invited = { OrganizationMemberInvited: IdentityEvents.OrganizationMemberInvited };
  return consumeParsedEvents(options, ESTATE_INVITATION_CONSUMER, invited, async ({ data }, event) => {
    if (data.estate_id) {
      const { estate_id, organization_id, user_id, email_address, first_name, last_name } = data;
      const history = await eventStore.readStream(estateStream(estate_id));
      const state = fold(estateDecider, history.map(parseEstateEvent));
      const everMember = history.some((e) => e.type === 'EstateMemberAdded' && e.data['user_id'] === user_id);
      if (state.status === 'ACTIVE' && state.organization_id === organization_id && !everMember) {
        const result = await handleCommand(
          eventStore,
          estateStream(estate_id),
          estateDecider,
          {
            type: 'AddEstateMember',
            estate_id,
            user_id,
            email_address,
            first_name,
            last_name,
            status: 'PENDING',
          },
          reactionContext(event, now()),
        );
        await settle(result.position);
        log.info({ estate_id, user_id, ...traceFields(event.metadata) }, 'estate member recorded from the invitation identity stored');
      }
    }
  });
}
