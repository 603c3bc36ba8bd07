import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Webhook signing secrets must be readable again (Standard Webhooks signs with the secret itself),
 * so they are encrypted, not hashed: AES-256-GCM under RENOPATH_SECRETS_KEY, bound to the API client
 * (additional data) so a ciphertext cannot be moved to another client. Events carry only this.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  }

  seal(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, boundTo: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The configured key, else the one generated on first start into `file` (mode 0600), like the
 * signing keys: an embedded deployment needs no setup, and restarts keep reading old ciphertexts.
 */
export async function openSecretBox(configured: Buffer | null, file: string): Promise<SecretBox> {
  if (configured) return new SecretBox(configured);
  try {
    return new SecretBox(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(32);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // `wx`: two processes starting on one data dir must not each write a different key.
  await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return new SecretBox(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
}

/** `RENOPATH_SECRETS_KEY`: 32 bytes as 64 hex characters or base64; null when the text is neither. */
export function parseSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}
