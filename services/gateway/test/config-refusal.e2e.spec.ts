import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findTsx } from '@renopath/platform/testing/tsx.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** `npm start` as an operator runs it, with one wrong variable: what it prints and how it ends. */
function npmStart(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'renopath-config-'));
  const child = spawn(findTsx(here), [join(here, '..', 'src', 'start-embedded.ts')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RENOPATH_DATA_DIR: dataDir, PORT: '0', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr, dataDir })));
}

describe('npm start with a wrong setting', () => {
  it.each([
    [{ PORT: 'abc' }, 'renopath: invalid configuration: PORT: expected a port number from 0 to 65535'],
    [
      { RENOPATH_WEBHOOK_RETRY_SCHEDULE: 'soon' },
      'renopath: invalid configuration: RENOPATH_WEBHOOK_RETRY_SCHEDULE: RENOPATH_WEBHOOK_RETRY_SCHEDULE "soon" is not valid: "soon" is not a delay (expected comma-separated delays such as 0,5s,5m,30m,2h,5h,10h; units ms, s, m, h)',
    ],
    [
      { RENOPATH_BUS: 'nats://127.0.0.1:4222' },
      'renopath: invalid configuration: RENOPATH_BUS=nats://127.0.0.1:4222 is for one process per service (npm run start:<service>); npm start runs every context in one process over an in-process bus, so unset it',
    ],
  ])('%o: exits 1 with one line naming the variable, and creates nothing', async (env, line) => {
    const run = await npmStart(env);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `${line}\n` });
    expect(readdirSync(run.dataDir)).toEqual([]);
  });
});
