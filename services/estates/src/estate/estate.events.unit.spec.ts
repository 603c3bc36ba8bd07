import { describe, expect, it } from 'vitest';
import { parseEstateEvent } from './estate.events.ts';

const ESTATE = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';

describe('parseEstateEvent', () => {
  it('reads a stored event through its contract schema (unknown keys are not carried on)', () => {
    expect(parseEstateEvent({ type: 'EstateDeleted', data: { estate_id: ESTATE, organization_id: ORG, stray: 1 } })).toEqual({
      type: 'EstateDeleted',
      data: { estate_id: ESTATE, organization_id: ORG },
    });
  });

  it('reads an event its schema refuses as stored, so a stream of an older version stays readable', () => {
    const stored = { type: 'EstateDeleted', data: { estate_id: 'not-a-uuid', organization_id: ORG } };
    expect(parseEstateEvent(stored)).toEqual(stored);
  });
});
