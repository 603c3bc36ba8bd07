import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const START_UP = fileURLToPath(new URL('./start-up.ts', import.meta.url));

describe('keepRunningOnUncaughtErrors', () => {
  // In a process of its own: what it changes is the whole process's behaviour.
  it('logs a throw in a timer and a rejection nobody awaited, and the process carries on', { timeout: 30_000 }, () => {
    const code = `
      const { keepRunningOnUncaughtErrors } = await import(${JSON.stringify(START_UP)});
      keepRunningOnUncaughtErrors({ error: (fields, msg) => console.log(JSON.stringify({ msg, err: String(fields.err) })) });
      setTimeout(() => { throw new Error('boom in a timer'); }, 10);
      Promise.reject(new Error('nobody awaited this'));
      setTimeout(() => { console.log('still running'); }, 200);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 25_000 });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toEqual([
      JSON.stringify({ msg: 'unhandled rejection in a background task; the process carries on', err: 'Error: nobody awaited this' }),
      JSON.stringify({ msg: 'uncaught exception; the process carries on', err: 'Error: boom in a timer' }),
      'still running',
    ]);
  });
});
