import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { GridFSBucket, MongoClient, MongoGridFSChunkError, MongoRuntimeError, type Db, type FindCursor, type GridFSFile } from 'mongodb';
import type { Blob, BlobInfo, BlobStore, BlobStream } from '../ports/blob-store.ts';
import { assertDatabaseName, blobKeySegments, databaseFromUrl } from './mongo-names.ts';

export interface GridFsBlobStoreOptions {
  /** `mongodb://host:port/...` or `mongodb+srv://...`. */
  url: string;
  /** Default: the database in the URL's path, else `renopath`. */
  database?: string;
  /** Collections `<bucketName>.files` and `<bucketName>.chunks`: one bucket per context. */
  bucketName: string;
}

/** What `put` stores in a file's `metadata` (GridFS's own `contentType` field is deprecated). */
interface BlobMetadata {
  content_type: string;
  created_at: string;
}

/** The newest revision first: by upload time, then by id (ids of one process grow; a tie across processes is rare and resolved the same way by every reader). */
const NEWEST_FIRST = { uploadDate: -1, _id: -1 } as const;
/** A read that loses its file to a concurrent overwrite or delete looks the key up again, this many times. */
const READ_ATTEMPTS = 3;

/** The file or one of its chunks went away while we read it (a concurrent overwrite or delete). */
function vanished(error: unknown): boolean {
  if (error instanceof MongoGridFSChunkError) return true;
  // The driver's messages for a missing file document (`openDownloadStream`, `delete`).
  return error instanceof MongoRuntimeError && /FileNotFound|File not found/.test(error.message);
}

function infoOf(key: string, file: GridFSFile): BlobInfo {
  const metadata = (file.metadata ?? {}) as Partial<BlobMetadata>;
  return {
    key,
    content_type: metadata.content_type ?? 'application/octet-stream',
    size: file.length,
    created_at: metadata.created_at ?? file.uploadDate.toISOString(),
  };
}

/**
 * Blobs in a GridFS bucket, the key as the file name. An overwrite uploads a new revision, then
 * deletes every revision but the newest it sees; readers always take the newest. With writers racing
 * on one key, no one ever deletes the newest revision, and every other one is seen by the cleanup of
 * a put that finished after it was written, so exactly one survives (and a revision left by a put that
 * died before its cleanup goes with the next put). "Newest" is by upload time, which the driver takes
 * from the writer's clock: across machines, keep clocks in sync.
 */
export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    db: Db,
    bucketName: string,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName });
  }

  static async open(options: GridFsBlobStoreOptions): Promise<GridFsBlobStore> {
    const database = assertDatabaseName(options.database ?? databaseFromUrl(options.url) ?? 'renopath');
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(options.bucketName)) {
      throw new TypeError(`invalid GridFS bucket name ${JSON.stringify(options.bucketName)}: letters, digits, _ and - (at most 100)`);
    }
    const client = new MongoClient(options.url);
    try {
      await client.connect();
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return new GridFsBlobStore(client, client.db(database), options.bucketName);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<BlobInfo> {
    this.assertOpen();
    blobKeySegments(key);
    if (!Buffer.isBuffer(body)) throw new TypeError('blob body must be a Buffer');
    if (typeof contentType !== 'string') throw new TypeError('blob content type must be a string');
    const metadata: BlobMetadata = { content_type: contentType, created_at: new Date().toISOString() };
    const upload = this.bucket.openUploadStream(key, { metadata });
    // An empty body is a file of length 0: end() without a chunk.
    if (body.length > 0) upload.end(body);
    else upload.end();
    await finished(upload);
    const file = upload.gridFSFile;
    if (!file) throw new Error(`GridFS upload of ${key} finished without a file document`);
    // Every revision but the newest, which may be another writer's: see the class comment.
    await this.deleteFiles(this.bucket.find({ filename: key }, { sort: NEWEST_FIRST, skip: 1 }));
    return { key, ...metadata, size: body.length };
  }

  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<BlobInfo> {
    this.assertOpen();
    blobKeySegments(key);
    if (typeof contentType !== 'string') throw new TypeError('blob content type must be a string');
    const metadata: BlobMetadata = { content_type: contentType, created_at: new Date().toISOString() };
    const upload = this.bucket.openUploadStream(key, { metadata });
    try {
      await pipeline(Readable.from(body), upload);
    } catch (error) {
      // A body that failed leaves no revision: the chunks written so far go with the unfinished file.
      await upload.abort().catch(() => undefined);
      throw error;
    }
    const file = upload.gridFSFile;
    if (!file) throw new Error(`GridFS upload of ${key} finished without a file document`);
    await this.deleteFiles(this.bucket.find({ filename: key }, { sort: NEWEST_FIRST, skip: 1 }));
    return { key, ...metadata, size: file.length };
  }

  async getStream(key: string): Promise<BlobStream | null> {
    this.assertOpen();
    blobKeySegments(key);
    const file = await this.newest(key);
    if (!file) return null;
    // Read once, as it comes: a concurrent overwrite or delete fails the stream (the caller's read fails, not a wrong body).
    return { ...infoOf(key, file), body: this.bucket.openDownloadStream(file._id) as AsyncIterable<Buffer> };
  }

  async get(key: string): Promise<Blob | null> {
    this.assertOpen();
    blobKeySegments(key);
    for (let attempt = 1; ; attempt++) {
      const file = await this.newest(key);
      if (!file) return null;
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of this.bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
        return { ...infoOf(key, file), body: Buffer.concat(chunks) };
      } catch (error) {
        if (!vanished(error) || attempt >= READ_ATTEMPTS) throw error;
      }
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    this.assertOpen();
    blobKeySegments(key);
    const file = await this.newest(key);
    return file ? infoOf(key, file) : null;
  }

  async delete(key: string): Promise<void> {
    this.assertOpen();
    blobKeySegments(key);
    await this.deleteFiles(this.bucket.find({ filename: key }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  private async newest(key: string): Promise<GridFSFile | null> {
    const [file] = await this.bucket.find({ filename: key }, { sort: NEWEST_FIRST, limit: 1 }).toArray();
    return file ?? null;
  }

  /** Deletes each file (chunks included); one already deleted by someone else is not an error. */
  private async deleteFiles(files: FindCursor<GridFSFile>): Promise<void> {
    for (const file of await files.project<Pick<GridFSFile, '_id'>>({ _id: 1 }).toArray()) {
      try {
        await this.bucket.delete(file._id);
      } catch (error) {
        if (!vanished(error)) throw error;
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('blob store is closed');
  }
}

export function openGridFsBlobStore(options: GridFsBlobStoreOptions): Promise<GridFsBlobStore> {
  return GridFsBlobStore.open(options);
}
