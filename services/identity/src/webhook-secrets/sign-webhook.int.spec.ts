import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus, DomainError, openSqliteEventStore, openSqliteReadStore } from '@renopath/platform';
import type { Mailer } from '@renopath/platform/ports/mailer.ts';
import { IdentitySubjects, type ServiceRequest } from '@renopath/contracts';
import { startIdentity } from '../identity.service.ts';
import { SigningKeys } from '../tokens/signing-keys.ts';
import { SecretBox } from './secret-box.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const mailer: Mailer = {
  send: async (m) => ({ ...m, id: randomUUID(), from: 'x@renopath.invalid', sent_at: new Date().toISOString() }),
  outbox: async () => [],
  close: async () => {},
};

async function identity() {
  const bus = createMemoryBus();
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const readStore = openSqliteReadStore({ file: ':memory:' });
  closers.push(
    () => eventStore.close(),
    () => readStore.close(),
    () => bus.close(),
  );
  const service = await startIdentity({
    bus,
    eventStore,
    readStore,
    mailer,
    log: pino({ level: 'silent' }),
    keys: await SigningKeys.open({ file: null, rotateAfterMs: 86_400_000, tokenTtlMs: 60_000, now: () => new Date() }),
    secrets: new SecretBox(randomBytes(32)),
    config: { issuer: 'renopath', audience: 'renopath', tokenTtlSeconds: 60, settleTimeoutMs: 5000, publicUrl: 'http://127.0.0.1' },
  });
  closers.push(() => service.close());
  const boot = await service.bootstrapIfEmpty({});
  return { bus, service, client_id: boot!.client_id };
}

const request = (body: unknown): ServiceRequest => ({ actor: null, correlation_id: randomUUID(), params: {}, query: {}, body });

describe('cmd.identity.sign-webhook', () => {
  it("signs with the client's webhook secret: the receiver verifies it, and the reply carries no secret", async () => {
    const { bus, service, client_id } = await identity();
    const secret = (await service.webhookSecret(client_id))!;
    const body = JSON.stringify({ type: 'calculation_job.finished', timestamp: new Date().toISOString(), data: { id: 'j' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const reply = await bus.request<{ signature: string }>(
      IdentitySubjects.signWebhook,
      request({ client_id, id: 'msg_1', timestamp, body }),
    );

    expect(Object.keys(reply)).toEqual(['signature']);
    expect(JSON.stringify(reply)).not.toContain(secret.replace(/^whsec_/, ''));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': reply.signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('answers 404 for an unknown client and 400 for a malformed request', async () => {
    const { bus } = await identity();
    const unknown = bus.request(IdentitySubjects.signWebhook, request({ client_id: randomUUID(), id: 'msg_1', timestamp: 1, body: '{}' }));
    await expect(unknown).rejects.toBeInstanceOf(DomainError);
    await expect(unknown).rejects.toMatchObject({ status: 404 });
    await expect(bus.request(IdentitySubjects.signWebhook, request({ client_id: 'c', id: 'msg_1' }))).rejects.toMatchObject({
      status: 400,
    });
  });
});
