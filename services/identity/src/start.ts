import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Bus } from '@renopath/platform';
import { openContextRuntime } from '@renopath/platform/service/context-runtime.ts';
import type { Mailer } from '@renopath/platform/ports/mailer.ts';
import { openFsOutboxMailer } from '@renopath/platform/fs/fs-outbox-mailer.ts';
import { openSmtpMailer } from '@renopath/platform/smtp/smtp-mailer.ts';
import type { IdentityServiceConfig } from './config.ts';
import { startIdentity, type IdentityService } from './identity.service.ts';
import { DOCUMENT_KEYS_STREAM, SigningKeys } from './tokens/signing-keys.ts';

/** The document key is not rotated on a schedule (a century stands for "never"); an operator retires it by hand. */
const DOCUMENT_KEY_LIFETIME_MS = 100 * 365 * 86_400_000;
import { openSecretBox } from './webhook-secrets/secret-box.ts';

/** SMTP when configured, else the outbox folder the operator reads (`renopath outbox`). */
export async function openMailer(config: IdentityServiceConfig): Promise<Mailer> {
  if (config.smtpUrl) return openSmtpMailer({ url: config.smtpUrl, from: config.mailFrom });
  return openFsOutboxMailer({ dir: join(config.platform.dataDir, CONTEXT, 'outbox'), from: config.mailFrom });
}

export const CONTEXT = 'identity';

/**
 * Opens the identity context's storage, its relay and its bus handlers on a given bus. With
 * `deferServe`, the handlers wait for `service.serve()` (a process bootstraps its client first).
 */
export async function startIdentityContext(config: IdentityServiceConfig, bus: Bus, log: Logger, options: { deferServe?: boolean } = {}) {
  const runtime = await openContextRuntime({ platform: config.platform, context: CONTEXT, bus, log });
  const { storage } = runtime;
  const secrets = await openSecretBox(config.secretsKey, join(config.platform.dataDir, CONTEXT, 'secrets.key'));
  // The key ring is in the context's event store, so every replica signs with and publishes the same keys.
  const keys = await SigningKeys.open({
    file: join(config.platform.dataDir, CONTEXT, 'signing-keys.json'),
    shared: { eventStore: storage.eventStore, secrets },
    rotateAfterMs: config.keyRotationMs,
    tokenTtlMs: config.tokenTtlSeconds * 1000,
    now: () => new Date(),
  });
  // Documents (renovation passports) are signed with a ring of their own that never rotates: a passport
  // is checked years after it was signed, when a token key would long have left the JWKS.
  const documentKeys = await SigningKeys.open({
    file: join(config.platform.dataDir, CONTEXT, 'document-signing-keys.json'),
    shared: { eventStore: storage.eventStore, secrets },
    stream: DOCUMENT_KEYS_STREAM,
    rotateAfterMs: DOCUMENT_KEY_LIFETIME_MS,
    tokenTtlMs: 0,
    now: () => new Date(),
  });
  const mailer = await openMailer(config);
  await runtime.serve();
  const service: IdentityService = await startIdentity({
    // Its reactors run only on the replica that holds the context's lease.
    bus: runtime.bus,
    eventStore: storage.eventStore,
    readStore: storage.readStore,
    keys,
    documentKeys,
    mailer,
    secrets,
    log,
    deferServe: options.deferServe ?? false,
    config: {
      issuer: config.issuer,
      audience: config.audience,
      tokenTtlSeconds: config.tokenTtlSeconds,
      settleTimeoutMs: config.settleTimeoutMs,
      publicUrl: config.publicUrl,
    },
  });
  return {
    service,
    storage,
    keys,
    mailer,
    close: () => runtime.close(service, mailer),
  };
}
