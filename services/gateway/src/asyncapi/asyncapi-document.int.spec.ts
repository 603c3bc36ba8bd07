import { Parser } from '@asyncapi/parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_EVENTS } from '@renopath/contracts';
import { servedDocument } from '../openapi/testing.ts';

/** `/asyncapi.json`: the events as a contract, valid AsyncAPI 3 and complete. */
let doc: Record<string, any>;

beforeAll(async () => {
  doc = await servedDocument('/asyncapi.json');
});

describe('/asyncapi.json', () => {
  it('is a valid AsyncAPI 3.0 document (@asyncapi/parser, no error)', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`);
    expect(errors).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('has a channel, a receive operation and a payload for every event contract, on its JetStream subject', async () => {
    const expected = Object.entries(PUBLISHED_EVENTS).flatMap(([context, events]) =>
      Object.keys(events).map((type) => `evt.${context}.${type}`),
    );
    expect(expected.length).toBeGreaterThan(30);
    expect(
      Object.values(doc['channels'])
        .map((c: any) => c.address)
        .sort(),
    ).toEqual(expected.sort());
    expect(Object.keys(doc['operations'])).toHaveLength(expected.length);
    const { document } = await new Parser().parse(JSON.stringify(doc));
    const created = document!
      .messages()
      .all()
      .find((m) => m.name() === 'EstateCreated');
    const payload = created!.payload()!.json() as any;
    expect(payload.allOf[1].properties.data.properties).toHaveProperty('estate_id');
    expect(doc['components'].schemas.EventEnvelope.required).toEqual(
      expect.arrayContaining(['event_id', 'type', 'stream', 'revision', 'position', 'data', 'metadata']),
    );
  });
});
