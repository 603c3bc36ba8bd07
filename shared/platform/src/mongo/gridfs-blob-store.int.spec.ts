import { afterAll, describe, expect, it } from 'vitest';
import { GridFSBucket, MongoClient } from 'mongodb';
import { blobStoreContract } from '../testing/blob-store.contract.ts';
import { uniqueName } from '../testing/contract-helpers.ts';
import { openGridFsBlobStore } from './gridfs-blob-store.ts';
import { startTestMongo } from './test-server.ts';

const server = await startTestMongo('blobs');
const mongo = 'skip' in server ? undefined : server;
if (!mongo) console.warn(`[skip] BlobStore contract: gridfs — ${(server as { skip: string }).skip}`);

describe.skipIf(!mongo)('GridFsBlobStore', () => {
  const { url, database, source } = mongo ?? { url: '', database: '', source: '' };
  const open = (bucketName: string) => openGridFsBlobStore({ url, database, bucketName });
  const raw = new MongoClient(url || 'mongodb://unused');
  afterAll(async () => {
    await raw.close();
    await mongo?.stop();
  });

  blobStoreContract(`gridfs (${source})`, (storage) => open(storage));

  it('keeps one revision per key, with content type and creation time in metadata', async () => {
    const bucketName = uniqueName('revisions');
    const store = await open(bucketName);
    await store.put('a/b.pdf', Buffer.from('one'), 'application/pdf');
    const info = await store.put('a/b.pdf', Buffer.from('two'), 'text/plain');
    const files = await new GridFSBucket(raw.db(database), { bucketName }).find({ filename: 'a/b.pdf' }).toArray();
    expect(files).toHaveLength(1);
    expect(files[0]!.metadata).toEqual({ content_type: 'text/plain', created_at: info.created_at });
    expect(files[0]).not.toHaveProperty('contentType');
    await store.close();
  });

  it('leaves exactly one revision, the one reads return, after concurrent overwrites of a key', async () => {
    const bucketName = uniqueName('race');
    const [first, second] = [await open(bucketName), await open(bucketName)];
    const bodies = Array.from({ length: 6 }, (_, i) => `version ${i}`);
    await Promise.all(bodies.map((body, i) => (i % 2 ? first : second).put('k.txt', Buffer.from(body), 'text/plain')));
    const files = await new GridFSBucket(raw.db(database), { bucketName }).find({ filename: 'k.txt' }).toArray();
    expect(files).toHaveLength(1);
    const read = (await first.get('k.txt'))!.body.toString();
    expect(bodies).toContain(read);
    expect(files[0]!.length).toBe(read.length);
    await Promise.all([first.close(), second.close()]);
  });

  it('stores a body larger than one chunk', async () => {
    const store = await open(uniqueName('large'));
    const body = Buffer.alloc(600 * 1024, 7);
    body[body.length - 1] = 9;
    await store.put('big.bin', body, 'application/octet-stream');
    const blob = await store.get('big.bin');
    expect(blob?.size).toBe(body.length);
    expect(blob?.body.equals(body)).toBe(true);
    await store.close();
  });

  it('refuses a bucket name that is not a plain name', async () => {
    await expect(open('a.b')).rejects.toThrow(/bucket name/);
    await expect(open('')).rejects.toThrow(/bucket name/);
  });
});
