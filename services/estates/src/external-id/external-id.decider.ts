import { createHash } from 'node:crypto';
import { claimDecider, type ClaimState } from '@renopath/platform/service/claim.ts';
import type { Decider } from '@renopath/platform/service/decider.ts';

/**
 * A client's `external_id` names one estate per organization (the CRM's own key; a trajectory job
 * for the same organization and external_id updates that estate). One stream per pair makes it
 * unique without a cross-stream transaction (the platform's claim decider, like identity's emails).
 */
export type ExternalIdCommand =
  | { type: 'ClaimExternalId'; organization_id: string; external_id: string; estate_id: string }
  | { type: 'ReleaseExternalId'; organization_id: string; external_id: string; estate_id: string };

export type ExternalIdEvent =
  | { type: 'ExternalIdClaimed'; data: { organization_id: string; external_id: string; estate_id: string } }
  | { type: 'ExternalIdReleased'; data: { organization_id: string; external_id: string; estate_id: string } };

export type ExternalIdState = ClaimState;

/** Not under `estate-`: the estate projections read only estate streams. */
export const externalIdStream = (organization_id: string, external_id: string) =>
  `external-id-${createHash('sha256').update(`${organization_id}\u0000${external_id}`).digest('hex').slice(0, 40)}`;

export const externalIdDecider: Decider<ExternalIdCommand, ExternalIdEvent, ExternalIdState> = claimDecider<
  ExternalIdCommand,
  ExternalIdEvent
>({
  claim: 'ClaimExternalId',
  release: 'ReleaseExternalId',
  claimed: 'ExternalIdClaimed',
  released: 'ExternalIdReleased',
  holderOf: (command) => command.estate_id,
  holderIn: (event) => event.data.estate_id,
  data: ({ organization_id, external_id, estate_id }) => ({ organization_id, external_id, estate_id }),
  conflict: (command, holder) => `external_id ${JSON.stringify(command.external_id)} already names estate ${holder}`,
});
