import { afterEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../ports/blob-store.ts';
import { rejection, uniqueName } from './contract-helpers.ts';

/**
 * Opens a blob store on the storage named `storage`. A new name must give a store no other test
 * writes to; the same name again (after `close()`) must reopen the same blobs.
 */
export type BlobStoreFactory = (storage: string) => Promise<BlobStore>;

/** What every BlobStore adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function blobStoreContract(name: string, open: BlobStoreFactory): void {
  describe(`BlobStore contract: ${name}`, () => {
    const opened: BlobStore[] = [];
    const openStore = async (storage = uniqueName('blobs')): Promise<BlobStore> => {
      const store = await open(storage);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('stores bytes with their content type and tells their size and creation time', async () => {
      const store = await openStore();
      const key = `${uniqueName('estate')}/files/plan.pdf`;
      const body = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const info = await store.put(key, body, 'application/pdf');
      expect(info).toMatchObject({ key, content_type: 'application/pdf', size: body.length });
      expect(new Date(info.created_at).toISOString()).toBe(info.created_at);

      const blob = await store.get(key);
      expect(blob?.body.equals(body)).toBe(true);
      expect(blob).toMatchObject(info);
      expect(await store.head(key)).toEqual(info);
    });

    it('stores a stream of chunks and reads it back as a stream, without a half blob when the body fails', async () => {
      const store = await openStore();
      const key = `${uniqueName('upload')}/homes.csv`;
      const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 * 1024, i));
      const info = await store.putStream(
        key,
        (async function* () {
          yield* chunks;
        })(),
        'text/csv',
      );
      expect(info).toMatchObject({ key, content_type: 'text/csv', size: 40 * 64 * 1024 });
      const read = await store.getStream(key);
      expect(read).toMatchObject({ key, content_type: 'text/csv', size: info.size });
      const back: Buffer[] = [];
      for await (const chunk of read!.body) back.push(chunk);
      expect(Buffer.concat(back).equals(Buffer.concat(chunks))).toBe(true);
      expect(await store.getStream(`${uniqueName('missing')}/x.csv`)).toBeNull();

      const failing = `${uniqueName('upload')}/broken.csv`;
      const refused = store.putStream(
        failing,
        (async function* () {
          yield Buffer.from('external_id\n');
          throw new Error('client went away');
        })(),
        'text/csv',
      );
      expect(await rejection(refused)).toBeInstanceOf(Error);
      expect(await store.head(failing)).toBeNull();
    });

    it('answers null for a missing key, and deleting one is not an error', async () => {
      const store = await openStore();
      const key = `${uniqueName('missing')}/nothing.png`;
      expect(await store.get(key)).toBeNull();
      expect(await store.head(key)).toBeNull();
      await store.delete(key);
    });

    it('overwrites a key, keeps its neighbours, and deletes it', async () => {
      const store = await openStore();
      const folder = uniqueName('report');
      await store.put(`${folder}/a.pdf`, Buffer.from('first'), 'application/pdf');
      await store.put(`${folder}/b.txt`, Buffer.from('neighbour'), 'text/plain');
      await store.put(`${folder}/a.pdf`, Buffer.from('second version'), 'application/octet-stream');

      const a = await store.get(`${folder}/a.pdf`);
      expect(a?.body.toString()).toBe('second version');
      expect(a).toMatchObject({ content_type: 'application/octet-stream', size: 'second version'.length });

      await store.delete(`${folder}/a.pdf`);
      expect(await store.get(`${folder}/a.pdf`)).toBeNull();
      expect((await store.get(`${folder}/b.txt`))?.body.toString()).toBe('neighbour');
    });

    it('stores an empty body', async () => {
      const store = await openStore();
      const key = `${uniqueName('empty')}.bin`;
      await store.put(key, Buffer.alloc(0), 'application/octet-stream');
      expect((await store.get(key))?.body.length).toBe(0);
      expect((await store.head(key))?.size).toBe(0);
    });

    it('keeps blobs after close and reopen', async () => {
      const storage = uniqueName('blobs');
      const key = `${uniqueName('estate')}/photo.jpg`;
      const first = await open(storage);
      await first.put(key, Buffer.from('jpeg bytes'), 'image/jpeg');
      await first.close();
      const reopened = await openStore(storage);
      expect((await reopened.get(key))?.body.toString()).toBe('jpeg bytes');
    });

    for (const key of ['', '../escape', 'a/../../escape', '/absolute', 'a//b', 'a/', './a', 'a/./b']) {
      it(`rejects the key ${JSON.stringify(key)}`, async () => {
        const store = await openStore();
        expect(await rejection(store.put(key, Buffer.from('x'), 'text/plain'))).toBeInstanceOf(Error);
        expect(await rejection(store.get(key))).toBeInstanceOf(Error);
      });
    }
  });
}
