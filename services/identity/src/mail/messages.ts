import type { MailMessage } from '@renopath/platform/ports/mailer.ts';
import type { MemberType } from '@renopath/contracts';

/** The texts of the messages identity sends. Plain text: what a person needs, nothing about other accounts. */

const ROLE: Record<MemberType, string> = { OWNER: 'an owner', EMPLOYEE: 'an employee', CLIENT: 'a client' };
const day = (iso: string) => iso.slice(0, 10);

export function invitationMessage(o: {
  to: string;
  first_name: string;
  organization_name: string;
  member_type: MemberType;
  estate: boolean;
  token: string;
  expires_at: string;
  publicUrl: string;
}): MailMessage {
  const what = o.estate
    ? `shared a home with you on Renopath, as ${ROLE.CLIENT} of theirs`
    : `invited you to join them on Renopath as ${ROLE[o.member_type]}`;
  return {
    to: o.to,
    subject: o.estate ? `${o.organization_name} shared a home with you on Renopath` : `${o.organization_name} invited you to Renopath`,
    text: [
      `Hello ${o.first_name},`,
      '',
      `${o.organization_name} ${what}.`,
      '',
      'To accept, give this code to the application that sent you here, or send it yourself:',
      `  POST ${o.publicUrl}/v1/invitations/accept  {"token": "<the code>"}`,
      '',
      o.token,
      '',
      `The code works once, until ${day(o.expires_at)}. Nothing is shared with you, and nothing of yours with them, until you accept.`,
      'If you did not expect this message, ignore it.',
    ].join('\n'),
  };
}

/**
 * A message to an address someone asked to use for their account: the same subject and greeting
 * whether the address was free or already in use, so the message says nothing more than its text.
 */
function toAskedAddress(to: string, lines: string[]): MailMessage {
  return { to, subject: 'Confirm your new email address for Renopath', text: ['Hello,', '', ...lines].join('\n') };
}

export function emailChangeMessage(o: { to: string; token: string; expires_at: string; publicUrl: string }): MailMessage {
  return toAskedAddress(o.to, [
    'Someone asked to use this address for their Renopath account. If that was you, confirm it with this code:',
    `  POST ${o.publicUrl}/v1/email-changes/confirm  {"token": "<the code>"}`,
    '',
    o.token,
    '',
    `The code works once, until ${day(o.expires_at)}. If you did not ask for this, ignore this message: nothing changes.`,
  ]);
}

/** Sent instead when the address already belongs to an account: the requester learns nothing, the owner is told. */
export function addressInUseMessage(o: { to: string }): MailMessage {
  return toAskedAddress(o.to, [
    'Someone asked to use this address for a Renopath account. This address already belongs to a Renopath account, so nothing was changed.',
    'If you did not ask for this, ignore this message.',
  ]);
}
