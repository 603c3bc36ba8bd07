import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../ports/bus.ts';
import { envelopeJson, storedJsonOf, withStoredJson } from './stored-json.ts';

const fields = {
  context: 'calculations',
  event_id: 'e-1',
  type: 'CalculationJobFinished',
  stream: 'calculation-job-1',
  revision: 2,
  position: 41,
  occurred_at: '2026-12-04T12:00:00.000Z',
};
const data = { job_id: '1', metadata: { steps: [{ step: 1, note: 'say "why"\n' }] } };
const metadata = { actor: { user_id: null, client_id: 'c' }, correlation_id: 'k', causation_id: null };
const stored = () => withStoredJson({ ...fields }, { data: JSON.stringify(data), metadata: JSON.stringify(metadata) }) as EventEnvelope;

describe('an envelope made of a stored event', () => {
  it('is written as JSON.stringify would write the same envelope, from the stored text', () => {
    const envelope = stored();
    expect(storedJsonOf(envelope)).toBeDefined();
    const text = envelopeJson(envelope);
    expect(JSON.parse(text)).toEqual({ ...fields, data, metadata });
    expect(text).toBe(JSON.stringify({ ...fields, data, metadata } satisfies EventEnvelope));
  });

  it('reads its data and metadata like any envelope, parsed on first read', () => {
    const envelope = stored();
    expect(envelope.data).toEqual(data);
    expect(envelope.metadata.correlation_id).toBe('k');
    expect({ ...envelope }).toEqual({ ...fields, data, metadata });
  });

  it('is written from its values once they were set, not from the stored text', () => {
    const envelope = stored();
    envelope.data = { job_id: '2' };
    expect(storedJsonOf(envelope)).toBeUndefined();
    expect(JSON.parse(envelopeJson(envelope)).data).toEqual({ job_id: '2' });
  });

  it('writes a plain envelope with JSON.stringify', () => {
    const plain: EventEnvelope = { ...fields, data, metadata };
    expect(envelopeJson(plain)).toBe(JSON.stringify(plain));
  });
});
