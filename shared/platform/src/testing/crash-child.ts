/**
 * Child process of the crash test: appends under load to a SQLite event store and projects the log
 * into a SQLite read store, until the parent kills it. Prints `ack <ids>` only after an append
 * resolved, and `projected <position>` as the projection advances.
 * Usage: tsx crash-child.ts <events.db> <reads.db>
 */
import { exact, NO_STREAM, WrongExpectedRevisionError, ANY } from '../ports/event-store.ts';
import { runProjection } from '../projection-runner.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { openSqliteReadStore } from '../sqlite/sqlite-read-store.ts';
import { newEvent } from './contract-helpers.ts';
import { LEDGER_COLLECTION, LEDGER_PROJECTION, projectLedger } from './ledger-projection.ts';

const [eventsFile, readsFile] = process.argv.slice(2);
if (!eventsFile || !readsFile) throw new Error('usage: crash-child.ts <events.db> <reads.db>');

const STREAMS = 12;
const WRITERS = 3;

const eventStore = openSqliteEventStore({ file: eventsFile });
const readStore = openSqliteReadStore({ file: readsFile });
const projection = runProjection({
  name: LEDGER_PROJECTION,
  eventStore,
  readStore,
  collections: [LEDGER_COLLECTION],
  handle: projectLedger,
  onError: (error) => process.stderr.write(`projection error: ${String(error)}\n`),
});

// What each writer believes the streams' revisions are; racing writers make some of it stale.
const known = new Map<string, bigint>();

async function writer(id: number): Promise<never> {
  for (let i = 0; ; i++) {
    const stream = `account-${Math.floor(Math.random() * STREAMS)}`;
    const revision = known.get(stream);
    const expected = revision === undefined ? NO_STREAM : i % 5 === 0 ? ANY : exact(revision);
    const events = Array.from({ length: 1 + ((i + id) % 3) }, () => newEvent('Deposited', { amount: 1 + Math.floor(Math.random() * 100) }));
    try {
      const result = await eventStore.append(stream, events, expected);
      known.set(stream, result.next_revision);
      process.stdout.write(`ack ${events.map((e) => e.event_id).join(',')}\n`);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      const last = (await eventStore.readStream(stream)).at(-1);
      if (last) known.set(stream, last.revision);
    }
    // Yields to timers and I/O so the projection keeps up with the writers.
    if (i % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

let reported = 0n;
setInterval(() => {
  if (projection.position > reported) {
    reported = projection.position;
    process.stdout.write(`projected ${reported}\n`);
  }
}, 10);

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
