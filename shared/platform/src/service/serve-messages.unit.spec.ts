import { afterEach, describe, expect, it } from 'vitest';
import { EstatesSubjects, Messages, message, type ServiceRequest } from '@renopath/contracts';
import { z } from 'zod';
import { createMemoryBus } from '../memory/memory-bus.ts';
import { DomainError } from '../ports/bus.ts';
import { serveMessages } from './handler-kit.ts';

const estate_id = '0b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12';
const actor = {
  user_id: '1b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12',
  organization_id: '2b6f2d6e-3c1a-4d2b-9f0e-5a7c8d9e0f12',
  client_id: 'c1',
  scopes: ['estates'],
};

describe('serveMessages', () => {
  // Copies through JSON like NATS: what a remote caller's message looks like.
  let bus = createMemoryBus({ copyRequests: true });
  afterEach(async () => {
    await bus.close();
    bus = createMemoryBus({ copyRequests: true });
  });

  it('hands a handler the message parsed with its contract, and refuses a bad one before the handler runs', async () => {
    const seen: ServiceRequest[] = [];
    const served = await serveMessages(bus, { [EstatesSubjects.updateEstate]: async (req) => (seen.push(req), { ok: true }) });
    const good = { actor, correlation_id: 'r1', params: { estate_id, extra: 'x' }, query: {}, body: { name: 'Kouter' } };
    await expect(bus.request(EstatesSubjects.updateEstate, good)).resolves.toEqual({ ok: true });
    expect(seen).toEqual([{ actor, correlation_id: 'r1', params: { estate_id }, query: {}, body: { name: 'Kouter' } }]);

    const notAnId = bus.request(EstatesSubjects.updateEstate, { ...good, params: { estate_id: '../other' } });
    await expect(notAnId).rejects.toMatchObject({ status: 404, messages: ['estate not found'] });
    const badBody = bus.request(EstatesSubjects.updateEstate, { ...good, body: { name: 12 } });
    await expect(badBody).rejects.toBeInstanceOf(DomainError);
    await expect(bus.request(EstatesSubjects.updateEstate, { ...good, body: { name: 12 } })).rejects.toMatchObject({
      status: 400,
      messages: ['name must be a string'],
    });
    expect(seen).toHaveLength(1);
    for (const s of served) await s.close();
  });

  it("takes a context's own contracts for its internal subjects, and refuses a subject without one at start", async () => {
    const contracts = { ...Messages, 'cmd.test.claim': message({ body: z.strictObject({ worker_id: z.string().min(1) }) }) };
    const served = await serveMessages(bus, { 'cmd.test.claim': async (req) => req.body }, contracts);
    await expect(bus.request('cmd.test.claim', { params: {}, query: {}, body: { worker_id: 'w1' } })).resolves.toEqual({ worker_id: 'w1' });
    await expect(bus.request('cmd.test.claim', { body: { worker_id: '' } })).rejects.toMatchObject({ status: 400 });
    for (const s of served) await s.close();
    await expect(serveMessages(bus, { 'cmd.test.unknown': async () => null })).rejects.toThrow(
      /no message contract for cmd\.test\.unknown/,
    );
  });
});
