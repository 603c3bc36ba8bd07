import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DomainError, type Bus } from '@renopath/platform';
import { IdentitySubjects, type ServiceRequest } from '@renopath/contracts';

/** What is signed: the Standard Webhooks `webhook-id`, `webhook-timestamp` (Unix seconds) and the exact body. */
export interface WebhookToSign {
  id: string;
  timestamp: number;
  body: string;
}

/** Returns the `webhook-signature` header value for the API client's webhook secret. */
export type WebhookSigner = (client_id: string, message: WebhookToSign) => Promise<string>;

/**
 * Embedded mode: identity runs in this process and hands its secrets over directly
 * (`IdentityService.webhookSecret`).
 */
export function embeddedWebhookSigner(webhookSecret: (client_id: string) => Promise<string | null>): WebhookSigner {
  return async (client_id, { id, timestamp, body }) => {
    const secret = await webhookSecret(client_id);
    if (secret === null) throw new DomainError(404, [`API client ${client_id} not found: no webhook secret to sign with`]);
    return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
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
