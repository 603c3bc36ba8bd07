import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { mailerContract, type DeliveredMail } from '../testing/mailer.contract.ts';
import { openSmtpMailer } from './smtp-mailer.ts';

/** A real SMTP server on 127.0.0.1 that keeps what it receives, so the test reads the message as delivered. */
const received: Array<{ envelopeTo: string[]; raw: string }> = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

/** Just enough RFC 5322 / 2045 / 2047 to read what nodemailer writes for a plain-text message. */
function parse(raw: string): DeliveredMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const words = (value: string) =>
    value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const bytes =
    encoding === 'quoted-printable'
      ? Buffer.from(
          body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        )
      : encoding === 'base64'
        ? Buffer.from(body, 'base64')
        : Buffer.from(body, 'utf8');
  return {
    from: words(header('From')),
    to: words(header('To')),
    subject: words(header('Subject')),
    text: bytes.toString('utf8').replace(/\r\n/g, '\n'),
  };
}

mailerContract('SMTP (nodemailer against a local smtp-server)', async (from) => {
  const mailer = openSmtpMailer({ url: `smtp://127.0.0.1:${port}?ignoreTLS=true`, from });
  return { mailer, delivered: async () => received.map((r) => parse(r.raw)) };
});

it('SMTP mailer has no outbox to list: mail leaves the service', async () => {
  const mailer = openSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'x@renopath.example' });
  expect(await mailer.outbox()).toBeNull();
  await mailer.close();
});
