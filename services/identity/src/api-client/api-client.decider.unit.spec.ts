import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { apiClientDecider } from './api-client.decider.ts';

const spec = deciderSpec(apiClientDecider);
const issued = {
  type: 'ApiClientIssued' as const,
  data: {
    client_id: 'c1',
    user_id: 'u1',
    organization_id: 'o1',
    scopes: ['estates' as const],
    secret_hash: 'scrypt$...',
    webhook_secret_encrypted: 'v1.sealed',
  },
};

describe('API client decider', () => {
  it('issues once', () => {
    const { type: _t, ...data } = { type: 'IssueApiClient' as const, ...issued.data };
    spec
      .given([])
      .when({ type: 'IssueApiClient', ...data })
      .then([issued]);
    spec
      .given([issued])
      .when({ type: 'IssueApiClient', ...data })
      .thenFails(409);
  });

  it('revokes once; a second revocation changes nothing; an unknown client is 404', () => {
    const revoked = { type: 'ApiClientRevoked' as const, data: { client_id: 'c1', user_id: 'u1', organization_id: 'o1' } };
    spec.given([issued]).when({ type: 'RevokeApiClient', client_id: 'c1' }).then([revoked]);
    spec.given([issued, revoked]).when({ type: 'RevokeApiClient', client_id: 'c1' }).then([]);
    spec.given([]).when({ type: 'RevokeApiClient', client_id: 'c1' }).thenFails(404);
  });

  it('rotates the webhook secret of a live client only', () => {
    const rotated = { type: 'ApiClientWebhookSecretRotated' as const, data: { client_id: 'c1', webhook_secret_encrypted: 'v1.new' } };
    spec.given([issued]).when({ type: 'RotateWebhookSecret', client_id: 'c1', webhook_secret_encrypted: 'v1.new' }).then([rotated]);
    spec.given([]).when({ type: 'RotateWebhookSecret', client_id: 'c1', webhook_secret_encrypted: 'v1.new' }).thenFails(404);
    const revoked = { type: 'ApiClientRevoked' as const, data: { client_id: 'c1', user_id: 'u1', organization_id: 'o1' } };
    spec.given([issued, revoked]).when({ type: 'RotateWebhookSecret', client_id: 'c1', webhook_secret_encrypted: 'v1.new' }).thenFails(404);
  });
});
