import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailMessage, Mailer, SentMail } from '../ports/mailer.ts';

export interface FsOutboxMailerOptions {
  /** Directory of the outbox; created when missing. */
  dir: string;
  from: string;
  now?: () => Date;
}

/**
 * Embedded mode's mailer: every message is a JSON file `<sent_at>-<seq>-<id>.json` in the outbox folder,
 * which the operator reads (`renopath outbox`, or the files themselves) and passes on.
 */
export class FsOutboxMailer implements Mailer {
  /** Orders messages sent within one millisecond (the time alone would leave them to their random ids). */
  private sequence = 0;
  constructor(private readonly options: FsOutboxMailerOptions) {}

  async send(message: MailMessage): Promise<SentMail> {
    const sent_at = (this.options.now ?? (() => new Date()))().toISOString();
    const mail: SentMail = {
      id: randomUUID(),
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      sent_at,
    };
    // The file name sorts by time, then order of sending; write-then-rename so a reader never sees half a message.
    const name = `${sent_at.replace(/[:.]/g, '-')}-${String(this.sequence++ % 1e6).padStart(6, '0')}-${mail.id}.json`;
    const tmp = join(this.options.dir, `.${name}.tmp`);
    await writeFile(tmp, JSON.stringify(mail, null, 2), { mode: 0o600 });
    await rename(tmp, join(this.options.dir, name));
    return mail;
  }

  async outbox(filter: { to?: string; limit?: number } = {}): Promise<SentMail[]> {
    const names = (await readdir(this.options.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
    const all = await Promise.all(names.map(async (n) => JSON.parse(await readFile(join(this.options.dir, n), 'utf8')) as SentMail));
    const to = filter.to?.trim().toLowerCase();
    const matching = to ? all.filter((m) => m.to.toLowerCase() === to) : all;
    return filter.limit ? matching.slice(-filter.limit) : matching;
  }

  async close(): Promise<void> {}
}

export async function openFsOutboxMailer(options: FsOutboxMailerOptions): Promise<FsOutboxMailer> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  return new FsOutboxMailer(options);
}
