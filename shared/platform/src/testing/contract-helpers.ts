import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../ports/event-store.ts';

/** A name no other test (or test run on a shared server) uses: `<label>-<random>`. */
export function uniqueName(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

let clock = Date.UTC(2026, 0, 1);

/** A new event with a fresh id; `occurred_at` comes from a test clock, as it would from a command. */
export function newEvent(type = 'SomethingHappened', data: Record<string, unknown> = {}): NewEvent {
  clock += 1000;
  return {
    event_id: randomUUID(),
    type,
    data,
    metadata: {
      actor: { user_id: 'user-1', client_id: null },
      correlation_id: randomUUID(),
      causation_id: null,
    },
    occurred_at: new Date(clock).toISOString(),
  };
}

/** The error `promise` rejects with; throws when it resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, it resolved');
}
