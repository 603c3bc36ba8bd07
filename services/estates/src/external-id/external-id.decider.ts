import { createHash } from 'node:crypto';
import { DomainError } from '@renopath/platform';
import type { Decider } from '@renopath/platform/service/decider.ts';

/**
 * A client's `external_id` names one estate per organization (the CRM's own key; a trajectory job
 * for the same organization and external_id updates that estate). One stream per pair makes it
 * unique without a cross-stream transaction, like identity's email addresses.
 */
export type ExternalIdCommand =
  | { type: 'ClaimExternalId'; organization_id: string; external_id: string; estate_id: string }
  | { type: 'ReleaseExternalId'; organization_id: string; external_id: string; estate_id: string };

export type ExternalIdEvent =
  | { type: 'ExternalIdClaimed'; data: { organization_id: string; external_id: string; estate_id: string } }
  | { type: 'ExternalIdReleased'; data: { organization_id: string; external_id: string; estate_id: string } };

export interface ExternalIdState {
  estate_id: string | null;
}

/** Not under `estate-`: the estate projections read only estate streams. */
export const externalIdStream = (organization_id: string, external_id: string) =>
  `external-id-${createHash('sha256').update(`${organization_id}\u0000${external_id}`).digest('hex').slice(0, 40)}`;

export const externalIdDecider: Decider<ExternalIdCommand, ExternalIdEvent, ExternalIdState> = {
  initialState: () => ({ estate_id: null }),
  decide(command, state) {
    const { organization_id, external_id, estate_id } = command;
    switch (command.type) {
      case 'ClaimExternalId':
        if (state.estate_id === estate_id) return [];
        if (state.estate_id !== null) throw new DomainError(409, [`external_id ${JSON.stringify(external_id)} already names estate ${state.estate_id}`]);
        return [{ type: 'ExternalIdClaimed', data: { organization_id, external_id, estate_id } }];
      case 'ReleaseExternalId':
        if (state.estate_id !== estate_id) return [];
        return [{ type: 'ExternalIdReleased', data: { organization_id, external_id, estate_id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ExternalIdClaimed':
        return { estate_id: event.data.estate_id };
      case 'ExternalIdReleased':
        return { estate_id: null };
      default:
        return state;
    }
  },
};
