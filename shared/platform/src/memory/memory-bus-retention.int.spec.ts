import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../ports/bus.ts';
import { createMemoryBus, type MemoryBus } from './memory-bus.ts';

const event = (n: number): EventEnvelope => ({
  context: 'estates',
  event_id: randomUUID(),
  type: 'A',
  stream: 'estate-1',
  revision: n,
  position: n + 1,
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: { n },
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
});

/** What the embedded bus still holds: events a consumer started now would be handed. */
const retained = (bus: MemoryBus) => bus.retainedEvents;

describe('embedded bus retention', () => {
  it('drops events every durable consumer has passed, and keeps what a stopped one has not read', async () => {
    const bus = createMemoryBus();
    const seen: number[] = [];
    const fast = await bus.consume('fast', { subjects: ['evt.estates.>'] }, async (e) => void seen.push(e.data['n'] as number));
    for (let n = 0; n < 3000; n++) await bus.publish('evt.estates.A', event(n));
    await vi.waitFor(() => expect(seen).toHaveLength(3000));
    await bus.publish('evt.estates.A', event(3000)); // a publish is when the log is trimmed
    for (let n = 3001; n < 4096; n++) await bus.publish('evt.estates.A', event(n));
    await vi.waitFor(() => expect(seen).toHaveLength(4096));
    expect(retained(bus)).toBeLessThan(2048);

    // A durable that stops keeps its unread events: it resumes where it left off, nothing lost.
    const later: number[] = [];
    const slow = await bus.consume('slow', { subjects: ['evt.estates.>'] }, async (e) => void later.push(e.data['n'] as number));
    await slow.close();
    for (let n = 4096; n < 6200; n++) await bus.publish('evt.estates.A', event(n));
    const again = await bus.consume('slow', { subjects: ['evt.estates.>'] }, async (e) => void later.push(e.data['n'] as number));
    await vi.waitFor(() => expect(later.at(-1)).toBe(6199));
    // no gap across the stop: every event after its first one reached it, in order
    expect(later.every((n, i) => i === 0 || n === later[i - 1]! + 1)).toBe(true);
    await again.close();
    await fast.close();
    await bus.close();
  });

  it("a consumer waiting for another context's events neither holds the log nor misses its own", async () => {
    const bus = createMemoryBus();
    const estates: number[] = [];
    const identity: number[] = [];
    const fast = await bus.consume('fast', { subjects: ['evt.estates.>'] }, async (e) => void estates.push(e.data['n'] as number));
    const idle = await bus.consume('idle', { subjects: ['evt.identity.>'] }, async (e) => void identity.push(e.data['n'] as number));
    for (let n = 0; n < 8192; n++) await bus.publish('evt.estates.A', event(n));
    await vi.waitFor(() => expect(estates).toHaveLength(8192));
    // Trimmed as the fast one goes (it lags the publisher by about half here; a trim every 1024
    // events), not held from where the idle one started: that would keep all 8192.
    expect(retained(bus)).toBeLessThan(6000);
    await bus.publish('evt.identity.B', { ...event(8192), context: 'identity' });
    await vi.waitFor(() => expect(identity).toEqual([8192]));
    await idle.close();
    await fast.close();
    await bus.close();
  });

  it('keeps only the most recent events when nobody consumes', async () => {
    const bus = createMemoryBus();
    for (let n = 0; n < 12_288; n++) await bus.publish('evt.estates.A', event(n));
    expect(retained(bus)).toBeLessThanOrEqual(10_000 + 1024);
    await bus.close();
  });
});
