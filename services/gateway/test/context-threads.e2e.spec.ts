import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { untilFinal } from './jobs.ts';

/**
 * Embedded mode with contexts in threads of their own (RENOPATH_CONTEXT_THREADS): the same service
 * whichever contexts run where, since they meet only on the bus.
 */
const REQUIRED = { year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE' };

/** A job through every context: the estate it made, the renovation it made and that renovation's overview read back. */
async function jobThroughEveryContext(stack: Stack) {
  const api = stack.as(await stack.token());
  const created = await api.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', REQUIRED);
  expect(created.statusCode, created.body).toBe(200);
  const job = await untilFinal(api, created.json().id);
  expect(job.calculation_job_status).toBe('FINISHED');
  const estate = await api.get(`/estates/${job.estate_id}`);
  expect(estate.statusCode, estate.body).toBe(200);
  expect(estate.json().address.zip_code).toBe('9000');
  const renovation = await api.get(`/renovations/${job.metadata.renovation_id}`);
  expect(renovation.statusCode, renovation.body).toBe(200);
  expect(renovation.json().estate_id).toBe(job.estate_id);
  const overview = await api.get(`/v1/renovations/${job.metadata.renovation_id}/overview`);
  expect(overview.statusCode, overview.body).toBe(200);
}

describe('contexts in threads (RENOPATH_CONTEXT_THREADS)', () => {
  it('runs a job end to end with estates, renovations, calculations and reporting each in its own thread', async () => {
    const stack = await startStack({ RENOPATH_CONTEXT_THREADS: 'all' }, { mode: 'embedded' });
    try {
      expect(stack.running!.threads.map((t) => t.context).sort()).toEqual(['calculations', 'estates', 'renovations', 'reporting']);
      // Their objects live in their threads, not here.
      expect(stack.running!.estates).toBeNull();
      expect(stack.running!.calculations).toBeNull();
      await jobThroughEveryContext(stack);
      // Each thread reports its event loop's figures, which the gateway's load shedding reads (docs/operations.md "Overload").
      for (const thread of stack.running!.threads) {
        const load = await thread.load(5000);
        expect(load, thread.context).not.toBeNull();
        expect(load!.delayMs).toBeGreaterThanOrEqual(0);
        expect(load!.utilization).toBeGreaterThanOrEqual(0);
        expect(load!.utilization).toBeLessThanOrEqual(1);
      }
    } finally {
      await stack.close();
    }
  });

  it('runs every context on the main thread with none', async () => {
    const stack = await startStack({ RENOPATH_CONTEXT_THREADS: 'none' }, { mode: 'embedded' });
    try {
      expect(stack.running!.threads).toEqual([]);
      expect(stack.running!.estates).not.toBeNull();
      await jobThroughEveryContext(stack);
    } finally {
      await stack.close();
    }
  });

  it('refuses a context that cannot run in a thread, naming it', async () => {
    await expect(startStack({ RENOPATH_CONTEXT_THREADS: 'estates,identity' }, { mode: 'embedded' })).rejects.toThrow(
      /^invalid configuration: RENOPATH_CONTEXT_THREADS: identity cannot run in a thread/,
    );
  });

  it('refuses a wrong setting of a context that would run in a thread before any thread starts', async () => {
    const started = startStack({ RENOPATH_CONTEXT_THREADS: 'all', RENOPATH_CALCULATION_WORKERS: 'many' }, { mode: 'embedded' });
    await expect(started).rejects.toThrow(/^invalid configuration: RENOPATH_CALCULATION_WORKERS: /);
  });

  it('fails the start with the reason of a context that cannot start in its thread', async () => {
    // Its folder in the data dir is a file: only the thread that opens the calculations stores finds out.
    const dataDir = mkdtempSync(join(tmpdir(), 'renopath-test-'));
    writeFileSync(join(dataDir, 'calculations'), 'not a folder');
    const started = startStack({ RENOPATH_CONTEXT_THREADS: 'all', RENOPATH_DATA_DIR: dataDir }, { mode: 'embedded' });
    await expect(started).rejects.toThrow(/calculations context did not start[\s\S]*calculations/);
  });
});
