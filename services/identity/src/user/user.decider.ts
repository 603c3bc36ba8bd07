import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent, UpdateUserBody } from '@renopath/contracts';
import { sameHash } from '../mail/emailed-token.ts';

type UserEvent = Extract<IdentityEvent, { type: 'UserRegistered' | 'UserUpdated' | 'UserEmailChangeRequested' }>;

export type UserCommand =
  | { type: 'RegisterUser'; user_id: string; email_address: string; first_name: string; last_name: string }
  /** Names and external_id; an address changes only through a confirmed request. */
  | { type: 'UpdateUser'; user_id: string; changes: Omit<UpdateUserBody, 'email_address'> }
  | { type: 'RequestEmailChange'; user_id: string; email_address: string; token_hash: string; expires_at: string }
  /** Redeems the code sent to the new address; `now` comes in with the command. */
  | { type: 'ConfirmEmailChange'; user_id: string; token_hash: string; now: string };

export interface UserState {
  exists: boolean;
  email_address: string;
  first_name: string;
  last_name: string;
  external_id: string | null;
  /** The latest request: an earlier code stops working when a new one is asked for. */
  pending_email: { email_address: string; token_hash: string; expires_at: string } | null;
}

export const userStream = (id: string) => `user-${id}`;

/** One answer for every code that does not work, so it tells nothing about the account. */
export const INVALID_EMAIL_CHANGE = () => new DomainError(400, ['the confirmation code is not valid or has expired']);

/** The address a code confirms, or the 400 of an unknown, used, replaced or expired code. */
export function confirmableAddress(state: UserState, token_hash: string, now: string): string {
  const pending = state.pending_email;
  if (!state.exists || !pending || !sameHash(pending.token_hash, token_hash) || Date.parse(now) >= Date.parse(pending.expires_at)) {
    throw INVALID_EMAIL_CHANGE();
  }
  return pending.email_address;
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ exists: false, email_address: '', first_name: '', last_name: '', external_id: null, pending_email: null }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.exists) throw new DomainError(409, ['user already exists']);
        const { user_id, email_address, first_name, last_name } = command;
        return [{ type: 'UserRegistered', data: { user_id, email_address, first_name, last_name } }];
      }
      case 'UpdateUser': {
        if (!state.exists) throw new DomainError(404, ['user not found']);
        const changes = Object.fromEntries(
          Object.entries(command.changes).filter(([k, v]) => k !== 'email_address' && state[k as keyof UserState] !== v),
        );
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'UserUpdated', data: { user_id: command.user_id, changes } }];
      }
      case 'RequestEmailChange': {
        if (!state.exists) throw new DomainError(404, ['user not found']);
        const { user_id, email_address, token_hash, expires_at } = command;
        return [{ type: 'UserEmailChangeRequested', data: { user_id, email_address, token_hash, expires_at } }];
      }
      case 'ConfirmEmailChange': {
        const email_address = confirmableAddress(state, command.token_hash, command.now);
        return [{ type: 'UserUpdated', data: { user_id: command.user_id, changes: { email_address } } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, exists: true, ...event.data };
      case 'UserEmailChangeRequested': {
        const { email_address, token_hash, expires_at } = event.data;
        return { ...state, pending_email: { email_address, token_hash, expires_at } };
      }
      case 'UserUpdated':
        // A confirmed address uses up the request.
        return { ...state, ...event.data.changes, ...(event.data.changes.email_address ? { pending_email: null } : {}) };
      default:
        return state;
    }
  },
};
