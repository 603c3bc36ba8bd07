import type { ChildProcess } from 'node:child_process';
import { startBenchServer } from './server.ts';

/**
 * Calculation jobs, embedded: submissions at a steady rate (default 100 jobs/s for 10 s) through
 * HTTP, each a varied home; latency is the job's own submission-to-FINISHED time (`published_at`
 * minus `created_at`, both stamped by the service), read back once all are done. Target p99 < 100 ms.
 * Also the server's CPU time per job (the figure that holds on a shared machine, where wall-clock
 * latency depends on the neighbours), the active time of its main event loop per job (the part that
 * saturates first: 10 ms per job is a full loop at 100 jobs/s) and the rate it sustained: jobs finished per second from the
 * first submission to the last FINISHED. `BENCH_JOBS_SYNCHRONOUS=FULL` (or NORMAL) runs one level only.
 */
const RATE = Number(process.env['BENCH_JOBS_PER_SECOND'] ?? 100);
const SECONDS = Number(process.env['BENCH_JOBS_SECONDS'] ?? 10);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

const FORMATS = ['OPEN', 'SEMI_OPEN', 'CLOSED'] as const;
const ZIPS = ['9000', '2000', '3000', '8000', '1000', '4000', '5000', '1012 AB'];
function home(i: number): Record<string, unknown> {
  const zip = ZIPS[i % ZIPS.length]!;
  return {
    year_built: 1900 + ((i * 7) % 120),
    estate_format: FORMATS[i % 3],
    habitable_space_m2: 80 + ((i * 13) % 180),
    zip_code: zip,
    country: zip.includes(' ') ? 'NL' : 'BE',
    ...(i % 2 === 0 ? { window_glazing_type: 'DOUBLE_GLAZING', heating_type: 'GAS', heating_device: 'CONDENSING_BOILER' } : {}),
    ...(i % 3 === 0 ? { roof_type: 'INCLINED', inclined_roof_insulation_type: 'NONE', outer_wall_insulation_type: 'NONE' } : {}),
  };
}

/** The server's CPU time since the previous mark, in microseconds (gateway-server.ts answers `mark`). */
const cpuMark = (server: ChildProcess) =>
  new Promise<{ cpuMicros: number; loopActiveMs: number }>((resolve) => {
    server.once('message', (m) => resolve(m as { cpuMicros: number; loopActiveMs: number }));
    server.send('mark');
  });

/** Both SQLite durability levels, in one run: FULL (the default; an fsync per commit) and NORMAL. */
export async function benchJobs() {
  const only = process.env['BENCH_JOBS_SYNCHRONOUS'];
  const levels = (['FULL', 'NORMAL'] as const).filter((level) => !only || only === level);
  if (levels.length === 0) throw new Error(`BENCH_JOBS_SYNCHRONOUS=${only}: expected FULL or NORMAL`);
  for (const synchronous of levels) await benchJobsWith(synchronous);
}

async function benchJobsWith(synchronous: 'FULL' | 'NORMAL') {
  const { server, ready } = await startBenchServer({ RENOPATH_SQLITE_SYNCHRONOUS: synchronous });
  try {
    const base = `http://127.0.0.1:${ready.gatewayPort}`;
    const res = await fetch(`${base}/v1/oauth/token`, { method: 'POST', headers: { 'x-service-client-id': ready.client_id, 'x-service-client-secret': ready.client_secret } });
    const { access_token } = (await res.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const submit = async (i: number) => {
      const r = await fetch(`${base}/v1/calculation-jobs/suggested-renovation-trajectory-calculation`, { method: 'POST', headers, body: JSON.stringify(home(i)) });
      if (r.status !== 200) throw new Error(`job ${i}: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { id: string }).id;
    };
    // Warm-up: the first jobs load the model's data and compile the code paths.
    for (let i = 0; i < 20; i++) await submit(i);
    const total = RATE * SECONDS;
    const ids: Promise<string>[] = [];
    const answered: number[] = [];
    const sentAt = new Map<string, number>();
    await cpuMark(server);
    const firstSent = Date.now();
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sent = performance.now();
      const wall = Date.now();
      ids.push(submit(1000 + i).then((id) => (answered.push(performance.now() - sent), sentAt.set(id, wall), id)));
    }
    const all = await Promise.all(ids);
    const submitSeconds = (performance.now() - started) / 1000;
    const latencies: number[] = [];
    const endToEnd: number[] = [];
    const statuses: Record<string, number> = {};
    let lastFinished = firstSent;
    const deadline = Date.now() + 120_000;
    for (const id of all) {
      for (;;) {
        const job = (await (await fetch(`${base}/v1/calculation-jobs/${id}`, { headers })).json()) as { calculation_job_status: string; created_at: string; published_at: string | null };
        if (['FINISHED', 'FAILED', 'STOPPED'].includes(job.calculation_job_status)) {
          statuses[job.calculation_job_status] = (statuses[job.calculation_job_status] ?? 0) + 1;
          if (job.published_at) {
            latencies.push(Date.parse(job.published_at) - Date.parse(job.created_at));
            endToEnd.push(Date.parse(job.published_at) - sentAt.get(id)!);
            lastFinished = Math.max(lastFinished, Date.parse(job.published_at));
          }
          break;
        }
        if (Date.now() > deadline) throw new Error(`job ${id} did not finish`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Includes the status reads above (about one per job once the jobs keep up: a small share).
    const { cpuMicros, loopActiveMs } = await cpuMark(server);
    console.log(`calculation jobs benchmark, SQLite synchronous=${synchronous}: ${total} jobs sent at ${RATE}/s, all answered after ${submitSeconds.toFixed(1)} s (embedded), ${JSON.stringify(statuses)}`);
    const finished = statuses['FINISHED'] ?? 0;
    console.log(`  server CPU per job ${(cpuMicros / 1000 / total).toFixed(1).padStart(6)} ms (all threads), of which the main thread's event loop ${(loopActiveMs / total).toFixed(1)} ms`);
    console.log(`  sustained ${(finished / ((lastFinished - firstSent) / 1000)).toFixed(1)} jobs/s finished (first sent to last FINISHED; ${RATE}/s offered)`);
    console.log(`  POST job answered (client)           p50 ${quantile(answered, 0.5).toFixed(0).padStart(6)} ms   p99 ${quantile(answered, 0.99).toFixed(0).padStart(6)} ms`);
    console.log(`  sent-to-FINISHED (client clock)      p50 ${quantile(endToEnd, 0.5).toFixed(0).padStart(6)} ms   p99 ${quantile(endToEnd, 0.99).toFixed(0).padStart(6)} ms   (target p99 < 100 ms)`);
    console.log(`  created-to-FINISHED (server)         p50 ${quantile(latencies, 0.5).toFixed(0).padStart(6)} ms   p99 ${quantile(latencies, 0.99).toFixed(0).padStart(6)} ms   max ${Math.max(...latencies).toFixed(0)} ms   (the job's own timestamps)`);
  } finally {
    server.send('stop');
  }
}
