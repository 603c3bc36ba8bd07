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
    const org = await cli([
      'org',
      'create',
      '--name',
      'Immo CLI',
      '--country',
      'BE',
      '--owner-email',
      'cli@immo.example',
      '--owner-first-name',
      'Cli',
      '--owner-last-name',
      'User',
    ]);
    const created = JSON.parse(org.stdout);
    expect(created.organization).toMatchObject({ organization_name: 'Immo CLI', country: 'BE' });
    const client = JSON.parse((await cli(['client', 'create', '--user', created.user.id, '--scopes', 'estates,audit'])).stdout);
    expect(client.scopes).toEqual(['estates', 'audit']);
    const token = await stack.token(client.client_id, client.client_secret);
    expect((await stack.as(token).get('/users/me')).statusCode).toBe(200);
    await cli(['client', 'revoke', client.client_id]);
    expect((await stack.as(token).get('/users/me')).statusCode).toBe(401);
  });

  it('shows the outbox (invitations waiting for the operator to pass on) and rotates a webhook secret', async () => {
    const org = JSON.parse(
      (
        await cli([
          'org',
          'create',
          '--name',
          'Immo Mail',
          '--country',
          'BE',
          '--owner-email',
          'mail@immo.example',
          '--owner-first-name',
          'Ma',
          '--owner-last-name',
          'Il',
        ])
      ).stdout,
    );
    const token = await stack.token(org.client_id, org.client_secret);
    await stack.as(token).post(`/organizations/${org.organization.id}/members`, {
      email_address: 'invitee@immo.example',
      first_name: 'In',
      last_name: 'Vitee',
      member_type: 'EMPLOYEE',
    });
    const listed = JSON.parse((await cli(['outbox', '--to', 'invitee@immo.example'])).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ to: 'invitee@immo.example', subject: 'Immo Mail invited you to Renopath' });
    expect(listed[0].text).toMatch(/POST .*\/v1\/invitations\/accept/);
    expect(JSON.parse((await cli(['outbox', '--limit', '1'])).stdout)).toHaveLength(1);

    const rotated = JSON.parse((await cli(['client', 'rotate-webhook-secret', org.client_id])).stdout);
    expect(rotated).toEqual({ client_id: org.client_id, webhook_secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.webhook_secret).not.toBe(org.webhook_secret);
    await expect(cli(['client', 'rotate-webhook-secret', '00000000-0000-4000-8000-000000000000'])).rejects.toMatchObject({ code: 1 });
  });

  it('fails with a non-zero exit code on an API error or a missing admin token', async () => {
    await expect(cli(['org', 'create', '--name', 'X', '--country', 'FR'])).rejects.toMatchObject({ code: 1 });
    await expect(cli(['client', 'revoke', 'abc'], { RENOPATH_ADMIN_TOKEN: '' })).rejects.toMatchObject({ code: 2 });
  });
});
