import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mailerContract } from '../testing/mailer.contract.ts';
import { uniqueName } from '../testing/contract-helpers.ts';
import { openFsOutboxMailer } from './fs-outbox-mailer.ts';

const root = mkdtempSync(join(tmpdir(), 'renopath-outbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

mailerContract('outbox (files)', async (from) => {
  const mailer = await openFsOutboxMailer({ dir: join(root, uniqueName('outbox')), from });
  return { mailer, delivered: async () => (await mailer.outbox()) ?? [] };
});

describe('FsOutboxMailer', () => {
  it('writes one readable JSON file per message, only the owner may read, and filters by address', async () => {
    const dir = join(root, 'files');
    const mailer = await openFsOutboxMailer({ dir, from: 'no-reply@renopath.example' });
    await mailer.send({ to: 'An@Peeters.example', subject: 'one', text: 'x' });
    await mailer.send({ to: 'bo@other.example', subject: 'two', text: 'y' });
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.json'))).toBe(true);
    expect(statSync(join(dir, files[0]!)).mode & 0o077).toBe(0);
    expect((await mailer.outbox({ to: 'an@peeters.example' }))?.map((m) => m.subject)).toEqual(['one']);
    expect((await mailer.outbox({ limit: 1 }))?.map((m) => m.subject)).toEqual(['two']);
  });
});
