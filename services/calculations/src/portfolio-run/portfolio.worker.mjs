// A portfolio thread (pool.ts): computes whole batches of rows with the pure model and planner and
// sends back only the compact result rows. Plain JavaScript that loads the TypeScript as importSource says.
import { parentPort } from 'node:worker_threads';
import { importSource } from '@renopath/platform/internal/import-source.mjs';

const { computeBatch } = await importSource('./compute.ts', import.meta.url);
parentPort.on('message', ({ id, rows, year }) => {
  try {
    const started = process.cpuUsage();
    const results = computeBatch(rows, year);
    const cpu = process.cpuUsage(started);
    parentPort.postMessage({ id, ok: true, rows: results, cpu_us: cpu.user + cpu.system });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ ready: true });
