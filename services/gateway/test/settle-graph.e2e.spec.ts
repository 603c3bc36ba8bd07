import { EVENT_CONSUMERS, EVENT_CONSUMPTION } from '@renopath/contracts';
import { MemoryBus } from '@renopath/platform/memory/memory-bus.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from './stack.ts';

/**
 * The settle graph (EVENT_CONSUMPTION, derived from the declared consumers, EVENT_CONSUMERS) against what
 * the contexts really consume: the embedded stack is started with every context on the main thread's
 * bus, and each consumer it opens is recorded with the subjects it follows. A consumer's name starts
 * with its context's (`renovations-estates`).
 */
const CONTEXTS = Object.keys(EVENT_CONSUMPTION);
const opened: Array<{ consumer: string; subjects: string[] }> = [];
let stack: Stack;

beforeAll(async () => {
  const consume = MemoryBus.prototype.consume;
  vi.spyOn(MemoryBus.prototype, 'consume').mockImplementation(function (this: MemoryBus, consumer, options, handler) {
    opened.push({ consumer, subjects: [...options.subjects] });
    return consume.call(this, consumer, options, handler);
  });
  stack = await startStack({ RENOPATH_CONTEXT_THREADS: 'none' });
});
afterAll(async () => {
  await stack?.close();
  vi.restoreAllMocks();
});

describe('the settle graph', () => {
  it("opens every declared consumer of another context's events, with the declared subjects, and no other", () => {
    const crossing = opened.filter(({ consumer, subjects }) => {
      const context = consumer.split('-')[0]!;
      return context !== 'gateway' && subjects.some((subject) => /^evt\.([a-z]+)\./.exec(subject)?.[1] !== context);
    });
    const found = Object.fromEntries(crossing.map(({ consumer, subjects }) => [consumer, [...subjects].sort()]));
    const declared = Object.fromEntries(Object.entries(EVENT_CONSUMERS).map(([consumer, subjects]) => [consumer, [...subjects].sort()]));
    expect(found).toEqual(declared);
  });

  it('declares every origin a running consumer follows, and every declared origin is followed', () => {
    const followed: Record<string, Set<string>> = {};
    for (const { consumer, subjects } of opened) {
      const context = consumer.split('-')[0]!;
      // The gateway follows revocations for its token cache: it settles nothing.
      if (context === 'gateway' || !CONTEXTS.includes(context)) continue;
      for (const subject of subjects) {
        const origin = /^evt\.([a-z]+)\./.exec(subject)?.[1];
        expect(origin, `${consumer} follows ${subject}, not an event subject`).toBeDefined();
        if (origin !== context) (followed[context] ??= new Set()).add(origin!);
      }
    }
    const found = Object.fromEntries(CONTEXTS.map((context) => [context, [...(followed[context] ?? [])].sort()]));
    const declared = Object.fromEntries(Object.entries(EVENT_CONSUMPTION).map(([context, origins]) => [context, [...origins].sort()]));
    expect(found).toEqual(declared);
  });
});
