import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { startEmbedded } from '../../services/gateway/src/embedded.ts';
import { threadCpuMs } from '../../services/gateway/src/context-thread.ts';

/**
 * The servers under benchmark, in their own process so the load generator does not share its
 * event loop: the embedded gateway and a bare Fastify route, side by side.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'renopath-bench-'));
const running = await startEmbedded({
  // The operator's settings (e.g. RENOPATH_CALCULATION_WORKERS, RENOPATH_PLANNER_THREADS) apply; the data dir is the bench's own.
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('RENOPATH_'))),
  RENOPATH_DATA_DIR: dataDir,
  RENOPATH_RATE_LIMIT_PER_SECOND: '0',
  LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'warn',
});
await running.gateway.app.listen({ port: 0, host: '127.0.0.1' });
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
await bare.listen({ port: 0, host: '127.0.0.1' });

// BENCH_CPU_PROFILE=<file>: a V8 CPU profile of this process from here to 'stop' (open it in Chrome's
// DevTools), to see where a route's server time goes.
const profileFile = process.env['BENCH_CPU_PROFILE'];
const profiler = profileFile ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
// BENCH_HEAP_PROFILE=<file>: a sampling heap profile (DevTools' Memory tab) of this thread's
// allocations that outlive the young generation: what the GC copies and then marks, which is where
// its cost lies, not where most bytes are allocated. Its stacks end at the outermost function of an
// optimized frame (inlined callees are not shown): '--no-turbo-inlining' in server.ts's execArgv
// names them, at some cost in speed.
const heapFile = process.env['BENCH_HEAP_PROFILE'];
const heapProfiler = heapFile ? new Session() : null;
if (heapProfiler) {
  heapProfiler.connect();
  await heapProfiler.post('HeapProfiler.enable');
  // The two include flags are V8's (Node 20 has them) but not yet in @types/node's parameter type.
  const sampling = { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false };
  await heapProfiler.post('HeapProfiler.startSampling', sampling);
}

const address = (app: { server: { address(): unknown } }) => (app.server.address() as { port: number }).port;
process.send?.({
  gatewayPort: address(running.gateway.app),
  barePort: address(bare),
  client_id: running.bootstrap?.client_id,
  client_secret: running.bootstrap?.client_secret,
});
let mark = process.cpuUsage();
// Each event loop's share: a loop busy all the time is what bounds the embedded server (process CPU
// also counts the planner and checkpoint threads and the fsyncs on the thread pool). The main thread
// runs the gateway, identity, the bus and the contexts RENOPATH_CONTEXT_THREADS leaves there; the others
// (by default estates and calculations) each run in a thread of their own.
let loopMark = performance.eventLoopUtilization();
let mainCpuMark = threadCpuMs();
await Promise.all(running.threads.map((t) => t.loopActiveSinceMark()));
process.on('message', async (msg) => {
  // The load generator asks for the server's CPU time spent since its last mark.
  if (msg === 'mark') {
    const used = process.cpuUsage(mark);
    mark = process.cpuUsage();
    const loop = performance.eventLoopUtilization(loopMark);
    loopMark = performance.eventLoopUtilization();
    const mainCpu = threadCpuMs();
    const mainCpuMs = mainCpu === null || mainCpuMark === null ? null : mainCpu - mainCpuMark;
    mainCpuMark = mainCpu;
    const threads = await Promise.all(running.threads.map(async (t) => [t.context, await t.loopActiveSinceMark()] as const));
    process.send?.({
      cpuMicros: used.user + used.system,
      loops: { main: { loopActiveMs: loop.active, cpuMs: mainCpuMs }, ...Object.fromEntries(threads) },
    });
  }
  // The overload measurement (overload.ts) asks for each event loop's figures over the last sample:
  // under-pressure's for the main thread, each context thread's own.
  if (msg === 'loops') {
    const main = running.gateway.app.memoryUsage();
    const threads = await Promise.all(running.threads.map(async (t) => [t.context, await t.load(5000)] as const));
    process.send?.({
      loops: { main: { delayMs: main.eventLoopDelay, utilization: main.eventLoopUtilized }, ...Object.fromEntries(threads) },
      heapUsed: main.heapUsed,
    });
  }
  if (msg === 'stop') {
    if (heapProfiler && heapFile) {
      const { profile } = await heapProfiler.post('HeapProfiler.stopSampling');
      writeFileSync(heapFile, JSON.stringify(profile));
    }
    if (profiler && profileFile) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    await bare.close();
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
