import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobStoreContract } from '../testing/blob-store.contract.ts';
import { openFsBlobStore } from './fs-blob-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'renopath-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

blobStoreContract('filesystem', (storage) => openFsBlobStore({ root: join(dir, storage) }));

describe('FsBlobStore', () => {
  it('leaves no temporary files behind and never writes outside its root', async () => {
    const root = join(dir, 'tidy');
    const store = await openFsBlobStore({ root });
    await store.put('a/b.txt', Buffer.from('x'), 'text/plain');
    await store.put('a/b.txt', Buffer.from('y'), 'text/plain');
    await expect(store.put('../outside.txt', Buffer.from('z'), 'text/plain')).rejects.toThrow(/invalid blob key/);
    expect(readdirSync(join(root, 'data', 'a'))).toEqual(['b.txt']);
    expect(readdirSync(root).sort()).toEqual(['data', 'meta']);
  });
});
