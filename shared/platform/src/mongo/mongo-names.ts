/** Names the MongoDB adapters give to databases, collections and blobs, checked before any reaches the server. */

/**
 * Database names: letters, digits, `_` and `-`, at most 63 (MongoDB refuses `/\. "$*<>:|?` and names of
 * 64 bytes or more, and some of those characters differ by platform; this subset is safe everywhere).
 */
export function assertDatabaseName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new TypeError(`invalid MongoDB database name ${JSON.stringify(name)}: letters, digits, _ and - (at most 63)`);
  }
  return name;
}

/** A context's collection-name prefix (e.g. `renopath_estates`): the same characters as a database name. */
export function assertPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(prefix)) {
    throw new TypeError(`invalid collection prefix ${JSON.stringify(prefix)}: letters, digits, _ and - (at most 100)`);
  }
  return prefix;
}

/** MongoDB refuses a namespace (`database.collection`) longer than 255 bytes. */
const MAX_NAMESPACE_BYTES = 255;

/**
 * The MongoDB collection holding the port's collection `collection`: `<prefix>.rm.<collection>`. The `rm.`
 * segment keeps read-model collections apart from the prefix's own `<prefix>.checkpoints`, whatever a
 * projection names its collections.
 */
export function documentsCollection(database: string, prefix: string, collection: string): string {
  if (typeof collection !== 'string' || collection === '' || collection.includes('\0') || collection.includes('$')) {
    throw new TypeError(`invalid read-store collection name ${JSON.stringify(collection)}: not empty, without $ or NUL`);
  }
  const name = `${prefix}.rm.${collection}`;
  if (Buffer.byteLength(`${database}.${name}`) > MAX_NAMESPACE_BYTES) {
    throw new TypeError(
      `read-store collection name ${JSON.stringify(collection)} is too long for MongoDB (namespace over ${MAX_NAMESPACE_BYTES} bytes)`,
    );
  }
  return name;
}

export function checkpointsCollection(prefix: string): string {
  return `${prefix}.checkpoints`;
}

/**
 * The database named in a `mongodb://` or `mongodb+srv://` URL's path, if any. Parsed by hand: a URL
 * with several hosts (`mongodb://a:1,b:2/db`) is not a WHATWG URL.
 */
export function databaseFromUrl(url: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name === '' ? undefined : name;
}

/**
 * Splits a blob key into `/`-separated segments with the filesystem store's rules (no empty, `.` or `..`
 * segment, no backslash or NUL), so a key valid on one blob store is valid on the other.
 */
export function blobKeySegments(key: string): string[] {
  const parts = typeof key === 'string' ? key.split('/') : [''];
  const bad = parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'));
  if (bad) throw new TypeError(`invalid blob key: ${JSON.stringify(key)}`);
  return parts;
}
