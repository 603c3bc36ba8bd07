import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';
import type { IdentityEvent, Scope } from '@renopath/contracts';

type ApiClientEvent = Extract<IdentityEvent, { type: 'ApiClientIssued' | 'ApiClientRevoked' | 'ApiClientWebhookSecretRotated' }>;

export type ApiClientCommand =
  | {
      type: 'IssueApiClient';
      client_id: string;
      user_id: string;
      organization_id: string;
      scopes: Scope[];
      secret_hash: string;
      /** Sealed by the handler (SecretBox): the decider never sees the secret in clear. */
      webhook_secret_encrypted: string;
    }
  | { type: 'RotateWebhookSecret'; client_id: string; webhook_secret_encrypted: string }
  | { type: 'RevokeApiClient'; client_id: string };

export interface ApiClientState {
  exists: boolean;
  revoked: boolean;
  user_id: string;
  organization_id: string;
  scopes: Scope[];
  secret_hash: string;
  webhook_secret_encrypted: string | null;
  /** Only in streams written by earlier versions (in clear). */
  legacy_webhook_secret: string | null;
}

export const apiClientStream = (id: string) => `api-client-${id}`;

export const apiClientDecider: Decider<ApiClientCommand, ApiClientEvent, ApiClientState> = {
  initialState: () => ({
    exists: false,
    revoked: false,
    user_id: '',
    organization_id: '',
    scopes: [],
    secret_hash: '',
    webhook_secret_encrypted: null,
    legacy_webhook_secret: null,
  }),
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiClient': {
        if (state.exists) throw new DomainError(409, ['API client already exists']);
        const { type: _type, ...data } = command;
        return [{ type: 'ApiClientIssued', data }];
      }
      case 'RotateWebhookSecret':
        if (!state.exists || state.revoked) throw new DomainError(404, ['API client not found']);
        return [
          {
            type: 'ApiClientWebhookSecretRotated',
            data: { client_id: command.client_id, webhook_secret_encrypted: command.webhook_secret_encrypted },
          },
        ];
      case 'RevokeApiClient':
        if (!state.exists) throw new DomainError(404, ['API client not found']);
        if (state.revoked) return [];
        return [
          {
            type: 'ApiClientRevoked',
            data: { client_id: command.client_id, user_id: state.user_id, organization_id: state.organization_id },
          },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiClientIssued': {
        const { webhook_secret, webhook_secret_encrypted, ...data } = event.data;
        return {
          ...state,
          exists: true,
          ...data,
          webhook_secret_encrypted: webhook_secret_encrypted ?? null,
          legacy_webhook_secret: webhook_secret ?? null,
        };
      }
      case 'ApiClientWebhookSecretRotated':
        return { ...state, webhook_secret_encrypted: event.data.webhook_secret_encrypted, legacy_webhook_secret: null };
      case 'ApiClientRevoked':
        return { ...state, revoked: true };
      default:
        return state;
    }
  },
};
