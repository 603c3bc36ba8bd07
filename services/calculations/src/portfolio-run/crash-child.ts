// A process that starts a portfolio run on file-backed stores and kills itself (SIGKILL) right after
// its `killAfter`-th committed batch, mid-run: portfolio-crash.int.spec.ts resumes it.
import pino from 'pino';
import { openFsBlobStore, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import { startPortfolioRuns, threadComputer } from './index.ts';
import { syntheticCsvText } from './testing.ts';

const [events, reads, blobsDir, rows, killAfter] = process.argv.slice(2);
const log = pino({ level: 'silent' });
const eventStore = openSqliteEventStore({ file: events! });
const readStore = openSqliteReadStore({ file: reads! });
const blobs = await openFsBlobStore({ root: blobsDir! });
let committed = 0;
const runs = await startPortfolioRuns({
  eventStore,
  readStore,
  blobs,
  log,
  computer: threadComputer(2, log),
  settleTimeoutMs: 10_000,
  isWriter: async () => true,
  inFlight: 3,
  onBatch: () => {
    if (++committed === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
  },
});
const blob_key = 'uploads/0b6f3f0e-3333-4a4a-9a9a-000000000001';
const csv = syntheticCsvText(Number(rows), 5);
await blobs.put(blob_key, Buffer.from(csv), 'text/csv');
const actor = { user_id: '0b6f3f0e-2222-4a4a-9a9a-000000000002', organization_id: '0b6f3f0e-1111-4a4a-9a9a-000000000001', client_id: 'c' };
const run = (await runs.handlers.create({
  actor,
  correlation_id: 'crash',
  params: {},
  query: {},
  body: { blob_key, name: 'homes.csv', mimetype: 'text/csv', size: csv.length },
} as never)) as { id: string };
console.log(`run ${run.id}`);
await runs.runner.kick(run.id);
console.log('done');
