import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childToken, keyedPost, startChild, type ServiceChild } from './child.ts';

/**
 * Hole 3 of the attack issue: a keyed write whose process died between storing it and answering
 * must, when retried with the same key, answer the original resource and write nothing twice.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'renopath-crash-retry-'));
let child: ServiceChild | null = null;
afterAll(async () => {
  await child?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

const list = async (url: string, token: string) =>
  (await (await fetch(`${url}/estates`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{ id: string; name: string }>;

describe('a keyed write cut off by kill -9 after it was stored', () => {
  it('is answered on retry with the original status and resource, and stored once', { timeout: 90_000 }, async () => {
    // First life: the process SIGKILLs itself once the service has stored a `crash-` keyed write.
    child = await startChild(dataDir, { RENOPATH_TEST_CRASH_AFTER_KEY: 'crash-' });
    let token = await childToken(child.url);
    const body = { name: 'Crash-proof', external_id: 'crm-crash-1', address: { zip_code: '9000', country: 'BE' } };
    expect(await keyedPost(child.url, token, '/estates', body, 'crash-create-1')).toBeNull();
    await child.exited;

    // Second life, same data dir: the retry is answered at once (no 409), with the stored estate.
    child = await startChild(dataDir, { RENOPATH_TEST_CRASH_AFTER_KEY: 'crash-part-' });
    token = await childToken(child.url);
    const retried = await keyedPost(child.url, token, '/estates', body, 'crash-create-1');
    expect(retried?.status).toBe(201);
    const id = retried!.body['id'] as string;
    expect(retried!.body).toMatchObject({ name: 'Crash-proof', external_id: 'crm-crash-1' });
    const again = await keyedPost(child.url, token, '/estates', body, 'crash-create-1');
    expect(again).toEqual(retried);
    expect((await list(child.url, token)).filter((e) => e.name === 'Crash-proof').map((e) => e.id)).toEqual([id]);
    // Another key with the same external_id is a new request: still refused, the id is taken once.
    expect((await keyedPost(child.url, token, '/estates', body, 'another-key'))?.status).toBe(409);

    // A part added under a key, cut off the same way, is added once.
    const roof = { estate_roof_type: 'FLAT', surface_m2: 60 };
    expect(await keyedPost(child.url, token, `/estates/${id}/roofs`, roof, 'crash-part-1')).toBeNull();
    await child.exited;
    child = await startChild(dataDir);
    token = await childToken(child.url);
    const part = await keyedPost(child.url, token, `/estates/${id}/roofs`, roof, 'crash-part-1');
    expect(part?.status).toBe(201);
    const estate = (await (await fetch(`${child.url}/estates/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      roofs: Array<{ id: string }>;
    };
    expect(estate.roofs.map((r) => r.id)).toEqual([part!.body['id']]);
    // The same key with another body is still another request (422).
    expect((await keyedPost(child.url, token, `/estates/${id}/roofs`, { ...roof, surface_m2: 61 }, 'crash-part-1'))?.status).toBe(422);
  });
});
