import { expect } from 'vitest';
import { ADMIN_TOKEN, type Stack } from './stack.ts';

/** What the embedded outbox holds, read the way an operator does: `GET /admin/outbox`. */
export interface Mail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

export async function outbox(stack: Stack, to?: string): Promise<Mail[]> {
  const res = await stack.app.inject({
    method: 'GET',
    url: `/admin/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Mail[];
}

/** The single-use code a message carries (alone on its line), or null. */
export function codeIn(mail: Mail | undefined): string | null {
  return mail ? (/^\s*((?:[0-9a-f-]{36}\.){1,2}[A-Za-z0-9_-]{43})\s*$/m.exec(mail.text)?.[1] ?? null) : null;
}

/** The newest message to `to`. */
export async function lastMail(stack: Stack, to: string): Promise<Mail | undefined> {
  return (await outbox(stack, to)).at(-1);
}

/** Accepts the newest invitation mailed to `email`, as the invitee does. */
export async function acceptInvitation(stack: Stack, email: string) {
  const token = codeIn(await lastMail(stack, email));
  if (!token) throw new Error(`no invitation code mailed to ${email}`);
  const res = await stack.app.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`accept: ${res.statusCode} ${res.body}`);
  return res.json() as { organization_id: string; user_id: string; member_type: string; status: 'ACTIVE'; estate_ids: string[] };
}

/** Confirms the newest address change mailed to `email`, as its reader does. */
export async function confirmEmailChange(stack: Stack, email: string) {
  const token = codeIn(await lastMail(stack, email));
  if (!token) throw new Error(`no confirmation code mailed to ${email}`);
  return stack.app.inject({ method: 'POST', url: '/v1/email-changes/confirm', payload: { token } });
}
