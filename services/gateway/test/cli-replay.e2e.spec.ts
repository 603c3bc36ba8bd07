import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from './stack.ts';
import { created, houseWithParts, newRenovation } from './renovations.fixtures.ts';

/**
 * `renopath replay` and `renopath export` on the data dir of a stopped embedded stack: the
 * operator's check that the read models are what the event logs say, and their repair.
 */
const run = promisify(execFile);
/**
 * One CLI run: a tsx process that opens every context's stores and replays them, a second or two on a
 * quiet machine, half a minute with two busy processes beside it. A test makes up to four runs.
 */
const CLI_MS = 120_000;
vi.setConfig({ testTimeout: 4 * CLI_MS });
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
let dataDir: string;
let estateIds: string[];
let renovationId: string;

const cli = async (args: string[], env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'services/gateway/src/cli.ts', ...args], {
      cwd: ROOT,
      timeout: CLI_MS,
      env: { PATH: process.env['PATH'] ?? '', RENOPATH_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

async function untilFinal(api: ReturnType<Stack['as']>, id: string) {
  for (;;) {
    const job = (await api.get(`/v1/calculation-jobs/${id}`)).json();
    if (['FINISHED', 'FAILED', 'STOPPED'].includes(job.calculation_job_status)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Lets every context's own projection reach its log's head, so the stack stops with its read models up to date. */
async function settle(stack: Stack) {
  const { identity, estates, renovations, calculations, reporting } = stack.running;
  // Every context on the main thread (the stack below starts none in threads): their stores are here to ask.
  const contexts = [identity, estates!, renovations!, calculations!, reporting!];
  for (;;) {
    const heads = await Promise.all(contexts.map((c) => c.storage?.eventStore.headPosition() ?? 0n));
    await Promise.all(contexts.map((c, i) => c.service?.projection.waitFor(heads[i]!, 10_000)));
    await new Promise((r) => setTimeout(r, 100));
    const again = await Promise.all(contexts.map((c) => c.storage?.eventStore.headPosition() ?? 0n));
    if (again.every((head, i) => head === heads[i])) return;
  }
}

beforeAll(async () => {
  const stack = await startStack({ RENOPATH_CONTEXT_THREADS: 'none' });
  dataDir = stack.dataDir;
  const api = stack.as(await stack.token());
  const world = await houseWithParts(api);
  const second = await created(
    await api.post('/estates', {
      address: { street: 'Meir', house_number: '1', zip_code: '2000', place: 'Antwerpen', country: 'BE' },
      year_built: 1930,
      estate_type: 'APARTMENT',
    }),
  );
  expect((await api.patch(`/estates/${second.id}`, { year_built: 1931 })).statusCode).toBe(200);
  estateIds = [world.estate_id, second.id];
  renovationId = await newRenovation(api, world.estate_id);
  await created(await api.post(`/renovations/${renovationId}/items`, { renovation_component_type: 'HEAT_PUMP_AIR_WATER', count: 1 }));
  await created(
    await api.post(`/renovations/${renovationId}/roofs/${world.roof_id}/items`, {
      renovation_component_type: 'ROOF_COVERING_TILES',
      count: 2,
    }),
  );
  const job = await created(
    await api.post('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', {
      year_built: 1960,
      estate_format: 'SEMI_OPEN',
      habitable_space_m2: 150,
      zip_code: '9000',
      country: 'BE',
    }),
    200,
  );
  expect((await untilFinal(api, job.id)).calculation_job_status).toBe('FINISHED');
  await settle(stack);
  await stack.running.close();
}, 60_000);
afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('renopath replay', () => {
  it('finds every projection equal to its rebuild and names the collections other contexts feed', async () => {
    const { code, stdout, stderr } = await cli(['replay']);
    expect(code, stdout + stderr).toBe(0);
    for (const projection of [
      'identity/identity-directory',
      'estates/estate-views',
      'renovations/renovation-views',
      'calculations/calculation-job-views',
      'calculations/calculation-indication-views',
      'reporting/report-views',
    ]) {
      expect(stdout).toMatch(new RegExp(`^${projection}: equal \\(\\d+ documents, \\d+ events\\)$`, 'm'));
    }
    expect(stdout).toMatch(/^estates\/estate-views: equal \([1-9]\d* documents/m);
    expect(stdout).toContain('renovations/renovations_estates: fed by events from estates, not rebuilt here');
    expect(stdout).toContain('calculations/calculations_roles: fed by events from identity, not rebuilt here');
    // The progress bar: events done of the head, and a rate.
    expect(stderr).toMatch(/estates\/estate-views \[#+\] (\d+)\/\1 events {2}\d+ ev\/s/);
  });

  it('reports a corrupted document (exit 1), repairs it with --apply, and then finds it equal', async () => {
    const estates = new Database(join(dataDir, 'estates', 'read.db'));
    estates
      .prepare(`UPDATE documents SET doc = json_set(doc, '$.revision', 99) WHERE collection = 'estates_detail' AND id = ?`)
      .run(estateIds[1]);
    estates.close();
    const renovations = new Database(join(dataDir, 'renovations', 'read.db'));
    const removed = renovations.prepare(`DELETE FROM documents WHERE collection = 'renovations_views' AND id = ?`).run(renovationId);
    renovations.close();
    expect(removed.changes).toBe(1);

    const found = await cli(['replay']);
    expect(found.code, found.stdout + found.stderr).toBe(1);
    expect(found.stdout).toMatch(/^estates\/estate-views: 1 of \d+ documents differ$/m);
    expect(found.stdout).toMatch(new RegExp(`^  estates_detail/${estateIds[1]}: revision: live 99, rebuilt 1$`, 'm'));
    expect(found.stdout).toContain(`  renovations_views/${renovationId}: only in rebuild`);
    expect(found.stdout).toMatch(/^identity\/identity-directory: equal/m);

    const onlyEstates = await cli(['replay', '--context', 'estates']);
    expect(onlyEstates.code).toBe(1);
    expect(onlyEstates.stdout).not.toContain('renovations');

    const applied = await cli(['replay', '--apply']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('estates/estate-views: live read model rebuilt from the log');
    expect(applied.stdout).toContain('renovations/renovation-views: live read model rebuilt from the log');

    const after = await cli(['replay']);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toMatch(/^estates\/estate-views: equal/m);
    expect(after.stdout).toMatch(/^renovations\/renovation-views: equal/m);
  });

  it('refuses an unknown context and a data dir without stores (exit 2)', async () => {
    const unknown = await cli(['replay', '--context', 'billing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown context "billing"');
    const empty = mkdtempSync(join(tmpdir(), 'renopath-empty-'));
    try {
      const nothing = await cli(['replay'], { RENOPATH_DATA_DIR: empty });
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain('no event store found');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('renopath export', () => {
  it("prints an estate stream's events in order as JSON lines", async () => {
    const { code, stdout } = await cli(['export', '--stream', `estate-${estateIds[1]}`]);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['EstateCreated', 'EstateUpdated']);
    expect(events.map((e) => e.revision)).toEqual([0, 1]);
    expect(events[1].position).toBeGreaterThan(events[0].position);
    expect(events[0]).toMatchObject({
      occurred_at: expect.any(String),
      correlation_id: expect.any(String),
      actor: { user_id: expect.any(String) },
    });
    expect(events[1].data).toMatchObject({ estate_id: estateIds[1] });
    expect(Object.keys(events[0])).toEqual(
      expect.arrayContaining(['position', 'revision', 'type', 'occurred_at', 'actor', 'correlation_id', 'data']),
    );

    const explicit = await cli(['export', '--stream', `renovation-${renovationId}`, '--context', 'renovations']);
    expect(explicit.code).toBe(0);
    expect(JSON.parse(explicit.stdout.split('\n')[0]!).type).toBe('RenovationCreated');
  });

  it('exits 2 with a clear message for a stream no context has', async () => {
    const prefix = await cli(['export', '--stream', 'invoice-42']);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toContain('unknown stream "invoice-42"');
    const missing = await cli(['export', '--stream', 'estate-00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the estates event store has no such stream');
  });
});
