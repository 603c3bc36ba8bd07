import { createHash } from 'node:crypto';
import { claimDecider } from '@renopath/platform/service/claim.ts';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent } from '@renopath/contracts';

type EmailEvent = Extract<IdentityEvent, { type: 'EmailAddressClaimed' | 'EmailAddressReleased' }>;

/** One stream per address makes addresses unique without a cross-stream transaction (platform's claim decider). */
export type EmailClaimCommand =
  | { type: 'ClaimEmailAddress'; email_address: string; user_id: string }
  | { type: 'ReleaseEmailAddress'; email_address: string; user_id: string };

export interface EmailClaimState {
  user_id: string | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const emailStream = (email: string) => `email-${createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 40)}`;

const claims = claimDecider<EmailClaimCommand, EmailEvent>({
  claim: 'ClaimEmailAddress',
  release: 'ReleaseEmailAddress',
  claimed: 'EmailAddressClaimed',
  released: 'EmailAddressReleased',
  holderOf: (command) => command.user_id,
  holderIn: (event) => event.data.user_id,
  data: (command) => ({ email_address: normalizeEmail(command.email_address), user_id: command.user_id }),
  conflict: () => 'email_address is already used by another user',
});

/** The generic claim, with its holder named `user_id` as identity's callers read it. */
export const emailClaimDecider: Decider<EmailClaimCommand, EmailEvent, EmailClaimState> = {
  initialState: () => ({ user_id: null }),
  decide: (command, state) => claims.decide(command, { holder: state.user_id }),
  evolve: (state, event) => ({ user_id: claims.evolve({ holder: state.user_id }, event).holder }),
};
