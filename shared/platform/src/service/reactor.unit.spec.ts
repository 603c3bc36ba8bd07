import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Bus, EventEnvelope, EventHandler } from '../ports/bus.ts';
import { consumeParsedEvents, type ParsedEvent } from './reactor.ts';

const contracts = {
  MemberAdded: z.object({ user_id: z.string(), role: z.enum(['OWNER', 'CLIENT']) }),
  MemberRemoved: z.object({ user_id: z.string() }),
};

const envelope = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  context: 'identity',
  event_id: `evt-${type}`,
  type,
  stream: 'organization-1',
  revision: 1,
  position: 1,
  occurred_at: '2024-01-01T00:00:00.000Z',
  data,
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
});

/** The reactor's handler as the bus would call it, what it handed on, and what it logged. */
async function open() {
  let deliver: EventHandler | undefined;
  const bus = {
    consume: async (_consumer: string, _options: unknown, handler: EventHandler) => {
      deliver = handler;
      return { close: async () => {} };
    },
  } as unknown as Bus;
  const log = { error: vi.fn() };
  const seen: Array<ParsedEvent<typeof contracts>> = [];
  await consumeParsedEvents({ bus, log: log as unknown as Logger }, 'estates-directory', contracts, async (event) => {
    seen.push(event);
  });
  return { deliver: (e: EventEnvelope) => deliver!(e), log, seen };
}

describe('consumeParsedEvents', () => {
  it("hands on an event's data as the contract of its type parses it", async () => {
    const { deliver, seen, log } = await open();
    await deliver(envelope('MemberAdded', { user_id: 'u', role: 'OWNER', extra: 1 }));
    await deliver(envelope('MemberRemoved', { user_id: 'u' }));
    expect(seen).toEqual([
      { type: 'MemberAdded', data: { user_id: 'u', role: 'OWNER' } },
      { type: 'MemberRemoved', data: { user_id: 'u' } },
    ]);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('passes over an event of a type it has no contract for, without a word', async () => {
    const { deliver, seen, log } = await open();
    await deliver(envelope('UserUpdated', { user_id: 'u' }));
    await deliver(envelope('constructor', {}));
    expect(seen).toEqual([]);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs a malformed event (the consumer, its id and type) and passes it over rather than throwing', async () => {
    const { deliver, seen, log } = await open();
    await expect(deliver(envelope('MemberAdded', { user_id: 'u', role: 'KING' }))).resolves.toBeUndefined();
    expect(seen).toEqual([]);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ event_id: 'evt-MemberAdded', type: 'MemberAdded', err: expect.anything() }),
      'estates-directory: event does not match its contract; skipped',
    );
  });
});
