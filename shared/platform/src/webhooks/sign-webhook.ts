import { Webhook } from 'standardwebhooks';

/** What is signed: the Standard Webhooks `webhook-id`, `webhook-timestamp` (Unix seconds) and the exact body. */
export interface WebhookToSign {
  id: string;
  timestamp: number;
  body: string;
}

/**
 * The `webhook-signature` header value (`v1,<base64 HMAC-SHA256>`) of a webhook signed with an API
 * client's secret (Standard Webhooks, docs/webhooks.md). Identity signs with it when calculations asks
 * over the bus (`cmd.identity.sign-webhook`); calculations with it when identity runs in its process.
 */
export function signWebhook(secret: string, { id, timestamp, body }: WebhookToSign): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}
