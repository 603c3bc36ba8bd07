// A context in a worker thread (context-thread.ts, started by embedded.ts). Plain JavaScript that
// loads the context as importSource says (compiled in the image, through tsx in a checkout), as the
// planner's thread does.
import { parentPort, workerData } from 'node:worker_threads';
import { importSource } from '@renopath/platform/internal/import-source.mjs';

const { runContextThread } = await importSource('./context-thread.ts', import.meta.url);
await runContextThread(workerData, parentPort);
