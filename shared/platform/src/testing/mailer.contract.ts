import { afterEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../ports/mailer.ts';
import { uniqueName } from './contract-helpers.ts';

/** A message as its recipient's side got it: the outbox file, or what the SMTP server received. */
export interface DeliveredMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Opens a mailer with the sender `from`, and a way to read what reached the other side (for SMTP:
 * the messages a real local server received, parsed).
 */
export type MailerFactory = (from: string) => Promise<{ mailer: Mailer; delivered(): Promise<DeliveredMail[]> }>;

/** What every Mailer adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function mailerContract(name: string, open: MailerFactory): void {
  describe(`Mailer contract: ${name}`, () => {
    const opened: Mailer[] = [];
    const openMailer = async (from = 'Renopath <no-reply@renopath.example>') => {
      const made = await open(from);
      opened.push(made.mailer);
      return made;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((m) => m.close()));
    });

    it('delivers the subject, the text and the sender to the address, byte for byte', async () => {
      const { mailer, delivered } = await openMailer();
      const to = `${uniqueName('invitee')}@buyer.example`;
      // A long token on one line and non-ASCII text: encodings (quoted-printable, UTF-8) must round-trip.
      const token = `${'a1B2-c3_D4'.repeat(12)}.${uniqueName('t')}`;
      const text = `Hallo Zoë,\n\nAccept with this code:\n${token}\n\nTot ziens`;
      const sent = await mailer.send({ to, subject: 'You are invited to Immo Peeters', text });
      expect(sent).toMatchObject({ to, subject: 'You are invited to Immo Peeters', text, id: expect.any(String) });
      expect(new Date(sent.sent_at).toISOString()).toBe(sent.sent_at);
      const got = (await delivered()).filter((m) => m.to === to);
      expect(got).toHaveLength(1);
      expect(got[0]!.subject).toBe('You are invited to Immo Peeters');
      expect(got[0]!.from).toContain('no-reply@renopath.example');
      expect(got[0]!.text.trim()).toBe(text);
    });

    it('keeps separate messages apart, in the order sent', async () => {
      const { mailer, delivered } = await openMailer();
      const to = `${uniqueName('many')}@buyer.example`;
      for (const n of [1, 2, 3]) await mailer.send({ to, subject: `message ${n}`, text: `body ${n}` });
      const got = (await delivered()).filter((m) => m.to === to);
      expect(got.map((m) => [m.subject, m.text.trim()])).toEqual([
        ['message 1', 'body 1'],
        ['message 2', 'body 2'],
        ['message 3', 'body 3'],
      ]);
    });
  });
}
