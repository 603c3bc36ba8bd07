/** Blob store port: uploads and generated PDFs. Filesystem embedded, GridFS distributed. */

export interface BlobInfo {
  key: string;
  content_type: string;
  size: number;
  created_at: string;
}

export interface Blob extends BlobInfo {
  body: Buffer;
}

/** A blob whose bytes are read as they come (a large upload is never held whole). */
export interface BlobStream extends BlobInfo {
  body: AsyncIterable<Buffer>;
}

export interface BlobStore {
  /** Stores bytes under a key (overwrites). Keys are `/`-separated, no `..`. */
  put(key: string, body: Buffer, contentType: string): Promise<BlobInfo>;
  /**
   * Stores bytes as they come, without holding them whole. The blob appears only once every byte is
   * stored: a body that fails (the client went away, a limit was passed) leaves nothing under the key.
   */
  putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<BlobInfo>;
  get(key: string): Promise<Blob | null>;
  /** The bytes as a stream of chunks; null for a missing key. */
  getStream(key: string): Promise<BlobStream | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
