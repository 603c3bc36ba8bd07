import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@renopath/platform/service/decider-spec.ts';
import { externalIdDecider, externalIdStream } from './external-id.decider.ts';

const spec = deciderSpec(externalIdDecider);
const ORG = '22222222-2222-4222-8222-222222222222';
const claimed = { type: 'ExternalIdClaimed' as const, data: { organization_id: ORG, external_id: 'crm-7', estate_id: 'e1' } };

describe('external id decider', () => {
  it('lets one estate per organization hold an external_id', () => {
    spec.given([]).when({ type: 'ClaimExternalId', organization_id: ORG, external_id: 'crm-7', estate_id: 'e1' }).then([claimed]);
    spec.given([claimed]).when({ type: 'ClaimExternalId', organization_id: ORG, external_id: 'crm-7', estate_id: 'e1' }).then([]);
    spec
      .given([claimed])
      .when({ type: 'ClaimExternalId', organization_id: ORG, external_id: 'crm-7', estate_id: 'e2' })
      .thenFails(409, /already names estate e1/);
  });

  it('frees it only for its holder', () => {
    spec.given([claimed]).when({ type: 'ReleaseExternalId', organization_id: ORG, external_id: 'crm-7', estate_id: 'e2' }).then([]);
    spec
      .given([claimed])
      .when({ type: 'ReleaseExternalId', organization_id: ORG, external_id: 'crm-7', estate_id: 'e1' })
      .then([{ type: 'ExternalIdReleased', data: { organization_id: ORG, external_id: 'crm-7', estate_id: 'e1' } }]);
  });

  it('scopes the id to the organization', () => {
    expect(externalIdStream(ORG, 'crm-7')).not.toBe(externalIdStream('33333333-3333-4333-8333-333333333333', 'crm-7'));
    expect(externalIdStream(ORG, 'crm-7')).not.toMatch(/^estate-/);
  });
});
