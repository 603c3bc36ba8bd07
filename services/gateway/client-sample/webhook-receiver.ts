/**
 * A webhook receiver for trying Renopath locally (`npm run -s webhook:receive`): it verifies each
 * request's Standard Webhooks signature with the API client's webhook secret (printed by the first
 * start, or by `renopath client rotate-webhook-secret`), prints the verified event as one JSON line
 * and answers 204; a request whose signature does not verify is answered 401 and printed as refused.
 *
 *   RENOPATH_WEBHOOK_SECRET=whsec_... [WEBHOOK_PORT=9009] npm run -s webhook:receive
 *
 * Its address is on this machine, which the service refuses as a webhook target unless it runs with
 * RENOPATH_ALLOW_PRIVATE_NETWORK=true (docs/webhooks.md "Delivery").
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env['RENOPATH_WEBHOOK_SECRET'];
if (!secret) {
  process.stderr.write('RENOPATH_WEBHOOK_SECRET is not set: the webhook_secret the first start printed (whsec_...)\n');
  process.exit(2);
}
const verifier = new Webhook(secret);
const port = Number(process.env['WEBHOOK_PORT'] ?? 9009);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // The signature covers the exact bytes: verify the raw body, never a re-serialised one.
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string) => String(req.headers[name] ?? '');
    try {
      const event = verifier.verify(body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      }) as { type: string; data: { id: string; calculation_job_status: string } };
      process.stdout.write(
        `${JSON.stringify({ verified: true, webhook_id: header('webhook-id'), type: event.type, job_id: event.data.id, status: event.data.calculation_job_status })}\n`,
      );
      res.writeHead(204).end();
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ verified: false, webhook_id: header('webhook-id'), error: String(error) })}\n`);
      res.writeHead(401).end();
    }
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`receiving webhooks on http://127.0.0.1:${port}/\n`));
const stop = () => server.close(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
