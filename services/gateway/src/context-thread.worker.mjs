// A context in a worker thread (context-thread.ts, started by embedded.ts). Plain JavaScript that
// loads the TypeScript through tsx's scoped import, as the planner's thread does: a thread does not
// reliably get the process's loader (a test runner's worker has none).
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { runContextThread } = await tsImport('./context-thread.ts', import.meta.url);
await runContextThread(workerData, parentPort);
