import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const START_UP = fileURLToPath(new URL('./start-up.ts', import.meta.url));

/** Runs `body` in a node process of its own (what is tested changes the whole process), with a logger printing JSON lines. */
function run(body: string) {
  const code = `
    const { keepRunningOnUncaughtErrors } = await import(${JSON.stringify(START_UP)});
    const line = (level) => (fields, msg) => console.log(JSON.stringify({ level, msg, err: String(fields.err) }));
    const guard = keepRunningOnUncaughtErrors({ error: line('error'), fatal: line('fatal') });
    ${body}
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 25_000 });
  return { status: child.status, stderr: child.stderr, lines: child.stdout.trim().split('\n') };
}

describe('keepRunningOnUncaughtErrors', () => {
  it('once serving: logs a throw in a timer and a rejection nobody awaited, and the process carries on', { timeout: 30_000 }, () => {
    const { status, stderr, lines } = run(`
      guard.started();
      setTimeout(() => { throw new Error('boom in a timer'); }, 10);
      Promise.reject(new Error('nobody awaited this'));
      setTimeout(() => { console.log('still running'); }, 200);
    `);
    expect(status, stderr).toBe(0);
    expect(lines).toEqual([
      JSON.stringify({
        level: 'error',
        msg: 'unhandled rejection in a background task; the process carries on',
        err: 'Error: nobody awaited this',
      }),
      JSON.stringify({ level: 'error', msg: 'uncaught exception; the process carries on', err: 'Error: boom in a timer' }),
      'still running',
    ]);
  });

  it('while starting: a failed start is logged and the process exits 1, not left running with nothing served', { timeout: 30_000 }, () => {
    const { status, lines } = run(`
      setInterval(() => {}, 1000); // a connection that would keep it alive
      setTimeout(() => { console.log('still running'); }, 500);
      await Promise.reject(new Error('the event store refused the connection'));
    `);
    expect(status).toBe(1);
    expect(lines).toEqual([
      JSON.stringify({
        level: 'fatal',
        msg: 'uncaught exception while starting; exiting',
        err: 'Error: the event store refused the connection',
      }),
    ]);
  });
});
