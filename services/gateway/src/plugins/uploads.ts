import { createHash, randomUUID } from 'node:crypto';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type {
  FastifyInstance,
  FastifyRequest,
  onErrorAsyncHookHandler,
  onResponseAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { fileTypeFromBuffer } from 'file-type';
import { FILE_MEDIA_TYPES, MEDIA_MEDIA_TYPES } from '@renopath/contracts';
import { DomainError, takeHead, type BlobStore } from '@renopath/platform';
import { newId } from '@renopath/platform/service/handler-kit.ts';
import type { RouteDef } from '../routes/route.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** An `upload` route's file, as read from the multipart body. */
    upload: Upload | null;
    /** A `stream` upload's file, stored in the blob store as it arrived (its bytes never held). */
    streamed: StreamedUpload | null;
    /** Where that file is stored and what the service is sent instead of its bytes. */
    uploaded: UploadedFile | null;
  }
}

export const ONE_MIB = 1024 * 1024;

/**
 * Request bodies besides JSON: multipart uploads are streamed (routes of kind `upload` read them
 * with `readUpload`; size and part limits: docs/http-contract.md "General rules") and forms are parsed for the token endpoint
 * (RFC 6749); every other route refuses a form as a wrong content type.
 */
export const uploadsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('upload', null);
    app.decorateRequest('streamed', null);
    app.decorateRequest('uploaded', null);
    await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ONE_MIB }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  },
  { name: 'renopath-uploads' },
);

/** What the service of an `upload` route is sent as the body: the stored file, never its bytes. */
export interface UploadedFile {
  blob_key: string;
  name: string;
  mimetype: string;
  size: number;
  [field: string]: unknown;
}

/**
 * The hooks of an `upload` route: `read` takes the file from the multipart body (before the
 * Idempotency-Key claim, whose fingerprint includes its bytes), `store` puts it in the blob store
 * (after the claim, whose key names it) and `discard` removes it when the service refuses it.
 */
export function uploadHooks(route: RouteDef, blobs: BlobStore) {
  if (route.upload?.stream) return streamedUploadHooks(route, blobs);
  const read: preHandlerAsyncHookHandler = async (request) => {
    request.upload = await readUpload(request, route.accept ?? [], route.upload);
  };
  const store: preHandlerAsyncHookHandler = async (request) => {
    const upload = request.upload!;
    const serviceKey = request.idempotency?.serviceKey;
    // A keyed retry writes the same bytes under the same key, which the first attempt's file may already name.
    const key = `uploads/${serviceKey ? newId({ idempotency_key: serviceKey }, 'upload') : randomUUID()}`;
    request.uploaded = { blob_key: key, name: upload.name, mimetype: upload.mimetype, size: upload.bytes.length, ...upload.fields };
    await blobs.put(key, upload.bytes, upload.mimetype);
  };
  return { read, store, discard: discardRefused(blobs), leftover: null };
}

/**
 * A large file (`upload.stream`: portfolio runs) goes to the blob store as it arrives, under a key of
 * its own: the Idempotency-Key's fingerprint needs its hash, known only once it is stored. A replay, a
 * failed claim or a refusal removes it (`leftover`, `discard`).
 */
function streamedUploadHooks(route: RouteDef, blobs: BlobStore) {
  const read: preHandlerAsyncHookHandler = async (request) => {
    const key = `uploads/${randomUUID()}`;
    request.streamed = await readStreamedUpload(
      request,
      route.accept ?? [],
      route.upload ?? {},
      key,
      (bytes, mimetype) => blobs.putStream(key, bytes, mimetype),
      () => blobs.delete(key),
    );
  };
  const store: preHandlerAsyncHookHandler = async (request) => {
    const { key, name, mimetype, size, fields } = request.streamed!;
    request.uploaded = { blob_key: key, name, mimetype, size, ...fields };
  };
  // Stored but never handed to the service: the key answered a replay, or its claim failed.
  const leftover: onResponseAsyncHookHandler = async (request) => {
    if (!request.streamed || request.uploaded) return;
    await blobs.delete(request.streamed.key).catch((err: unknown) => request.log.warn({ err }, 'could not remove an upload'));
  };
  return { read, store, discard: discardRefused(blobs), leftover };
}

