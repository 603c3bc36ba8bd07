import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { startStack, type Stack } from './stack.ts';

/**
 * With RENOPATH_SMTP_URL set, invitations leave by SMTP: a real local SMTP server receives the
 * message, the invitee reads the code in it and accepts. The outbox is then not in use.
 */
const received: string[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      callback();
    });
  },
});
let stack: Stack;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  stack = await startStack({
    RENOPATH_SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    RENOPATH_MAIL_FROM: 'Renopath <invites@renopath.example>',
  });
});
afterAll(async () => {
  await stack?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The message body without quoted-printable soft breaks and escapes (enough for an ASCII code). */
const bodyOf = (raw: string) =>
  raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/=\r\n/g, '')
    .replace(/=3D/g, '=');

describe('invitations by SMTP', () => {
  it('mails the invitation to the address; the code in it accepts the invitation', async () => {
    const owner = await stack.token();
    const invited = await stack.as(owner).post(`/organizations/${stack.bootstrap.organization_id}/members`, {
      email_address: 'smtp-invitee@agency.example',
      first_name: 'Sam',
      last_name: 'Tp',
      member_type: 'EMPLOYEE',
    });
    expect(invited.statusCode).toBe(201);
    const raw = received.find((m) => /^To: smtp-invitee@agency\.example/im.test(m));
    expect(raw).toBeDefined();
    expect(raw).toMatch(/^From: Renopath <invites@renopath\.example>/im);
    const token = /^\s*((?:[0-9a-f-]{36}\.){2}[A-Za-z0-9_-]{43})\s*$/m.exec(bodyOf(raw!))?.[1];
    expect(token).toBeDefined();
    const accepted = await stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ user_id: invited.json().user_id, member_type: 'EMPLOYEE', status: 'ACTIVE' });

    const outbox = await stack.app.inject({
      method: 'GET',
      url: '/admin/outbox',
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
    });
    expect(outbox.statusCode).toBe(404);
  });
});
