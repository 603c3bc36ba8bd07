import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply, preSerializationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { notFound, type BlobStore } from '@renopath/platform';
import { isImmutable } from '@renopath/platform/internal/reply.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    signer: DownloadSigner;
  }
}

export interface DownloadsOptions {
  blobs: BlobStore;
  secret: Buffer;
  publicUrl: string;
  now?: () => number;
}

/**
 * A stored blob as the answer, inline under `name`, never cached by a shared cache; 404 when it is gone.
 * A signed download and a `file` route (a PDF rendered on request) answer alike.
 */
export async function replyWithBlob(
  reply: FastifyReply,
  blobs: BlobStore,
  key: string,
  name: string,
  headers: Record<string, string> = {},
) {
  const found = await blobs.get(key);
  if (!found) throw notFound('file');
  return reply
    .code(200)
    .type(found.content_type)
    .headers({
      // `inline` with an ASCII fallback name and, when that differs, the exact name per RFC 6266 / 5987.
      'content-disposition': contentDisposition(name, { type: 'inline', fallback: name.replace(/[^\x20-\x7e]|["\\]/g, '_') }),
      'content-length': String(found.size),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    })
    .send(found.body);
}

/** The hook of a `signLinks` route: every `blob_key` of a successful answer becomes a signed download `url`, fresh each time. */
export function signLinksHook(signer: DownloadSigner): preSerializationAsyncHookHandler<unknown> {
  return async (_request, reply, payload) => (reply.statusCode < 400 ? signer.signReply(payload) : payload);
}

/** Download links are valid for an hour (docs/http-contract.md "Estates and their parts"). */
const DOWNLOAD_LINK_TTL_S = 3600;

/**
 * Signed downloads of files and media: no bearer token, the link's signature is the credential. The
 * routes that reply with `blob_key`s sign them with `app.signer`.
 */
export const downloadsPlugin = fp(
  async (app: FastifyInstance, options: DownloadsOptions) => {
    const signer = new DownloadSigner(options.secret, options.publicUrl, DOWNLOAD_LINK_TTL_S, options.now);
    app.decorate('signer', signer);
    app.get(
      `${DOWNLOAD_PATH}/:blob/:name`,
      // The link is checked by its signature (a bad one is 403, not 400): the handler decides, no schema
      // validates; the OpenAPI document describes it (openapi/document.ts, downloadOperation).
      app.limit ? { onRequest: [app.limit] } : {},
      async (request, reply) => {
        const { blob, name } = request.params as { blob: string; name: string };
        const { expires, signature } = (request.query ?? {}) as Record<string, unknown>;
        const verdict = signer.verify(blob, name, expires, signature);
        // A forged or expired link is refused like a bad credential (403 bodies stay bare: docs/http-contract.md "Errors").
        if (verdict === 'invalid' || verdict === 'expired') throw new HttpError(403);
        return replyWithBlob(reply, options.blobs, verdict.key, verdict.name, { 'content-security-policy': "default-src 'none'; sandbox" });
      },
    );
  },
  { name: 'renopath-downloads', dependencies: ['renopath-rate-limit'] },
);

/**
 * Download links that work without a bearer token (docs/http-contract.md "Estates and their parts"): the blob key, the file name and an
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

  /**
   * The last link made per (key, name): a link depends only on them and the expiry second, so a
   * reply read again within the same second signs nothing (the HMAC was the gateway's main cost on
   * replies with files and media).
   */
  private readonly recent = new Map<string, { expires: number; link: string }>();

  /** An absolute URL valid for `ttlSeconds` from now. */
  link(key: string, name: string): string {
    const expires = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const id = `${key.length}:${key}${name}`; // the length makes it unambiguous
    const cached = this.recent.get(id);
    if (cached?.expires === expires) return cached.link;
    const signature = this.mac(key, name, expires).toString('base64url');
    const link = `${this.publicUrl}${DOWNLOAD_PATH}/${Buffer.from(key).toString('base64url')}/${encodeURIComponent(name)}?expires=${expires}&signature=${signature}`;
    // Bounded: past this many distinct files the cache starts over rather than grow.
    if (this.recent.size >= LINK_CACHE_MAX) this.recent.clear();
    this.recent.set(id, { expires, link });
    return link;
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
   * Copy on write: a part of the reply without keys is returned as it is, not copied.
   */
  signReply<T>(value: T): T {
    // Most replies carry no file: a read-only scan for a key is cheaper than the copying walk (issue 9).
    return hasBlobKey(value) ? this.sign(value) : value;
  }

  private sign<T>(value: T): T {
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const signed = this.sign(value[i]);
        if (signed !== value[i]) (out ??= value.slice())[i] = signed;
      }
      return (out ?? value) as T;
    }
    if (value === null || typeof value !== 'object') return value;
    const source = value as Record<string, unknown>;
    const hasKey = Object.hasOwn(source, 'blob_key');
    let out: Record<string, unknown> | null = null;
    // Rebuilt in the source's key order whenever one value changes, so the reply's bytes are as before.
    const keys = Object.keys(source);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = source[k];
      if (k === 'blob_key') continue;
      const next =
        k === 'url' && typeof source['blob_key'] === 'string'
          ? this.link(source['blob_key'], typeof source['name'] === 'string' ? source['name'] : 'download')
          : this.sign(v);
      if (out === null && (hasKey || next !== v)) {
        out = {};
        for (let j = 0; j < i; j++) if (keys[j] !== 'blob_key') out[keys[j]!] = source[keys[j]!];
      }
      if (out !== null) out[k] = next;
    }
    if (out === null && hasKey) {
      out = {};
      for (const k of keys) if (k !== 'blob_key') out[k] = source[k];
    }
    return (out ?? value) as T;
  }
}

/** Frozen replies (see `isImmutable`) never change: whether they hold a key is looked for once. */
const keyed = new WeakMap<object, boolean>();

/** Whether some object in the value has an own `blob_key` (what `sign` rewrites). */
function hasBlobKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (isImmutable(value)) {
    let found = keyed.get(value);
    if (found === undefined) keyed.set(value, (found = findBlobKey(value)));
    return found;
  }
  return findBlobKey(value);
}

function findBlobKey(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === 'object' && findBlobKey(v)) return true;
    }
    return false;
  }
  if (Object.hasOwn(value, 'blob_key')) return true;
  // for-in visits inherited enumerable keys too; JSON-shaped replies have none, and an extra look only costs time.
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object' && findBlobKey(v)) return true;
  }
  return false;
}

/** Distinct (key, name) links remembered at most. */
const LINK_CACHE_MAX = 10_000;

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
