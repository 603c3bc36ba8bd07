import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_STREAM, type RecordedEvent } from '../ports/event-store.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { runProcessManager } from './process-manager.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stores() {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-pm-'));
  dirs.push(dir);
  return {
    open: () => ({
      eventStore: openSqliteEventStore({ file: join(dir, 'events.db') }),
      readStore: openSqliteReadStore({ file: join(dir, 'read.db') }),
    }),
  };
}

const event = (type: string) => ({
  event_id: randomUUID(),
  type,
  data: {},
  occurred_at: new Date().toISOString(),
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c', causation_id: null },
});

describe('process manager runner', () => {
  it('handles only its event types, retries a failed event, and resumes after its checkpoint', async () => {
    const { open } = stores();
    let { eventStore, readStore } = open();
    await eventStore.append('a-1', [event('Started'), event('Ignored'), event('Started')], NO_STREAM);
    const seen: bigint[] = [];
    let failOnce = true;
    const pm = runProcessManager({
      name: 'test-pm',
      eventStore,
      readStore,
      eventTypes: ['Started'],
      retry: { initialDelayMs: 1 },
      async handle(e: RecordedEvent) {
        if (e.position === 3n && failOnce) {
          failOnce = false;
          throw new Error('a step failed');
        }
        seen.push(e.position);
      },
    });
    await pm.waitFor(3n);
    // The failed event is handled again, not skipped; the other type only moves the position.
    expect(seen).toEqual([1n, 3n]);
    await pm.close();
    await readStore.close();
    await eventStore.close();

    // A new life: only what came after the checkpoint.
    ({ eventStore, readStore } = open());
    await eventStore.append('a-2', [event('Started')], NO_STREAM);
    const again: bigint[] = [];
    const resumed = runProcessManager({
      name: 'test-pm',
      eventStore,
      readStore,
      eventTypes: ['Started'],
      handle: async (e) => void again.push(e.position),
    });
    await resumed.waitFor(4n);
    expect(again).toEqual([4n]);
    await resumed.close();
    await readStore.close();
    await eventStore.close();
  });
});
