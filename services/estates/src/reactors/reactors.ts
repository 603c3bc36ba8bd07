import type { Closeable, EventEnvelope } from '@renopath/platform';
import { handleCommand } from '@renopath/platform/service/decider.ts';
import { reactionContext } from '@renopath/platform/service/handler-kit.ts';
import type { Settlement } from '@renopath/platform/service/settlement.ts';
import type { EstateCommand } from '@renopath/contracts';
import { startCalculationJobsReactor } from '../calculation-jobs/calculation-jobs.reactor.ts';
import { startDirectoryReactor } from '../directory/directory.reactor.ts';
import { startEstateInvitationProcess } from '../estate-invitation/estate-invitation.process.ts';
import { estateDecider, estateStream } from '../estate/estate.decider.ts';
import type { EstatesKit } from '../kit/estates-kit.ts';
import { startMemberActivationReactor } from './member-activation.reactor.ts';
import { startMemberDetailsReactor } from './member-details.reactor.ts';
import { startOrganizationMembersReactor } from './organization-members.reactor.ts';

/**
 * Starts estates' consumers of other contexts' events: identity's (the local directory, the invitation
 * process and the estate-member reactors) and calculations' finished jobs.
 */
export async function startReactors(kit: EstatesKit, settlement: Settlement | undefined): Promise<Closeable[]> {
  const { bus, reads: readStore, log } = kit;
  const common = { bus, readStore, log, ...(settlement ? { settlement } : {}) };
  /** Appends to an estate for another context's event, then waits until the views show it. */
  const react = async (event: EventEnvelope, estate_id: string, command: EstateCommand) => {
    const result = await handleCommand(kit.store, estateStream(estate_id), estateDecider, command, reactionContext(event, kit.now()));
    await kit.settle(result.position);
  };
  return [
    await startDirectoryReactor(common),
    await startCalculationJobsReactor({
      bus,
      log,
      ...(settlement ? { settlement } : {}),
      apply: (event, command) => react(event, command.estate_id, command),
    }),
    await startEstateInvitationProcess({
      bus,
      eventStore: kit.store,
      log,
      now: kit.now,
      settle: kit.settle,
      ...(settlement ? { settlement } : {}),
    }),
    await startOrganizationMembersReactor({
      ...common,
      removeMember: (event, estate_id, user_id) =>
        react(event, estate_id, { type: 'RemoveEstateMember', estate_id, user_id, reason: 'LEFT_ORGANIZATION' }),
    }),
    await startMemberActivationReactor({
      ...common,
      activateMember: (event, estate_id, user_id) => react(event, estate_id, { type: 'ActivateEstateMember', estate_id, user_id }),
    }),
    await startMemberDetailsReactor({
      ...common,
      updateMember: (event, estate_id, user_id, changes) =>
        react(event, estate_id, { type: 'UpdateEstateMemberDetails', estate_id, user_id, changes }),
    }),
  ];
}
