import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer, SentMail } from '../ports/mailer.ts';

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://...` (nodemailer's connection URL). */
  url: string;
  from: string;
  now?: () => Date;
}

/** Production mailer: hands every message to an SMTP server (nodemailer, one pooled transport). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = nodemailer.createTransport(options.url);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const id = randomUUID();
    const sent_at = (this.options.now ?? (() => new Date()))().toISOString();
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      // Our id, so a message in the server's logs can be traced back to the one we sent.
      messageId: `<${id}@renopath>`,
    });
    return { id, from: this.options.from, to: message.to, subject: message.subject, text: message.text, sent_at };
  }

  async outbox(): Promise<null> {
    return null;
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export function openSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  return new SmtpMailer(options);
}
