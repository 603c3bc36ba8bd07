import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Bus, EventEnvelope, EventHandler } from '../ports/bus.ts';
import { consumeParsedEvents, KeyedOrder, type ParsedEvent } from './reactor.ts';

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

describe('KeyedOrder (consumeEvents with orderedBy)', () => {
  /** An event of `key` (its stream) at `position`, and a handler each test resolves by hand. */
  const event = (key: string, position: number): EventEnvelope => ({
    ...envelope('A', {}),
    event_id: `${key}-${position}`,
    stream: key,
    position,
  });
  function gates() {
    const started: string[] = [];
    const open = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
    const handle = (e: EventEnvelope) =>
      new Promise<void>((resolve, reject) => {
        started.push(e.event_id);
        open.set(e.event_id, { resolve, reject });
      });
    return { started, handle, finish: (id: string) => open.get(id)!.resolve(), fail: (id: string) => open.get(id)!.reject(new Error(id)) };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it("runs other keys' events alongside, and one key's only after the one before it", async () => {
    const handled: string[] = [];
    const order = new KeyedOrder(
      (e) => e.stream,
      (e) => handled.push(e.event_id),
    );
    const { started, handle, finish } = gates();
    const runs = [event('a', 1), event('b', 2), event('a', 3)].map((e) => order.run(e, handle));
    await tick();
    expect(started).toEqual(['a-1', 'b-2']);
    finish('a-1');
    await tick();
    expect(started).toEqual(['a-1', 'b-2', 'a-3']);
    finish('b-2');
    finish('a-3');
    await Promise.all(runs);
  });

  it('counts an event as handled only once every event before it is', async () => {
    const handled: string[] = [];
    const order = new KeyedOrder(
      (e) => e.stream,
      (e) => handled.push(e.event_id),
    );
    const { handle, finish } = gates();
    const runs = [event('a', 1), event('b', 2), event('c', 3)].map((e) => order.run(e, handle));
    await tick();
    finish('c-3');
    finish('b-2');
    await tick();
    expect(handled).toEqual([]);
    finish('a-1');
    await Promise.all(runs);
    expect(handled).toEqual(['a-1', 'b-2', 'c-3']);
  });

  it('skips the rest of a key after a failure, and counts nothing of what was under way', async () => {
    const handled: string[] = [];
    const order = new KeyedOrder(
      (e) => e.stream,
      (e) => handled.push(e.event_id),
    );
    const { started, handle, finish, fail } = gates();
    const runs = [event('a', 1), event('b', 2), event('a', 3)].map((e) =>
      order.run(e, handle).then(
        () => 'ok',
        (error: Error) => error.message,
      ),
    );
    await tick();
    fail('a-1');
    await tick();
    finish('b-2');
    expect(await Promise.all(runs)).toEqual(['a-1', 'ok', 'a-1']);
    expect(started).toEqual(['a-1', 'b-2']);
    expect(handled).toEqual([]);
  });
});