/**
 * The service or the gateway's own message check refused the file (unknown estate, validation): its
 * bytes must not linger. After a timeout or a late read model (503) the file may be stored, and the bytes stay.
 */
function discardRefused(blobs: BlobStore): onErrorAsyncHookHandler {
  return async (request, _reply, error) => {
    if (!request.uploaded) return;
    if (!((error instanceof DomainError && error.status < 500) || error instanceof HttpError)) return;
    await blobs.delete(request.uploaded.blob_key).catch((err: unknown) => request.log.warn({ err }, 'could not remove a refused upload'));
  };
}

/** Uploads are limited to 25 MiB (docs/http-contract.md "General rules"): one `file` part and a few small fields. */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
export const UPLOAD_LIMITS = {
  fileSize: UPLOAD_LIMIT_BYTES,
  files: 1,
  fields: 4,
  parts: 5,
  fieldSize: 1024,
  fieldNameSize: 100,
  headerPairs: 100,
};

export interface Upload {
  bytes: Buffer;
  /** The form fields a route takes besides `file` and `name` (RouteDef `upload.fields`). */
  fields: Record<string, string>;
  /** The `name` part, else the file name the client sent, else `upload`. */
  name: string;
  /** Decided from the bytes. */
  mimetype: string;
}

/**
 * Reads a `multipart/form-data` upload: exactly one part `file`, optionally a part `name`. Wrong
 * content type: 415; over the limit: 413; a malformed body or unexpected parts: 400; bytes that
 * are not one of `accept`: 415.
 */
export async function readUpload(
  request: FastifyRequest,
  accept: readonly string[],
  options: { maxBytes?: number; fields?: readonly string[] } = {},
): Promise<Upload> {
  if (!request.isMultipart()) throw new HttpError(415, ['content-type must be multipart/form-data with a part named file']);
  let bytes = null as Buffer | null;
  let filename = '';
  let name: string | null = null;
  const fields: Record<string, string> = {};
  const maxBytes = options.maxBytes ?? UPLOAD_LIMIT_BYTES;
  try {
    ({ filename, name } = await readParts(request, options.fields, fields, maxBytes, async (part) => {
      bytes = await readToLimit(part);
    }));
  } catch (error) {
    const refusal = uploadError(error, maxBytes);
    if (refusal.statusCode === 413) stopReading(request);
    throw refusal;
  }
  if (!bytes) throw new HttpError(400, ['file is required (a multipart part named file)']);
  if (bytes.length === 0) throw new HttpError(400, ['file must not be empty']);
  const mimetype = (await sniffMediaType(bytes)) ?? (accept.includes('text/csv') && isText(bytes) ? 'text/csv' : null);
  if (!mimetype || !accept.includes(mimetype)) {
    throw new HttpError(415, [`file must be one of ${accept.join(', ')} (decided from its content)`]);
  }
  const chosen = displayName(name ?? filename);
  return { bytes, fields, mimetype, name: chosen === '' ? 'upload' : chosen };
}

/**
 * The parts of an upload's body: the part `file` handed to `onFile` as it comes, `name` and the route's
 * fields (into `fields`); any other part is a 400. What the caller does on a refusal is its own.
 */
async function readParts(
  request: FastifyRequest,
  allowed: readonly string[] | undefined,
  fields: Record<string, string>,
  maxBytes: number,
  onFile: (part: MultipartFile) => Promise<void>,
): Promise<{ filename: string; name: string | null }> {
  let filename = '';
  let name: string | null = null;
  for await (const part of request.parts({ limits: { ...UPLOAD_LIMITS, fileSize: maxBytes } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        await part.toBuffer().catch(() => undefined);
        throw new HttpError(400, [`${part.fieldname} is not an allowed part; send the file as the part named file`]);
      }
      filename = part.filename;
      await onFile(part);
    } else if (part.fieldname === 'name') {
      name = String(part.value);
    } else if (allowed?.includes(part.fieldname)) {
      fields[part.fieldname] = String(part.value);
    } else {
      throw new HttpError(400, [`${part.fieldname} is not an allowed part`]);
    }
  }
  return { filename, name };
}

