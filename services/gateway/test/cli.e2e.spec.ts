import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startStack, type Stack } from './stack.ts';

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
let stack: Stack;
let url: string;

beforeAll(async () => {
  stack = await startStack();
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(stack.app.server.address() as { port: number }).port}`;
});
afterAll(async () => stack?.close());

const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', 'tsx', 'services/gateway/src/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', RENOPATH_URL: url, RENOPATH_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
  });

describe('renopath CLI (wraps the admin API)', () => {
  it('creates an organization, a client with scopes, and revokes it', async () => {
    const org = await cli(['org', 'create', '--name', 'Immo CLI', '--country', 'BE', '--owner-email', 'cli@immo.example', '--owner-first-name', 'Cli', '--owner-last-name', 'User']);
    const created = JSON.parse(org.stdout);
    expect(created.organization).toMatchObject({ organization_name: 'Immo CLI', country: 'BE' });
    const client = JSON.parse((await cli(['client', 'create', '--user', created.user.id, '--scopes', 'estates,audit'])).stdout);
    expect(client.scopes).toEqual(['estates', 'audit']);
    const token = await stack.token(client.client_id, client.client_secret);
    expect((await stack.as(token).get('/users/me')).statusCode).toBe(200);
    await cli(['client', 'revoke', client.client_id]);
    expect((await stack.as(token).get('/users/me')).statusCode).toBe(401);
  });

  it('fails with a non-zero exit code on an API error or a missing admin token', async () => {
    await expect(cli(['org', 'create', '--name', 'X', '--country', 'FR'])).rejects.toMatchObject({ code: 1 });
    await expect(cli(['client', 'revoke', 'abc'], { RENOPATH_ADMIN_TOKEN: '' })).rejects.toMatchObject({ code: 2 });
  });
});
