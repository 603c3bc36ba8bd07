import autocannon from 'autocannon';
import { benchToken, startBenchServer } from './server.ts';

/**
 * `npx tsx scripts/bench/overload.ts`: what the event loops of an embedded server show under load that
 * it still serves, the ground for the default load-shedding limits (docs/operations.md "Overload").
 * The server runs with shedding off (RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=0) and the default
 * context threads; each second it reports, per event loop (the main thread's and each context
 * thread's), the mean delay of a 10 ms timer and the utilisation over that second. Three phases of
 * `OVERLOAD_SECONDS` (default 10) each: idle, `OVERLOAD_CONNECTIONS` (default 50) connections reading
 * `GET /users/me` flat out, and calculation jobs submitted at `OVERLOAD_JOBS_PER_SECOND` (default 100)
 * beside those reads. Prints the median and the maximum of the per-second figures of each loop.
 */
const SECONDS = Number(process.env['OVERLOAD_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['OVERLOAD_CONNECTIONS'] ?? 50);
const JOBS_PER_SECOND = Number(process.env['OVERLOAD_JOBS_PER_SECOND'] ?? 100);

type Loops = Record<string, { delayMs: number; utilization: number } | null>;

const { server, ready } = await startBenchServer({
  RENOPATH_OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  RENOPATH_OVERLOAD_MAX_HEAP_USED_MB: '0',
});
const base = `http://127.0.0.1:${ready.gatewayPort}`;
const auth = { authorization: `Bearer ${await benchToken(ready)}` };

const loops = () =>
  new Promise<Loops>((resolve) => {
    server.once('message', (m) => resolve((m as { loops: Loops }).loops));
    server.send('loops');
  });

/** Samples every second while `work` runs; returns the samples per loop. */
async function sampled(work: Promise<unknown>): Promise<Record<string, { delayMs: number; utilization: number }[]>> {
  const samples: Record<string, { delayMs: number; utilization: number }[]> = {};
  let done = false;
  void work.finally(() => {
    done = true;
  });
  await loops(); // starts each loop's sample afresh
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const [loop, load] of Object.entries(await loops()))
      (samples[loop] ??= []).push(load ?? { delayMs: Number.POSITIVE_INFINITY, utilization: 1 });
  }
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
function print(phase: string, samples: Record<string, { delayMs: number; utilization: number }[]>, extra = '') {
  console.log(`${phase}${extra}`);
  for (const [loop, xs] of Object.entries(samples)) {
    const delays = xs.map((x) => x.delayMs);
    const elu = xs.map((x) => x.utilization);
    console.log(
      `  ${loop.padEnd(13)} delay ms median ${median(delays).toFixed(1)} max ${Math.max(...delays).toFixed(1)}; ` +
        `utilisation median ${median(elu).toFixed(2)} max ${Math.max(...elu).toFixed(2)}  (${xs.length} samples)`,
    );
  }
}

const reads = () => autocannon({ url: `${base}/users/me`, connections: CONNECTIONS, duration: SECONDS, headers: auth });
const jobs = () =>
  autocannon({
    url: `${base}/v1/calculation-jobs/suggested-renovation-trajectory-calculation`,
    method: 'POST',
    connections: 10,
    overallRate: JOBS_PER_SECOND,
    duration: SECONDS,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' }),
  });

try {
  console.log(`overload measurement: ${SECONDS} s per phase, embedded server with default context threads, shedding off`);
  print('idle', await sampled(new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))));
  let read: autocannon.Result | undefined;
  print(
    `${CONNECTIONS} connections on GET /users/me`,
    await sampled(reads().then((r) => (read = r))),
    read ? ` (${Math.round(read.requests.average)} req/s, p99 ${read.latency.p99} ms, non-2xx ${read.non2xx})` : '',
  );
  let both: [autocannon.Result, autocannon.Result] | undefined;
  print(
    `the same reads and ${JOBS_PER_SECOND} jobs/s`,
    await sampled(Promise.all([reads(), jobs()]).then((r) => (both = r))),
    both
      ? ` (reads ${Math.round(both[0].requests.average)} req/s p99 ${both[0].latency.p99} ms; jobs ${Math.round(both[1].requests.average)}/s p99 ${both[1].latency.p99} ms, non-2xx ${both[1].non2xx})`
      : '',
  );
} finally {
  server.send('stop');
}
