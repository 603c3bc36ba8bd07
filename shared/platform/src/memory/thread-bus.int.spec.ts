import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DomainError } from '../ports/bus.ts';
import { busContract } from '../testing/bus.contract.ts';
import { createMemoryBus } from './memory-bus.ts';
import { exposeBus, ThreadBus } from './thread-bus.ts';

// One memory bus stands for the main thread; every bus the suite opens is a context thread's side of
// its own port to it. The ports are real MessagePorts (structured clone, asynchronous delivery).
const host = createMemoryBus({ redelivery: { initialDelayMs: 10, maxDelayMs: 50 } });
afterAll(() => host.close());

function connect(): ThreadBus {
  const { port1, port2 } = new MessageChannel();
  exposeBus(host, port1);
  return new ThreadBus(port2);
}

busContract('thread (a MessagePort to a memory bus)', async () => connect(), { inFlight: true });

describe('ThreadBus', () => {
  it('drops a closed thread’s handlers at the main thread: its subject has no responder any more', async () => {
    const thread = connect();
    const caller = connect();
    await thread.handle('cmd.thread-test.Ping', async () => 'pong');
    expect(await caller.request('cmd.thread-test.Ping', {})).toBe('pong');
    await thread.close();
    await expect(caller.request('cmd.thread-test.Ping', {}, { timeoutMs: 500 })).rejects.toThrow(/no responders/);
    await caller.close();
  });

  it('answers a request whose thread went away mid-call with a failure, not silence', async () => {
    const { port1, port2 } = new MessageChannel();
    exposeBus(host, port1);
    const thread = new ThreadBus(port2);
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    await thread.handle('cmd.thread-test.Hang', () => (entered(), new Promise(() => {})));
    const caller = connect();
    const answer = caller.request('cmd.thread-test.Hang', {}, { timeoutMs: 5_000 });
    await inHandler;
    // The thread's end of the port closes, as when a worker thread exits: the caller hears of it as a
    // failed handler, not by its own request timing out.
    port2.close();
    await expect(answer).rejects.toThrow(/handler failed/);
    await caller.close();
  });

  it('carries a DomainError thrown in the main thread back to the thread that asked', async () => {
    await host.handle('cmd.thread-test.Refuse', async () => {
      throw new DomainError(422, ['no'], 'refused');
    });
    const thread = connect();
    await expect(thread.request('cmd.thread-test.Refuse', {})).rejects.toMatchObject({ status: 422, messages: ['no'], code: 'refused' });
    await thread.close();
  });
});
