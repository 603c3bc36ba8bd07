// The planner in its own thread (planner-pool.ts): the one CPU-heavy step of a job, off the thread
// that serves requests and runs every context's projections in embedded mode. Plain JavaScript that
// loads the planner's TypeScript through tsx's scoped import: a thread does not reliably get the
// process's loader (the tsx command's does not; a test runner's worker has none), and a scoped
// import neither depends on it nor compiles anything twice where it is there.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { planTrajectory } = await tsImport('./planner.ts', import.meta.url);
parentPort.on('message', ({ id, property, options }) => {
  try {
    parentPort.postMessage({ id, ok: true, plan: planTrajectory(property, options) });
  } catch (err) {
    // A refusal of the model (a home it cannot describe), an answer about the job: sent back as such.
    parentPort.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ ready: true });
