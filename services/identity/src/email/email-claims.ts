import type { EventStore } from '@renopath/platform';
import { handleCommand, type CommandContext } from '@renopath/platform/service/decider.ts';
import { emailClaimDecider, emailStream } from './email-claim.decider.ts';

/** The address claimed for the user (refused with 409 when another user holds it). */
export const claimEmail = (store: EventStore, email_address: string, user_id: string, context: CommandContext) =>
  handleCommand(store, emailStream(email_address), emailClaimDecider, { type: 'ClaimEmailAddress', email_address, user_id }, context);
