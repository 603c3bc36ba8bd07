import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './sign-webhook.ts';

/** A receiver checks our signature with the Standard Webhooks library, as docs/webhooks.md tells it to. */
describe('signWebhook', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const timestamp = Math.floor(Date.now() / 1000);

  it('signs as Standard Webhooks does: a receiver verifies bodies of any size and script', () => {
    for (const body of [
      '{}',
      JSON.stringify({ type: 'calculation_job.finished', note: 'Gevel — isolatie, €' }),
      JSON.stringify({ plan: 'x'.repeat(200_000) }),
    ]) {
      const headers = {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, { id: 'msg_1', timestamp, body }),
      };
      expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
      expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), body));
    }
  });

  it('is refused by a receiver for another body, id or secret', () => {
    const signature = signWebhook(secret, { id: 'msg_1', timestamp, body: '{"a":1}' });
    const headers = (id: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
    expect(() => new Webhook(secret).verify('{"a":2}', headers('msg_1'))).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', headers('msg_2'))).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify('{"a":1}', headers('msg_1'))).toThrow();
  });
});
