import type { EstateEvent, EstateFieldValues } from '@renopath/contracts';
import type { ReferralEstate } from './referral-model.ts';

type Roof = ReferralEstate['roofs'][number];
const mergeRoof = (roof: Roof, changes: Extract<EstateEvent, { type: 'RoofUpdated' }>['data']['changes']): Roof =>
  ({ ...roof, ...changes, dimensions: { ...roof.dimensions, ...changes.dimensions } }) as Roof;

/**
 * This context's copy of an estate for its referral page: the fields and roofs the page shows or
 * estimates the current label from. Pure fold over the estates context's events.
 */
export function applyEstateEvent(doc: ReferralEstate | null, event: EstateEvent): ReferralEstate | null {
  switch (event.type) {
    case 'EstateCreated':
      return {
        estate_id: event.data.estate_id,
        organization_id: event.data.organization_id,
        fields: event.data.fields,
        roofs: [],
        deleted: false,
      };
    case 'EstateUpdated': {
      if (!doc) return null;
      const c = event.data.changes;
      const f = doc.fields;
      const fields = {
        ...f,
        ...c,
        address: { ...f.address, ...c.address },
        commercial_context: { ...f.commercial_context, ...c.commercial_context },
        energy_context: { ...f.energy_context, ...c.energy_context },
        dimensions: { ...f.dimensions, ...c.dimensions },
      } as EstateFieldValues;
      return { ...doc, fields };
    }
    case 'EstateDeleted':
      return doc ? { ...doc, deleted: true } : null;
    case 'RoofAdded':
      return doc
        ? { ...doc, roofs: [...doc.roofs.filter((r) => r.id !== event.data.roof_id), { ...event.data.fields, id: event.data.roof_id }] }
        : null;
    case 'RoofUpdated':
      return doc ? { ...doc, roofs: doc.roofs.map((r) => (r.id === event.data.roof_id ? mergeRoof(r, event.data.changes) : r)) } : null;
    case 'RoofRemoved':
      return doc ? { ...doc, roofs: doc.roofs.filter((r) => r.id !== event.data.roof_id) } : null;
    case 'EstateTrajectoryQualityRecorded':
      return doc ? { ...doc, quality: { confidence_score: event.data.confidence_score, quality_label: event.data.quality_label } } : null;
    default:
      return doc;
  }
}
