import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { PropertyDescription } from '@renopath/contracts';
import { planTrajectory } from './planner.ts';
import { PlanRefusedError, threadPlanner } from './planner-pool.ts';

const HOMES: PropertyDescription[] = [
  {
    year_built: 1960,
    estate_format: 'SEMI_OPEN',
    habitable_space_m2: 150,
    zip_code: '9000',
    country: 'BE',
    heating_type: 'GAS',
    heating_device: 'NON_CONDENSING_BOILER',
    window_glazing_type: 'SINGLE_GLAZING',
  },
  { year_built: 1932, estate_format: 'CLOSED', habitable_space_m2: 95, zip_code: '1050', country: 'BE' },
  { year_built: 1978, estate_format: 'OPEN', habitable_space_m2: 210, zip_code: '3731 AB', country: 'NL', roof_type: 'FLAT' },
];

describe('planner threads', () => {
  const planner = threadPlanner(2, pino({ level: 'silent' }));
  afterAll(() => planner.close());

  it('make the plan the calling thread makes, for several homes at once', async () => {
    const options = { year: 2026, sources: { year_built: 'INPUT' as const } };
    const plans = await Promise.all(HOMES.map((home) => planner.plan(home, options)));
    expect(plans).toEqual(HOMES.map((home) => planTrajectory(home, options)));
  });

  it('answer a home the model cannot describe with a refusal, not a planner fault, and go on planning', async () => {
    const broken = { ...HOMES[0]!, estate_format: 'NOT_A_FORMAT' } as unknown as PropertyDescription;
    await expect(planner.plan(broken, { year: 2026 })).rejects.toBeInstanceOf(PlanRefusedError);
    expect((await planner.plan(HOMES[1]!, { year: 2026 })).steps.length).toBeGreaterThan(0);
  });
});

describe('a planner thread that cannot start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-planner-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves the plans to the calling thread, the ones it held included, and says so once', async () => {
    const script = join(dir, 'broken.worker.mjs');
    writeFileSync(script, "throw new Error('no planner here');\n");
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const planner = threadPlanner(1, log, { script: pathToFileURL(script) });
    const options = { year: 2026 };
    const plans = await Promise.all([planner.plan(HOMES[0]!, options), planner.plan(HOMES[1]!, options)]);
    expect(plans).toEqual([planTrajectory(HOMES[0]!, options), planTrajectory(HOMES[1]!, options)]);
    expect(await planner.plan(HOMES[2]!, options)).toEqual(planTrajectory(HOMES[2]!, options));
    expect(lines.filter((l) => l.includes('could not start'))).toHaveLength(1);
    await planner.close();
  });
});

describe('a planner thread that dies with plans in hand', () => {
  const dir = mkdtempSync(join(tmpdir(), 'renopath-planner-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails those plans as a fault (not a refusal: the job is tried again) and plans the next one in a new thread', async () => {
    // A worker that plans like planner.worker.mjs, but exits on a home built in year 1.
    const script = join(dir, 'dying.worker.mjs');
    // tsx's ESM entry beside the CommonJS one `require.resolve` finds (the worker file lives outside the repo).
    const tsx = pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/index\.cjs$/, 'index.mjs'),
    ).href;
    const plannerModule = new URL('./planner.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        "import { parentPort } from 'node:worker_threads';",
        `const { tsImport } = await import(${JSON.stringify(tsx)});`,
        `const { planTrajectory } = await tsImport(${JSON.stringify(plannerModule)}, import.meta.url);`,
        "parentPort.on('message', ({ id, property, options }) => {",
        '  if (property.year_built === 1) process.exit(3);',
        '  parentPort.postMessage({ id, ok: true, plan: planTrajectory(property, options) });',
        '});',
        'parentPort.postMessage({ ready: true });',
      ].join('\n'),
    );
    const planner = threadPlanner(1, pino({ level: 'silent' }), { script: pathToFileURL(script) });
    const options = { year: 2026 };
    expect(await planner.plan(HOMES[0]!, options)).toEqual(planTrajectory(HOMES[0]!, options));
    const fault = await planner.plan({ ...HOMES[1]!, year_built: 1 }, options).then(
      () => null,
      (err: unknown) => err,
    );
    expect(fault).toBeInstanceOf(Error);
    expect(fault).not.toBeInstanceOf(PlanRefusedError);
    expect((fault as Error).message).toMatch(/exited with code 3/);
    expect(await planner.plan(HOMES[2]!, options)).toEqual(planTrajectory(HOMES[2]!, options));
    await planner.close();
  });
});
