import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freezeImmutable } from '@renopath/platform/internal/reply.ts';
import { DOWNLOAD_PATH, DownloadSigner } from './downloads.ts';

const SECRET = Buffer.from('0123456789abcdef0123456789abcdef');
const PUBLIC = 'https://renopath.example';
const TTL = 3600;

/** The signing as first written (a full copy, a fresh HMAC per link): replies must keep these bytes. */
function reference(value: unknown, nowMs: number): unknown {
  if (Array.isArray(value)) return value.map((v) => reference(v, nowMs));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(source)) {
    if (k === 'blob_key') continue;
    if (k === 'url' && typeof source['blob_key'] === 'string') {
      const key = source['blob_key'];
      const name = typeof source['name'] === 'string' ? source['name'] : 'download';
      const expires = Math.floor(nowMs / 1000) + TTL;
      const signature = createHmac('sha256', SECRET).update(`${key}\n${name}\n${expires}`).digest().toString('base64url');
      out[k] =
        `${PUBLIC}${DOWNLOAD_PATH}/${Buffer.from(key).toString('base64url')}/${encodeURIComponent(name)}?expires=${expires}&signature=${signature}`;
    } else {
      out[k] = reference(v, nowMs);
    }
  }
  return out;
}

const file = (n: number, extra: object = {}) => ({
  id: `f${n}`,
  name: `plan ${n}.pdf`,
  blob_key: `uploads/${n}`,
  url: null,
  size: n,
  ...extra,
});
const estate = () => ({
  id: 'e1',
  address: { street: 'Kouter', zip_code: '9000' },
  commercial_context: { price: null, commercial_media_files: [file(1), { ...file(2), url: 'kept?' }] },
  files: [file(3), { id: 'gone', name: 'gone.pdf', url: null }, file(4, { name: 7 })],
  // A key that is not a string is dropped and signs nothing, as before.
  odd: { blob_key: 42, url: null, name: 'x' },
  roofs: [{ id: 'r1', dimensions: { height_cm: null } }],
  members: [],
  url_first: { url: null, blob_key: 'uploads/9', name: 'first.pdf' },
});

describe('signed download links in replies', () => {
  it('writes the same bytes as the first signing, with and without keys, leaving the input as it was', () => {
    let now = Date.parse('2026-11-23T10:00:00.250Z');
    const signer = new DownloadSigner(SECRET, PUBLIC, TTL, () => now);
    for (const reply of [estate(), [estate(), estate()], { id: 'no files', nested: [{ a: [1, null, 'x'] }] }, null, 'text', [file(5)]]) {
      const before = JSON.stringify(reply);
      expect(JSON.stringify(signer.signReply(reply))).toBe(JSON.stringify(reference(reply, now)));
      // Again in the same second (links come from the cache) and in the next one (new expiry, new signature).
      expect(JSON.stringify(signer.signReply(reply))).toBe(JSON.stringify(reference(reply, now)));
      now += 1000;
      expect(JSON.stringify(signer.signReply(reply))).toBe(JSON.stringify(reference(reply, now)));
      expect(JSON.stringify(reply)).toBe(before);
    }
  });

  it('returns a reply without keys as it is, and links that verify', () => {
    const now = Date.parse('2026-11-23T10:00:00.000Z');
    const signer = new DownloadSigner(SECRET, PUBLIC, TTL, () => now);
    const plain = { id: 'e2', files: [{ id: 'gone', url: null }], roofs: [{ id: 'r' }] };
    expect(signer.signReply(plain)).toBe(plain);
    const signed = signer.signReply(estate() as unknown) as { files: Array<{ url: string }> };
    const url = new URL(signed.files[0]!.url);
    const [, , , encodedKey, name] = url.pathname.split('/');
    expect(
      signer.verify(encodedKey!, decodeURIComponent(name!), url.searchParams.get('expires'), url.searchParams.get('signature')),
    ).toEqual({ key: 'uploads/3', name: 'plan 3.pdf' });
  });

  it("signs a frozen reply (a service's shared one) into a copy, every time, and returns one without keys as it is", () => {
    let now = Date.parse('2026-11-23T10:00:00.000Z');
    const signer = new DownloadSigner(SECRET, PUBLIC, TTL, () => now);
    const keyed = freezeImmutable(estate());
    const plain = freezeImmutable({ id: 'e2', files: [{ id: 'gone', url: null }], roofs: [{ id: 'r' }] });
    for (let second = 0; second < 2; second++, now += 1000) {
      expect(JSON.stringify(signer.signReply(keyed))).toBe(JSON.stringify(reference(keyed, now)));
      expect(signer.signReply(plain)).toBe(plain);
    }
  });
});
