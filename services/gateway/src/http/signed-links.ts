import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Download links that work without a bearer token (API.md 4.3): the blob key, the file name and an
 * expiry, signed with HMAC-SHA256. Services hand out blob keys; only the gateway holds the secret
 * and turns keys into links, fresh on every reply.
 */
export const DOWNLOAD_PATH = '/v1/downloads';

export interface SignedDownload {
  key: string;
  name: string;
}

export class DownloadSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  private mac(key: string, name: string, expires: number): Buffer {
    return createHmac('sha256', this.secret).update(`${key}\n${name}\n${expires}`).digest();
  }

  /** An absolute URL valid for `ttlSeconds` from now. */
  link(key: string, name: string): string {
    const expires = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const signature = this.mac(key, name, expires).toString('base64url');
    return `${this.publicUrl}${DOWNLOAD_PATH}/${Buffer.from(key).toString('base64url')}/${encodeURIComponent(name)}?expires=${expires}&signature=${signature}`;
  }

  /** The blob a link names, or why it is refused. */
  verify(encodedKey: string, name: string, expires: unknown, signature: unknown): SignedDownload | 'expired' | 'invalid' {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const key = Buffer.from(encodedKey, 'base64url').toString('utf8');
    const given = Buffer.from(signature, 'base64url');
    const wanted = this.mac(key, name, Number(expires));
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'invalid';
    if (Number(expires) <= Math.floor(this.now() / 1000)) return 'expired';
    return { key, name };
  }

  /**
   * Replaces, in a reply, every object's `blob_key` by a signed `url` (named after the object's
   * `name`). An object whose `url` is null and has no key keeps `url: null` (the file is gone).
   */
  signReply<T>(value: T): T {
    if (Array.isArray(value)) return value.map((v) => this.signReply(v)) as T;
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(source)) {
      if (k === 'blob_key') continue;
      if (k === 'url' && typeof source['blob_key'] === 'string') {
        out[k] = this.link(source['blob_key'], typeof source['name'] === 'string' ? source['name'] : 'download');
      } else {
        out[k] = this.signReply(v);
      }
    }
    return out as T;
  }
}

/**
 * The signing secret: configured (every gateway replica must share it), else made once and kept in
 * the data dir so links survive a restart.
 */
export async function loadDownloadSecret(configured: string | null, file: string): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(stored)) return Buffer.from(stored, 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, secret.toString('hex'), { mode: 0o600 });
  await rename(temp, file);
  return secret;
}
