/**
 * Mailer port: messages to people (invitations, email-address confirmations). SMTP in production,
 * an outbox of files the operator reads in embedded mode. Plain text only: nothing to render.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A message as it was handed over, with the sender and an id the outbox lists it by. */
export interface SentMail extends MailMessage {
  id: string;
  from: string;
  sent_at: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (written to the outbox, accepted by the SMTP server). */
  send(message: MailMessage): Promise<SentMail>;
  /** The outbox's messages, oldest first (optionally to one address); null when mail leaves the service (SMTP). */
  outbox(filter?: { to?: string; limit?: number }): Promise<SentMail[] | null>;
  close(): Promise<void>;
}
