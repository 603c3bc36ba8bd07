import { describe, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { onboardingDecider, type OnboardingTerms } from './onboarding.decider.ts';

const spec = deciderSpec(onboardingDecider);
const terms: OnboardingTerms = {
  organization_id: '7f0c1d2e-3a4b-4c5d-8e6f-708192a3b4c5',
  profile: {
    phone_number: null,
    email_address: null,
    organization_name: 'Agency',
    country: 'BE',
    street: null,
    house_number: null,
    house_number_extra: null,
    zipcode: null,
    place: null,
    vat_number: null,
    external_id: null,
  },
  owner: { user_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', email_address: 'owner@example.com', first_name: 'O', last_name: 'Wner' },
  owner_invitation: { invitation_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', token_hash: 'sha256', expires_at: '2026-01-08T00:00:00.000Z' },
  client: {
    client_id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
    scopes: ['estates'],
    secret_hash: 'scrypt$...',
    webhook_secret_encrypted: 'v1.sealed',
  },
};
const started = { type: 'OnboardingStarted' as const, data: terms };

describe('onboarding decider', () => {
  it('starts once; a repeated start is the workflow already under way', () => {
    spec
      .given([])
      .when({ type: 'StartOnboarding', ...terms })
      .then([started]);
    spec
      .given([started])
      .when({ type: 'StartOnboarding', ...terms })
      .then([]);
  });
});
