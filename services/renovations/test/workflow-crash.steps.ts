import type { EventEnvelope } from '@renopath/platform';
import { EstateEvents, type EstateEventType } from '@renopath/contracts';
import { fieldsOf } from '../src/renovation/testing.ts';

/** Shared by workflow-crash.int.spec.ts and its child (importing the child would run it). */
export const ORG = '33333333-3333-4333-8333-333333333333';
export const OWNER = 'fedcba98-7654-4321-8fed-cba987654321';
/** What the child's estate is built with; the reconcile grows the roof from the first to the second surface. */
export const ROOF_SURFACES = { before: 80, after: 120 } as const;
export const ROOF_ITEM = 'INCLINED_ROOF_INSULATION_INSIDE';

/**
 * Where the child kills itself, in each of the two workflows that span renovation streams (a roof edit
 * revalues every renovation of the estate; a deleted estate deletes them all):
 *   - `*-mirrored`: this context's copy of the estate is written, no renovation touched yet;
 *   - `*-first`: the first renovation's stream took the change, the second did not;
 *   - `*-all`: both streams took it, the estates event is not acknowledged.
 */
export const STEPS = ['reconcile-mirrored', 'reconcile-first', 'reconcile-all', 'delete-mirrored', 'delete-first', 'delete-all'] as const;
export type Step = (typeof STEPS)[number];
export const workflowOf = (step: Step) => (step.startsWith('delete') ? 'delete' : 'reconcile');

/**
 * The estates context's log as the child's bus carries it (fixed ids, so the restart can deliver the
 * same events again): an estate in Gent with one roof, then the roof edit, then the deletion.
 */
export const ESTATE_ID = '44444444-4444-4444-8444-444444444444';
export const ROOF_ID = '55555555-5555-4555-8555-555555555555';

export function estatesLog(): EventEnvelope[] {
  const events: Array<{ type: EstateEventType; data: Record<string, unknown> }> = [
    {
      type: 'EstateCreated',
      data: {
        estate_id: ESTATE_ID,
        organization_id: ORG,
        estate_provider_type: 'API',
        referral_token: 'crash-referral',
        fields: fieldsOf({
          address: { zip_code: '9000', country: 'BE', place: 'Gent' },
          year_built: 1960,
          estate_format: 'SEMI_OPEN',
          habitable_space_m2: 140,
          energy_context: { heating_type: 'GAS', outer_wall_surface: 120 },
        }),
      },
    },
    {
      type: 'RoofAdded',
      data: {
        estate_id: ESTATE_ID,
        roof_id: ROOF_ID,
        fields: {
          estate_roof_type: 'INCLINED',
          surface_m2: ROOF_SURFACES.before,
          is_decking_present: null,
          insulation_type: 'NONE',
          name: null,
          pitch_degrees: null,
          dimensions: { height_cm: null },
        },
      },
    },
    { type: 'RoofUpdated', data: { estate_id: ESTATE_ID, roof_id: ROOF_ID, changes: { surface_m2: ROOF_SURFACES.after } } },
    { type: 'EstateDeleted', data: { estate_id: ESTATE_ID, organization_id: ORG } },
  ];
  return events.map(({ type, data }, i) => ({
    context: 'estates',
    event_id: `66666666-6666-4666-8666-${String(i).padStart(12, '0')}`,
    type,
    stream: `estate-${ESTATE_ID}`,
    revision: i,
    position: i + 1,
    occurred_at: `2026-11-22T10:00:0${i}.000Z`,
    data: EstateEvents[type].parse(data) as Record<string, unknown>,
    metadata: {
      actor: { user_id: OWNER, client_id: 'crash' },
      correlation_id: `77777777-7777-4777-8777-${String(i).padStart(12, '0')}`,
      causation_id: null,
    },
  }));
}

/** Identity's word that OWNER owns ORG, as this context learns it. */
export const ownerAdded: EventEnvelope = {
  context: 'identity',
  event_id: '88888888-8888-4888-8888-888888888888',
  type: 'OrganizationMemberAdded',
  stream: `organization-${ORG}`,
  revision: 0,
  position: 1,
  occurred_at: '2026-11-22T09:00:00.000Z',
  data: { organization_id: ORG, user_id: OWNER, member_type: 'OWNER' },
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: '99999999-9999-4999-8999-999999999999', causation_id: null },
};

/** How many of `estatesLog()` the child had published when it died at `step`. */
export const publishedAt = (step: Step) => (workflowOf(step) === 'delete' ? 4 : 3);
