import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Portfolio runs, embedded (`npm run bench -- portfolio`): one run of 10,000 and one of 100,000
 * synthetic homes (BENCH_PORTFOLIO_ROWS), each in a process of its own (portfolio-child.ts) so its
 * peak resident memory is the run's. Prints homes a second from upload to FINISHED, the process's
 * CPU per home (every thread: reading, checking, planning, writing) beside the planner's own CPU per
 * plan measured in the same process on the same homes, and the peak RSS. Targets: at least 150 homes
 * a second, CPU per home at most 2x the plan alone, peak RSS under 1 GB. On a shared machine the rate
 * is what the cores left to it allowed; the CPU ratio is the steadier figure.
 */
const SIZES = (process.env['BENCH_PORTFOLIO_ROWS'] ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const THREADS = Number(process.env['BENCH_PORTFOLIO_THREADS'] ?? 2);

interface Figures {
  rows: number;
  status: string;
  processed: number;
  failed: number;
  seconds: number;
  homesPerSecond: number;
  serviceCpuMsPerHome: number;
  planAloneCpuMsPerPlan: number;
  planAloneColdCpuMsPerPlan: number;
  planAloneWarmCpuMsPerPlan: number;
  peakRssMb: number;
}

function runChild(rows: number): Promise<Figures> {
  const child = fileURLToPath(new URL('./portfolio-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, String(rows), String(THREADS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.once('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as Figures);
      } catch {
        reject(new Error(`portfolio bench child exited with ${code}: ${out}`));
      }
    });
  });
}

export async function benchPortfolio() {
  console.log(`portfolio benchmark: embedded (SQLite, in-process bus), ${THREADS} portfolio threads, one process per run`);
  for (const rows of SIZES) {
    const f = await runChild(rows);
    const ratio = f.serviceCpuMsPerHome / f.planAloneCpuMsPerPlan;
    console.log(
      `  ${String(rows).padStart(7)} homes: ${f.status} (${f.processed} rows, ${f.failed} errors) in ${f.seconds.toFixed(1)} s, ` +
        `${f.homesPerSecond.toFixed(0)} homes/s (target >= 150: ${f.homesPerSecond >= 150 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `           CPU per home ${f.serviceCpuMsPerHome.toFixed(2)} ms (every thread), plan alone ${f.planAloneCpuMsPerPlan.toFixed(2)} ms ` +
        `(before the run ${f.planAloneColdCpuMsPerPlan.toFixed(2)}, after ${f.planAloneWarmCpuMsPerPlan.toFixed(2)}): ` +
        `${ratio.toFixed(2)}x (target <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}); peak RSS ${f.peakRssMb.toFixed(0)} MB ` +
        `(target < 1024: ${f.peakRssMb < 1024 ? 'met' : 'NOT met'})`,
    );
    // What the two cores could give were they this run's alone: the rate above is what a shared machine left it.
    console.log(
      `           CPU-bound capacity on ${cpus().length} cores: ${((cpus().length * 1000) / f.serviceCpuMsPerHome).toFixed(0)} homes/s`,
    );
  }
}
