// The planner in its own thread (planner-pool.ts): the one CPU-heavy step of a job, off the thread
// that serves requests and runs every context's projections in embedded mode. Plain JavaScript that
// loads the planner as importSource says (compiled in the image, through tsx in a checkout).
import { parentPort } from 'node:worker_threads';
import { importSource } from '@renopath/platform/internal/import-source.mjs';

const { planTrajectory } = await importSource('./planner.ts', import.meta.url);
parentPort.on('message', ({ id, property, options }) => {
  try {
    parentPort.postMessage({ id, ok: true, plan: planTrajectory(property, options) });
  } catch (err) {
    // A refusal of the model (a home it cannot describe), an answer about the job: sent back as such.
    parentPort.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ ready: true });
