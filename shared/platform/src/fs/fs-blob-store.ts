import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Blob, BlobInfo, BlobStore, BlobStream } from '../ports/blob-store.ts';

export interface FsBlobStoreOptions {
  /** Directory that holds the blobs; created when missing. */
  root: string;
}

interface Sidecar {
  content_type: string;
  created_at: string;
}

/** Splits a key into path segments, refusing anything that could leave the root. */
function segments(key: string): string[] {
  const parts = key.split('/');
  const bad = parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'));
  if (bad) throw new TypeError(`invalid blob key: ${JSON.stringify(key)}`);
  return parts;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Blobs as files: bytes under `<root>/data/<key>`, content type and creation time in
 * `<root>/meta/<key>.json`, so no key can collide with another key's sidecar.
 */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private dataPath(key: string): string {
    return join(this.root, 'data', ...segments(key));
  }

  private metaPath(key: string): string {
    return `${join(this.root, 'meta', ...segments(key))}.json`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<BlobInfo> {
    const dataPath = this.dataPath(key);
    const metaPath = this.metaPath(key);
    const sidecar: Sidecar = { content_type: contentType, created_at: new Date().toISOString() };
    // Bytes first, then the sidecar: a reader never finds a sidecar for bytes that are not there.
    await this.writeAtomically(dataPath, body);
    await this.writeAtomically(metaPath, Buffer.from(JSON.stringify(sidecar)));
    return { key, ...sidecar, size: body.length };
  }

  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<BlobInfo> {
    const dataPath = this.dataPath(key);
    const metaPath = this.metaPath(key);
    const sidecar: Sidecar = { content_type: contentType, created_at: new Date().toISOString() };
    const size = await this.writeAtomically(dataPath, body);
    await this.writeAtomically(metaPath, Buffer.from(JSON.stringify(sidecar)));
    return { key, ...sidecar, size };
  }

  async getStream(key: string): Promise<BlobStream | null> {
    return this.whenPresent(async () => {
      const sidecar = await this.sidecar(key);
      // Opened before answering: a blob deleted between the stat and the read is missing, not a failed stream.
      const file = await open(this.dataPath(key), 'r');
      try {
        const { size } = await file.stat();
        // The handle's own stream closes it at the end (or when the reader stops early).
        const body = file.createReadStream({ highWaterMark: 64 * 1024 });
        return { key, content_type: sidecar.content_type, created_at: sidecar.created_at, size, body };
      } catch (error) {
        await file.close();
        throw error;
      }
    });
  }

  async get(key: string): Promise<Blob | null> {
    // The bytes give the size: no stat as `head` needs.
    return this.whenPresent(async () => {
      const sidecar = await this.sidecar(key);
      const body = await readFile(this.dataPath(key));
      return { key, content_type: sidecar.content_type, created_at: sidecar.created_at, size: body.length, body };
    });
  }

  async head(key: string): Promise<BlobInfo | null> {
    return this.whenPresent(async () => {
      const sidecar = await this.sidecar(key);
      const { size } = await stat(this.dataPath(key));
      return { key, content_type: sidecar.content_type, created_at: sidecar.created_at, size };
    });
  }

  private async sidecar(key: string): Promise<Sidecar> {
    return JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Sidecar;
  }

  /** A blob whose sidecar or bytes are missing does not exist. */
  private async whenPresent<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // Sidecar first: once it is gone the blob is invisible, even if removing the bytes fails.
    await rm(this.metaPath(key), { force: true });
    await rm(this.dataPath(key), { force: true });
  }

  async close(): Promise<void> {}

  /** Temp file in the same directory (same filesystem), fsync, then rename: readers see old or new, never half. */
  private async writeAtomically(path: string, body: Buffer | AsyncIterable<Buffer>): Promise<number> {
    await mkdir(dirname(path), { recursive: true });
    const temp = join(dirname(path), `.tmp-${randomUUID()}`);
    try {
      const file = await open(temp, 'w');
      let size = 0;
      try {
        if (Buffer.isBuffer(body)) {
          await file.writeFile(body);
          size = body.length;
        } else {
          for await (const chunk of body) {
            for (let at = 0; at < chunk.length; ) at += (await file.write(chunk, at)).bytesWritten;
            size += chunk.length;
          }
        }
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path);
      return size;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

export async function openFsBlobStore(options: FsBlobStoreOptions): Promise<FsBlobStore> {
  await mkdir(options.root, { recursive: true });
  return new FsBlobStore(options.root);
}
