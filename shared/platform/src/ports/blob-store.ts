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

export interface BlobStore {
  /** Stores bytes under a key (overwrites). Keys are `/`-separated, no `..`. */
  put(key: string, body: Buffer, contentType: string): Promise<BlobInfo>;
  get(key: string): Promise<Blob | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
