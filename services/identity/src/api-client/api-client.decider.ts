import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent, Scope } from '@renopath/contracts';

type ApiClientEvent = Extract<IdentityEvent, { type: 'ApiClientIssued' | 'ApiClientRevoked' }>;

export type ApiClientCommand =
  | {
      type: 'IssueApiClient';
      client_id: string;
      user_id: string;
      organization_id: string;
      scopes: Scope[];
      secret_hash: string;
      webhook_secret: string;
    }
  | { type: 'RevokeApiClient'; client_id: string };

export interface ApiClientState {
  exists: boolean;
  revoked: boolean;
  user_id: string;
  organization_id: string;
  scopes: Scope[];
  secret_hash: string;
  webhook_secret: string;
}

export const apiClientStream = (id: string) => `api-client-${id}`;

export const apiClientDecider: Decider<ApiClientCommand, ApiClientEvent, ApiClientState> = {
  initialState: () => ({ exists: false, revoked: false, user_id: '', organization_id: '', scopes: [], secret_hash: '', webhook_secret: '' }),
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiClient': {
        if (state.exists) throw new DomainError(409, ['API client already exists']);
        const { type: _type, ...data } = command;
        return [{ type: 'ApiClientIssued', data }];
      }
      case 'RevokeApiClient':
        if (!state.exists) throw new DomainError(404, ['API client not found']);
        if (state.revoked) return [];
        return [
          { type: 'ApiClientRevoked', data: { client_id: command.client_id, user_id: state.user_id, organization_id: state.organization_id } },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiClientIssued':
        return { ...state, exists: true, ...event.data };
      case 'ApiClientRevoked':
        return { ...state, revoked: true };
      default:
        return state;
    }
  },
};
