import { createHmac } from 'node:crypto';

/** What is signed: the Standard Webhooks `webhook-id`, `webhook-timestamp` (Unix seconds) and the exact body. */
export interface WebhookToSign {
  id: string;
  timestamp: number;
  body: string;
}

/** How Standard Webhooks writes a secret: `whsec_` and the key in base64. */
const SECRET_PREFIX = 'whsec_';

/**
 * The `webhook-signature` header value (`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>`) of a
 * webhook signed with an API client's secret (Standard Webhooks, docs/webhooks.md). Identity signs
 * with it when calculations asks over the bus (`cmd.identity.sign-webhook`); calculations with it when
 * identity runs in its process. Node's own HMAC, not the `standardwebhooks` package's JavaScript one:
 * a job's body is tens of kilobytes, and hashing it in JavaScript took 1.5 % of the embedded service's
 * main thread under the jobs bench. Receivers verify it with that package (sign-webhook.int.spec.ts).
 */
export function signWebhook(secret: string, { id, timestamp, body }: WebhookToSign): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('a webhook secret cannot be empty');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
