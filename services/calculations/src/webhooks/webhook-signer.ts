import { randomUUID } from 'node:crypto';
import { DomainError, type Bus } from '@renopath/platform';
import { IdentitySubjects, type ServiceRequest } from '@renopath/contracts';
import { signWebhook, type WebhookToSign } from '@renopath/platform/webhooks/sign-webhook.ts';

/** Returns the `webhook-signature` header value for the API client's webhook secret. */
export type WebhookSigner = (client_id: string, message: WebhookToSign) => Promise<string>;

/**
 * Embedded mode: identity runs in this process and hands its secrets over directly
 * (`IdentityService.webhookSecret`).
 */
export function embeddedWebhookSigner(webhookSecret: (client_id: string) => Promise<string | null>): WebhookSigner {
  return async (client_id, message) => {
    const secret = await webhookSecret(client_id);
    if (secret === null) throw new DomainError(404, [`API client ${client_id} not found: no webhook secret to sign with`]);
    return signWebhook(secret, message);
  };
}

/** Distributed mode: identity signs (`cmd.identity.sign-webhook`), so the secret never leaves it. */
export function busWebhookSigner(bus: Bus, options: { timeoutMs?: number } = {}): WebhookSigner {
  return async (client_id, { id, timestamp, body }) => {
    const request: ServiceRequest = {
      actor: null,
      correlation_id: randomUUID(),
      params: {},
      query: {},
      body: { client_id, id, timestamp, body },
    };
    const reply = await bus.request<{ signature: string }>(
      IdentitySubjects.signWebhook,
      request,
      options.timeoutMs ? { timeoutMs: options.timeoutMs } : {},
    );
    return reply.signature;
  };
}
