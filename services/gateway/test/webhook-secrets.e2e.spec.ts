import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@renopath/platform';
import { startStack, type Stack } from './stack.ts';

/** Hole 6: webhook secrets are encrypted at rest; neither an event nor the bus ever carries one in clear. */
let stack: Stack;
const published: EventEnvelope[] = [];

beforeAll(async () => {
  stack = await startStack();
  await stack.running.bus.consume(
    'test-webhook-secret-watch',
    { subjects: ['evt.identity.ApiClientIssued', 'evt.identity.ApiClientWebhookSecretRotated'] },
    async (event) => {
      published.push(event);
    },
  );
});
afterAll(async () => stack?.close());

const everything = async () => {
  const stored = JSON.stringify(await stack.running.identity.storage.eventStore.readAll(), (_k, v) =>
    typeof v === 'bigint' ? String(v) : v,
  );
  return `${stored}\n${JSON.stringify(published)}`;
};

describe('webhook secrets at rest and on the bus', () => {
  it('are shown once in the admin answers and are never in an event or a bus message in clear', async () => {
    const created = await stack.admin('POST', '/admin/organizations', {
      name: 'Hooked',
      country: 'BE',
      owner: { email_address: 'hook@agency.example', first_name: 'Ho', last_name: 'Ok' },
    });
    expect(created.statusCode).toBe(201);
    const { webhook_secret, client_id, user } = created.json();
    expect(webhook_secret).toMatch(/^whsec_/);
    const second = await stack.admin('POST', '/admin/api-clients', { user_id: user.id });
    expect(second.json().webhook_secret).toMatch(/^whsec_/);
    await expect.poll(() => published.filter((e) => e.data['client_id'] === client_id).length).toBe(1);

    const all = await everything();
    for (const secret of [webhook_secret, second.json().webhook_secret]) expect(all).not.toContain(secret);
    const issued = published.find((e) => e.data['client_id'] === client_id)!;
    expect(issued.data['webhook_secret']).toBeUndefined();
    expect(String(issued.data['webhook_secret_encrypted'])).toMatch(/^v1\./);
    // The service can still read it to sign webhooks.
    expect(await stack.running.identity.service.webhookSecret(client_id)).toBe(webhook_secret);
  });

  it('rotates: a new secret, shown once; the old one no longer signs; an unknown or revoked client is 404', async () => {
    const created = (await stack.admin('POST', '/admin/api-clients', { user_id: stack.bootstrap.user_id })).json();
    const rotated = await stack.admin('POST', `/admin/api-clients/${created.client_id}/webhook-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ client_id: created.client_id, webhook_secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.json().webhook_secret).not.toBe(created.webhook_secret);
    expect(await stack.running.identity.service.webhookSecret(created.client_id)).toBe(rotated.json().webhook_secret);
    await expect
      .poll(() => published.some((e) => e.type === 'ApiClientWebhookSecretRotated' && e.data['client_id'] === created.client_id))
      .toBe(true);
    expect(await everything()).not.toContain(rotated.json().webhook_secret);

    expect((await stack.admin('POST', '/admin/api-clients/00000000-0000-4000-8000-000000000000/webhook-secret')).statusCode).toBe(404);
    expect((await stack.admin('POST', '/admin/api-clients/not-a-uuid/webhook-secret')).statusCode).toBe(404);
    await stack.admin('DELETE', `/admin/api-clients/${created.client_id}`);
    expect((await stack.admin('POST', `/admin/api-clients/${created.client_id}/webhook-secret`)).statusCode).toBe(404);
    const unauthorized = await stack.app.inject({
      method: 'POST',
      url: `/admin/api-clients/${created.client_id}/webhook-secret`,
      headers: { authorization: 'Bearer nope' },
    });
    expect(unauthorized.statusCode).toBe(401);
  });

  it('are sealed under a key generated once into the identity data dir, or under the configured RENOPATH_SECRETS_KEY', async () => {
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(existsSync(join(stack.dataDir, 'identity', 'secrets.key'))).toBe(true);
    const keyed = await startStack({ RENOPATH_SECRETS_KEY: 'ab'.repeat(32) });
    try {
      expect(existsSync(join(keyed.dataDir, 'identity', 'secrets.key'))).toBe(false);
      const created = (await keyed.admin('POST', '/admin/api-clients', { user_id: keyed.bootstrap.user_id })).json();
      expect(await keyed.running.identity.service.webhookSecret(created.client_id)).toBe(created.webhook_secret);
    } finally {
      await keyed.close();
    }
    await expect(startStack({ RENOPATH_SECRETS_KEY: 'too-short' })).rejects.toThrow(/RENOPATH_SECRETS_KEY must be 32 bytes/);
  });
});
