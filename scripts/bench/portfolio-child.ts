// One portfolio run of `rows` synthetic homes in its own process, embedded as `npm start` runs it
// (SQLite stores, the in-process bus, portfolio threads serving the batches): portfolio.ts reads
// the figures it prints as one JSON line. Its resident memory is this process's alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createMemoryBus, openFsBlobStore, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import { PortfolioSubjects, type PortfolioRun } from '@renopath/contracts';
import {
  busComputer,
  servePortfolioWorker,
  startPortfolioRuns,
  threadComputer,
} from '../../services/calculations/src/portfolio-run/index.ts';
import { readHome } from '../../services/calculations/src/portfolio-run/rows.ts';
import { readPortfolioCsv } from '../../services/calculations/src/portfolio-run/csv.ts';
import { syntheticCsv } from '../../services/calculations/src/portfolio-run/testing.ts';
import { planTrajectory } from '../../services/calculations/src/planner/planner.ts';

const rows = Number(process.argv[2]);
const threads = Number(process.argv[3] ?? 2);
const sample = Number(process.argv[4] ?? 600);
const dir = mkdtempSync(join(tmpdir(), 'bench-portfolio-'));
const log = pino({ level: 'warn' });
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// The file as a client uploads it: produced a line at a time and streamed to the blob store, as the
// gateway streams an upload, so neither this process nor the service ever holds it whole.
async function* csvChunks(count: number): AsyncGenerator<Buffer> {
  let pending: string[] = [];
  for (const line of syntheticCsv(count, 42)) {
    pending.push(line);
    if (pending.length >= 500) {
      yield Buffer.from(pending.join(''));
      pending = [];
    }
  }
  if (pending.length > 0) yield Buffer.from(pending.join(''));
}

// The plan alone, in this thread, on the file's first `sample` homes: the planner's own CPU per plan.
const homes: Parameters<typeof planTrajectory>[0][] = [];
await readPortfolioCsv(
  csvChunks(Math.min(rows, sample)),
  10_000,
  () => undefined,
  async (batch) => {
    for (const raw of batch) {
      const read = readHome(raw);
      if (read.ok && homes.length < sample) homes.push(read.home.property);
    }
  },
);
const year = new Date().getUTCFullYear();
for (const h of homes.slice(0, 100)) planTrajectory(h, { year }); // warm-up
let planCpu = cpuMs();
for (const h of homes) planTrajectory(h, { year });
planCpu = (cpuMs() - planCpu) / homes.length;

const eventStore = openSqliteEventStore({ file: join(dir, 'events.db') });
const readStore = openSqliteReadStore({ file: join(dir, 'reads.db') });
const blobs = await openFsBlobStore({ root: join(dir, 'blobs') });
// As the embedded app makes it (gateway embedded.ts): messages handed over as they are, not copied through JSON.
const bus = createMemoryBus({ copyRequests: false });
const computer = threadComputer(threads, log);
const served = await servePortfolioWorker(bus, computer, PortfolioSubjects.computeBatch);
let batches = 0;
const runs = await startPortfolioRuns({
  eventStore,
  readStore,
  blobs,
  log,
  computer: busComputer(bus, PortfolioSubjects.computeBatch, 120_000),
  settleTimeoutMs: 30_000,
  isWriter: async () => true,
  inFlight: threads * 2,
  onBatch: () => {
    if (++batches % 50 === 0) process.stderr.write(`  ${batches * 200} rows\r`);
  },
});
await new Promise((r) => setTimeout(r, 1_500)); // the threads load the planner before the clock starts

const blob_key = 'uploads/0b6f3f0e-3333-4a4a-9a9a-000000000001';
const stored = await blobs.putStream(blob_key, csvChunks(rows), 'text/csv');
const actor = { user_id: '0b6f3f0e-2222-4a4a-9a9a-000000000002', organization_id: '0b6f3f0e-1111-4a4a-9a9a-000000000001', client_id: 'c' };
const cpuStart = cpuMs();
const started = performance.now();
const created = (await runs.handlers.create({
  actor,
  correlation_id: 'bench',
  params: {},
  query: {},
  body: { blob_key, name: 'homes.csv', mimetype: 'text/csv', size: stored.size },
} as never)) as PortfolioRun;
await runs.runner.kick(created.id);
const seconds = (performance.now() - started) / 1000;
const serviceCpu = (cpuMs() - cpuStart) / rows;
// The plan alone again, now that the process is warm (the first plans of a process are slower): the lower figure is kept.
let planCpuWarm = cpuMs();
for (const h of homes) planTrajectory(h, { year });
planCpuWarm = (cpuMs() - planCpuWarm) / homes.length;
const run = (await runs.handlers.get({
  actor,
  correlation_id: 'bench',
  params: { portfolio_run_id: created.id },
  query: {},
} as never)) as PortfolioRun;
console.log(
  JSON.stringify({
    rows,
    status: run.status,
    processed: run.processed_rows,
    failed: run.failed_rows,
    seconds,
    homesPerSecond: rows / seconds,
    serviceCpuMsPerHome: serviceCpu,
    planAloneCpuMsPerPlan: Math.min(planCpu, planCpuWarm),
    planAloneColdCpuMsPerPlan: planCpu,
    planAloneWarmCpuMsPerPlan: planCpuWarm,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
await runs.close();
await served.close();
await computer.close();
await eventStore.close();
await readStore.close();
await blobs.close();
rmSync(dir, { recursive: true, force: true });
