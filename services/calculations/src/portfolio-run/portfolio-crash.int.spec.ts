import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openFsBlobStore, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import { findTsx } from '@renopath/platform/testing/tsx.ts';
import type { PortfolioRun, ServiceRequest } from '@renopath/contracts';
import { inlineComputer, startPortfolioRuns } from './index.ts';
import { PortfolioStore } from './store.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'portfolio-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runChild(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(findTsx(here), [join(here, 'crash-child.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', () => resolve({ stdout, stderr }));
  });
}

describe('a portfolio run under SIGKILL', () => {
  it('resumes where the killed process stopped: every row exactly once, only the uncommitted batches computed again', {
    timeout: 120_000,
  }, async () => {
    const files = [join(dir, 'events.db'), join(dir, 'reads.db'), join(dir, 'blobs')] as const;
    // 1,400 rows are 7 batches; the child dies (kill -9) right after its 3rd commit, with other batches in flight.
    const child = await runChild([...files, '1400', '3']);
    const run_id = /run (\S+)/.exec(child.stdout)?.[1];
    expect(run_id, child.stderr).toBeDefined();
    expect(child.stdout).not.toContain('done');

    const eventStore = openSqliteEventStore({ file: files[0] });
    const readStore = openSqliteReadStore({ file: files[1] });
    const committedByChild = (await new PortfolioStore(readStore).progress(run_id!)).length;
    expect(committedByChild).toBeGreaterThanOrEqual(3);
    expect(committedByChild).toBeLessThan(7);
    const blobs = await openFsBlobStore({ root: files[2] });
    const computed: number[] = [];
    const runs = await startPortfolioRuns({
      eventStore,
      readStore,
      blobs,
      log: pino({ level: 'silent' }),
      computer: inlineComputer(),
      settleTimeoutMs: 10_000,
      isWriter: async () => true,
      onBatch: (_run, batch) => computed.push(batch),
    });
    try {
      // startPortfolioRuns resumed it on start; kick joins that work.
      await runs.runner.kick(run_id!);
      const req = {
        actor: { user_id: '0b6f3f0e-2222-4a4a-9a9a-000000000002', organization_id: '0b6f3f0e-1111-4a4a-9a9a-000000000001', client_id: 'c' },
        correlation_id: 't',
        params: { portfolio_run_id: run_id },
        query: {},
      } as unknown as ServiceRequest;
      const run = (await runs.handlers.get(req)) as PortfolioRun;
      expect(run).toMatchObject({ status: 'FINISHED', total_rows: 1_400, processed_rows: 1_400 });
      // Only the batches the killed process had not committed were computed again, each once.
      expect(computed.length).toBe(7 - committedByChild);
      expect(new Set(computed).size).toBe(computed.length);
      const progress = await runs.store.progress(run_id!);
      expect(progress.map((p) => p.batch)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const rowNumbers: number[] = [];
      for (let batch = 0; batch < 7; batch++)
        rowNumbers.push(...((await runs.store.results(run_id!, batch)) ?? []).map((r) => r.row_number));
      expect(rowNumbers).toEqual(Array.from({ length: 1_400 }, (_, i) => i + 1));
      const finished = (await eventStore.readAll()).filter((e) => e.type === 'PortfolioRunFinished');
      expect(finished).toHaveLength(1);
    } finally {
      await runs.close();
      await eventStore.close();
      await readStore.close();
      await blobs.close();
    }
  });
});