/** An upload streamed into the blob store as it arrived (`readStreamedUpload`): its bytes were never held whole. */
export interface StreamedUpload {
  /** The blob the bytes were stored under. */
  key: string;
  size: number;
  /** SHA-256 of the bytes, computed as they passed (the idempotency fingerprint's, without the bytes). */
  sha256: Buffer;
  fields: Record<string, string>;
  name: string;
  mimetype: string;
}

/** The first bytes the media type is decided from; the rest of the file is never looked at here. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Reads a `multipart/form-data` upload as `readUpload` does (one part `file`, optional `name` and the
 * route's fields, the same refusals), but streams the file part to `store` as it arrives instead of
 * holding it: its media type is decided from its first 64 KiB, its SHA-256 and size counted on the way,
 * and a file past `maxBytes` is refused (413) with nothing left stored. A refusal after the file was
 * stored (a wrong later part) deletes it through `discard`.
 */
export async function readStreamedUpload(
  request: FastifyRequest,
  accept: readonly string[],
  options: { maxBytes?: number; fields?: readonly string[] },
  key: string,
  store: (body: AsyncIterable<Buffer>, mimetype: string) => Promise<unknown>,
  discard: () => Promise<void>,
): Promise<StreamedUpload> {
  if (!request.isMultipart()) throw new HttpError(415, ['content-type must be multipart/form-data with a part named file']);
  const maxBytes = options.maxBytes ?? UPLOAD_LIMIT_BYTES;
  let stored = null as { size: number; sha256: Buffer; mimetype: string } | null;
  let filename = '';
  let name: string | null = null;
  const fields: Record<string, string> = {};
  try {
    ({ filename, name } = await readParts(request, options.fields, fields, maxBytes, async (part) => {
      stored = await streamPart(part.file as NodeJS.ReadableStream & { truncated?: boolean }, accept, store);
    }));
  } catch (error) {
    if (stored) await discard().catch(() => undefined);
    const refusal = uploadError(error, maxBytes);
    if (refusal.statusCode === 413 || refusal.statusCode === 415) stopReading(request);
    throw refusal;
  }
  if (!stored) throw new HttpError(400, ['file is required (a multipart part named file)']);
  const chosen = displayName(name ?? filename);
  return { key, ...stored, fields, name: chosen === '' ? 'upload' : chosen };
}

/** One file part into the store: sniffed from its head, hashed and counted as it passes, refused past the limit. */
async function streamPart(
  file: NodeJS.ReadableStream & { truncated?: boolean },
  accept: readonly string[],
  store: (body: AsyncIterable<Buffer>, mimetype: string) => Promise<unknown>,
): Promise<{ size: number; sha256: Buffer; mimetype: string }> {
  const iterator = (file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  // Refused the moment the limit is passed: busboy then drops the rest of the part but ends it only at
  // the part's end, which for a body sent without end never comes (see readToLimit).
  const limit = new Promise<never>((_, reject) => {
    file.once('limit', () => reject(Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })));
  });
  limit.catch(() => undefined);
  const chunks = { next: () => Promise.race([iterator.next(), limit]) };
  const { chunks: head, ended } = await takeHead(chunks, (_, bytes) => bytes >= SNIFF_BYTES + 4);
  if (file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  const first = Buffer.concat(head);
  if (first.length === 0) throw new HttpError(400, ['file must not be empty']);
  const mimetype = (await sniffMediaType(first)) ?? (accept.includes('text/csv') && isText(first, !ended) ? 'text/csv' : null);
  if (!mimetype || !accept.includes(mimetype)) {
    throw new HttpError(415, [`file must be one of ${accept.join(', ')} (decided from its content)`], { connection: 'close' });
  }
  const hash = createHash('sha256');
  let size = 0;
  async function* body(): AsyncGenerator<Buffer> {
    for (const chunk of head) {
      hash.update(chunk);
      size += chunk.length;
      yield chunk;
    }
    if (!ended) {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        hash.update(next.value);
        size += next.value.length;
        yield next.value;
      }
    }
    // busboy ends a part at the limit and marks it truncated: the store must not keep the cut file.
    if (file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  }
  await store(body(), mimetype);
  return { size, sha256: hash.digest(), mimetype };
}

