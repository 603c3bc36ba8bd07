import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCsvText } from '@renopath/calculations/portfolio-run/testing.ts';
import { startStack, type Stack } from './stack.ts';

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const dir = mkdtempSync(join(tmpdir(), 'portfolio-cli-'));
let stack: Stack;
let url: string;

beforeAll(async () => {
  stack = await startStack();
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(stack.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('renopath portfolio (the CLI)', () => {
  it('uploads a file, shows progress, writes one result line per home and prints the summary table', async () => {
    const input = join(dir, 'homes.csv');
    const output = join(dir, 'results.csv');
    writeFileSync(input, syntheticCsvText(25, 21, ';'));
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'services/gateway/src/cli.ts', 'portfolio', input, '--out', output],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', RENOPATH_URL: url, RENOPATH_TOKEN: await stack.token() } },
    );
    expect(stderr).toMatch(/25 \/ 25 rows/);
    expect(stderr).toContain('FINISHED');
    const lines = readFileSync(output, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(26);
    expect(lines[0]).toMatch(/^row_number,/);
    expect(stdout).toMatch(/FINISHED: 25 OK, 0 errors/);
    expect(stdout).toMatch(/total\s+25\s/);
  }, 120_000);
});
