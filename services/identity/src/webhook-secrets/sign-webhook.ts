import { Webhook } from 'standardwebhooks';
import type { SignWebhookBody } from '@renopath/contracts';

/**
 * `cmd.identity.sign-webhook` (its body: SignWebhookBody in the contracts): the calculations context
 * asks identity to sign a webhook, so a client's webhook secret never travels on the bus (docs/webhooks.md,
 * Standard Webhooks). The `webhook-signature` header value (`v1,<base64 HMAC-SHA256>`).
 */
export function signWebhook(secret: string, { id, timestamp, body }: Omit<SignWebhookBody, 'client_id'>): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}
