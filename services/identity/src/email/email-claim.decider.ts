import { createHash } from 'node:crypto';
import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent } from '@renopath/contracts';

type EmailEvent = Extract<IdentityEvent, { type: 'EmailAddressClaimed' | 'EmailAddressReleased' }>;

/** One stream per address makes addresses unique without a cross-stream transaction. */
export type EmailClaimCommand =
  | { type: 'ClaimEmailAddress'; email_address: string; user_id: string }
  | { type: 'ReleaseEmailAddress'; email_address: string; user_id: string };

export interface EmailClaimState {
  user_id: string | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const emailStream = (email: string) =>
  `email-${createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 40)}`;

export const emailClaimDecider: Decider<EmailClaimCommand, EmailEvent, EmailClaimState> = {
  initialState: () => ({ user_id: null }),
  decide(command, state) {
    const email_address = normalizeEmail(command.email_address);
    switch (command.type) {
      case 'ClaimEmailAddress':
        if (state.user_id === command.user_id) return [];
        if (state.user_id !== null) throw new DomainError(409, ['email_address is already used by another user']);
        return [{ type: 'EmailAddressClaimed', data: { email_address, user_id: command.user_id } }];
      case 'ReleaseEmailAddress':
        if (state.user_id !== command.user_id) return [];
        return [{ type: 'EmailAddressReleased', data: { email_address, user_id: command.user_id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'EmailAddressClaimed':
        return { user_id: event.data.user_id };
      case 'EmailAddressReleased':
        return { user_id: null };
      default:
        return state;
    }
  },
};
