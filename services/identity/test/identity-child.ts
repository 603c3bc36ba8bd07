/**
 * Child process of the workflow crash tests: the identity context alone on its data dir (memory
 * bus). With CRASH_AFTER=<event type>, it SIGKILLs itself right after the append that stores such
 * an event: the hook lives here, in the test, not in the service. It bootstraps, then (INVITE=1)
 * invites a person under a fixed idempotency key, and prints one JSON line describing the outcome.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULT_SCOPES, IdentitySubjects, type Actor, type ServiceRequest } from '@renopath/contracts';
import type { EventStore, RecordedEvent } from '@renopath/platform';
import { createLogger, openBus, openContextStorage } from '@renopath/platform/service/adapters.ts';
import { loadIdentityConfig } from '../src/config.ts';
import { C, type ApiClientDoc } from '../src/directory/directory.projection.ts';
import { startIdentity } from '../src/identity.service.ts';
import { openMailer } from '../src/start.ts';
import { SigningKeys } from '../src/tokens/signing-keys.ts';
import { openSecretBox } from '../src/webhook-secrets/secret-box.ts';

const config = loadIdentityConfig(process.env);
const log = createLogger('silent', 'identity');
const bus = await openBus(config.platform, 'identity');
const storage = await openContextStorage(config.platform, 'identity');
const crashAfter = process.env['CRASH_AFTER'];
if (crashAfter) {
  const store = storage.eventStore as EventStore;
  const append = store.append.bind(store);
  store.append = (async (...args: Parameters<EventStore['append']>) => {
    const result = await append(...args);
    if (args[1].some((e) => e.type === crashAfter)) process.kill(process.pid, 'SIGKILL');
    return result;
  }) as EventStore['append'];
}
const dir = join(config.platform.dataDir, 'identity');
const mailer = await openMailer(config);
const started = await startIdentity({
  bus,
  eventStore: storage.eventStore,
  readStore: storage.readStore,
  keys: await SigningKeys.open({
    file: join(dir, 'signing-keys.json'),
    rotateAfterMs: config.keyRotationMs,
    tokenTtlMs: 60_000,
    now: () => new Date(),
  }),
  mailer,
  secrets: await openSecretBox(config.secretsKey, join(dir, 'secrets.key')),
  log,
  config: { issuer: config.issuer, audience: config.audience, tokenTtlSeconds: 60, settleTimeoutMs: 10_000, publicUrl: 'http://127.0.0.1' },
});
const service = { ...started, mailerOutbox: async (to: string) => (await mailer.outbox({ to }))?.at(-1) };
await service.bootstrapIfEmpty(config.bootstrap);

const request = (subject: string, req: Partial<ServiceRequest>) =>
  bus.request(subject, { actor: null, correlation_id: randomUUID(), params: {}, query: {}, body: {}, ...req }).then(
    (reply) => ({ ok: true, reply }),
    (err: unknown) => ({ ok: false, reply: String(err) }),
  );
const clientId = config.bootstrap.client_id!.toLowerCase();
const client = await storage.readStore.get<ApiClientDoc>(C.clients, clientId);
if (process.env['INVITE'] && client) {
  const actor: Actor = {
    user_id: client.user_id,
    organization_id: client.organization_id,
    client_id: clientId,
    scopes: [...DEFAULT_SCOPES],
  };
  const invited = await request(IdentitySubjects.addOrganizationMember, {
    actor,
    idempotency_key: 'crash-invite-1',
    params: { organization_id: client.organization_id },
    body: { email_address: 'Invitee@Example.com', first_name: 'In', last_name: 'Vitee', member_type: 'EMPLOYEE' },
  });
  if (!invited.ok) throw new Error(`invite failed: ${String(invited.reply)}`);
}

if (process.env['EMAIL_CHANGE'] && client) {
  // An address change confirmed by its emailed code; a retry after a crash reuses the code already sent.
  const actor: Actor = {
    user_id: client.user_id,
    organization_id: client.organization_id,
    client_id: clientId,
    scopes: [...DEFAULT_SCOPES],
  };
  const to = 'moved@example.com';
  // After a restart the projection may still be replaying: the user's address is read once it has caught up.
  await service.projection.waitFor(await storage.eventStore.headPosition(), 10_000);
  const user = (await request(IdentitySubjects.me, { actor })).reply as Array<{ email_address: string }>;
  if (user[0]?.email_address !== to) {
    const code = async () => (await service.mailerOutbox(to))?.text.split('\n')[5]?.trim();
    let token = await code();
    if (!token) {
      const changed = await request(IdentitySubjects.updateUser, {
        actor,
        params: { user_id: client.user_id },
        body: { email_address: to },
      });
      if (!changed.ok) throw new Error(`address change failed: ${String(changed.reply)}`);
      token = await code();
    }
    const confirmed = await request(IdentitySubjects.confirmEmailChange, { body: { token } });
    if (!confirmed.ok) throw new Error(`confirmation failed: ${String(confirmed.reply)}`);
  }
}

// Settled: every event handled by the projection and the process manager.
const head = await storage.eventStore.headPosition();
await service.projection.waitFor(head, 10_000);
await service.registrations.waitFor(head, 10_000);
await service.onboardings.waitFor(head, 10_000);

const events: Array<Pick<RecordedEvent, 'type' | 'stream' | 'data'>> = [];
if (head > 0n) {
  for await (const e of storage.eventStore.subscribeToAll({ after: 0n })) {
    events.push({ type: e.type, stream: e.stream, data: e.data });
    if (e.position >= head) break;
  }
}
const dump = async () => {
  const out: Record<string, unknown[]> = {};
  for (const collection of Object.values(C)) {
    out[collection] = (await storage.readStore.query<object>(collection, {})).items.map((d) => JSON.stringify(d)).sort();
  }
  return out;
};
const token = await request(IdentitySubjects.issueToken, { body: { client_id: clientId, client_secret: config.bootstrap.client_secret } });
const before = await dump();
await service.projection.rebuild();
const after = await dump();
process.stdout.write(`${JSON.stringify({ token_ok: token.ok, events, before, after })}\n`);
process.exit(0);
