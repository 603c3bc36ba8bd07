import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent, UpdateUserBody } from '@renopath/contracts';

type UserEvent = Extract<IdentityEvent, { type: 'UserRegistered' | 'UserUpdated' }>;

export type UserCommand =
  | { type: 'RegisterUser'; user_id: string; email_address: string; first_name: string; last_name: string }
  | { type: 'UpdateUser'; user_id: string; changes: UpdateUserBody };

export interface UserState {
  exists: boolean;
  email_address: string;
  first_name: string;
  last_name: string;
  external_id: string | null;
}

export const userStream = (id: string) => `user-${id}`;

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ exists: false, email_address: '', first_name: '', last_name: '', external_id: null }),

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
          Object.entries(command.changes).filter(([k, v]) => state[k as keyof UserState] !== v),
        );
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'UserUpdated', data: { user_id: command.user_id, changes } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, exists: true, ...event.data };
      case 'UserUpdated':
        return { ...state, ...event.data.changes };
      default:
        return state;
    }
  },
};
