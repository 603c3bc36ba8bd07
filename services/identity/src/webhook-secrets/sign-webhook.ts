import { z } from 'zod';
import { Webhook } from 'standardwebhooks';

/**
 * `cmd.identity.sign-webhook`: the calculations context asks identity to sign a webhook, so a
 * client's webhook secret never travels on the bus (API.md 5.4, Standard Webhooks).
 */
export const SignWebhookBody = z.strictObject({
  client_id: z.string().min(1).max(64),
  /** The `webhook-id` header. */
  id: z.string().min(1).max(255),
  /** The `webhook-timestamp` header: Unix seconds. */
  timestamp: z.number().int().min(0),
  /** The exact bytes sent, as text: a job's result can be large. */
  body: z.string().max(16 * 1024 * 1024),
});
export type SignWebhookBody = z.infer<typeof SignWebhookBody>;

/** The `webhook-signature` header value (`v1,<base64 HMAC-SHA256>`). */
export function signWebhook(secret: string, { id, timestamp, body }: Omit<SignWebhookBody, 'client_id'>): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}