/**
 * A file's name is shown and offered as a download name, never used as a path: keep its last path
 * segment, drop control characters, and cap its length, whichever part it came from.
 */
export function displayName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
}

/**
 * The file part's bytes, refused (413) the moment they pass the limit: busboy says so with 'limit' and
 * then drops the rest of the part, and the multipart plugin's own check waits for the part's end,
 * which for a body sent without end comes after everything the client sends. The plugin's toBuffer
 * still reads the part: it is what fails on a body that ends inside the part (the part's own stream
 * then neither ends nor errors, and reading it alone waited for ever).
 */
function readToLimit(part: { file: NodeJS.ReadableStream; toBuffer(): Promise<Buffer> }): Promise<Buffer> {
  const whole = part.toBuffer();
  // Past the limit the race is decided; whatever toBuffer says afterwards is not an unhandled rejection.
  whole.catch(() => undefined);
  const limit = new Promise<never>((_, reject) => {
    part.file.once('limit', () => reject(Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })));
  });
  return Promise.race([whole, limit]);
}

/**
 * An upload over the limit is refused at the limit: without a Content-Length (a chunked body) the
 * parser would otherwise read, and throw away, whatever the client goes on sending (100 MB took 2 s)
 * before answering. The body stops being read here, and the 413 says `connection: close`, so Node
 * ends the socket once the answer is written instead of waiting for the rest of the body.
 */
function stopReading(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.pause();
}

/**
 * Text a CSV route takes: no binary format `file-type` knows (checked before), no NUL byte and valid
 * UTF-8 in its first 64 KiB (a multi-byte character cut at that edge is allowed).
 */
function isText(bytes: Buffer, more = false): boolean {
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(more || head.length < bytes.length ? head.subarray(0, head.length - 4) : head);
    return true;
  } catch {
    return false;
  }
}

function uploadError(error: unknown, maxBytes = UPLOAD_LIMIT_BYTES): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, [`file is larger than the ${maxBytes / 1024 / 1024} MiB limit`], { connection: 'close' });
    case 'FST_FILES_LIMIT':
      return new HttpError(400, ['only one file may be uploaded at a time']);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(400, ['too many parts; send one part file and optionally a part name']);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, ['content-type must be multipart/form-data with a part named file']);
  }
  // busboy's own errors: no boundary, truncated parts, malformed headers.
  return new HttpError(400, ['body is not valid multipart/form-data']);
}

/** Office 97-2003 documents, told apart by `legacyOffice` (file-type names them all alike). */
const LEGACY_OFFICE = ['application/msword', 'application/vnd.ms-powerpoint', 'application/vnd.ms-excel'] as const;

/**
 * The media type of an upload, decided from its bytes (docs/http-contract.md "Estates and their parts") by `file-type`: the client's
 * content type and file name are not trusted. Only the types Renopath accepts as a file or a medium
 * (the contracts' lists) come out; anything else is null.
 */
export const RECOGNISED_MEDIA_TYPES: ReadonlySet<string> = new Set([...FILE_MEDIA_TYPES, ...MEDIA_MEDIA_TYPES]);

export async function sniffMediaType(bytes: Buffer): Promise<string | null> {
  if (bytes.length === 0) return null;
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return null;
  // file-type names every OLE2 compound file alike; Word, Excel and PowerPoint 97-2003 differ only inside.
  if (found.mime === 'application/x-cfb') return legacyOffice(bytes);
  return RECOGNISED_MEDIA_TYPES.has(found.mime) ? found.mime : null;
}

/** The stream names of an OLE2 file's directory (UTF-16) tell which Office 97-2003 document it is. */
function legacyOffice(bytes: Buffer): string | null {
  const [word, powerPoint, excel] = LEGACY_OFFICE;
  const text = bytes.toString('utf16le');
  if (text.includes('WordDocument')) return word;
  if (text.includes('PowerPoint Document')) return powerPoint;
  if (text.includes('Workbook') || text.includes('Book')) return excel;
  return null;
}
