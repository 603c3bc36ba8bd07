import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadSigner } from '../src/plugins/downloads.ts';
import { DOCX, EXE, HEIC, HTML, JPEG, MP4, PDF, PNG, WEBP } from './files.ts';
import { multipart, startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;
let estateId: string;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PUBLIC = 'http://localhost:8080';

beforeAll(async () => {
  // Its own stack when distributed: it counts the uploads in progress in the blob store, which other files would add to.
  stack = await startStack({}, { own: true });
  owner = await stack.token();
  estateId = (await stack.as(owner).post('/estates', { name: 'With files' })).json().id;
});
afterAll(async () => stack?.close());

const E = () => `/estates/${estateId}`;
const pdfPart = { name: 'file', filename: 'epc.pdf', contentType: 'application/pdf', content: PDF };
/** Fetches a download link as a browser would: no bearer token. */
const download = (url: string) => stack.app.inject({ method: 'GET', url: url.slice(PUBLIC.length) });
const storedUploads = () => {
  try {
    return readdirSync(join(stack.dataDir, 'blobs', 'blobs', 'data', 'uploads')).length;
  } catch {
    return 0;
  }
};

describe('files and media: upload, signed download, delete (docs/http-contract.md "Estates and their parts")', () => {
  it('uploads a file, answers it with a signed link that works without a token, and lists it at once', async () => {
    const res = await stack.as(owner).upload(`${E()}/files`, [pdfPart]);
    expect(res.statusCode).toBe(201);
    const file = res.json();
    expect(file).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      estate_id: estateId,
      name: 'epc.pdf',
      mimetype: 'application/pdf',
      size: PDF.length,
      url: expect.stringMatching(
        /^http:\/\/localhost:8080\/v1\/downloads\/[A-Za-z0-9_-]+\/epc\.pdf\?expires=\d+&signature=[A-Za-z0-9_-]+$/,
      ),
      created_at: expect.stringMatching(/Z$/),
    });
    const expires = Number(new URL(file.url).searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const got = await download(file.url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toContain('epc.pdf');
    expect(got.rawPayload.equals(PDF)).toBe(true);

    const estate = (await stack.as(owner).get(E())).json();
    expect(estate.files).toEqual([{ ...file, url: expect.any(String) }]);
    expect((await download(estate.files[0].url)).statusCode).toBe(200);
  });

  it('offers the download under its exact name, with the characters RFC 5987 does not allow bare escaped', async () => {
    const res = await stack.as(owner).upload(`${E()}/files`, [{ ...pdfPart, filename: "O'Brien (1) é.pdf" }]);
    expect(res.statusCode).toBe(201);
    const got = await download(res.json().url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toBe(
      `inline; filename="O'Brien (1) _.pdf"; filename*=UTF-8''O%27Brien%20%281%29%20%C3%A9.pdf`,
    );
  });

  it('takes the name from the name part, and the type from the bytes, not from the client', async () => {
    const res = await stack.as(owner).upload(`${E()}/files`, [
      { name: 'name', content: 'Plattegrond gelijkvloers' },
      { name: 'file', filename: 'plan.bin', contentType: 'application/octet-stream', content: DOCX },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Plattegrond gelijkvloers',
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const image = await stack.as(owner).upload(`${E()}/files`, [{ name: 'file', filename: 'photo', content: PNG }]);
    expect(image.json().mimetype).toBe('image/png');
  });

  it('accepts JPEG, PNG, WebP and MP4 as media', async () => {
    for (const [content, type] of [
      [JPEG, 'image/jpeg'],
      [PNG, 'image/png'],
      [WEBP, 'image/webp'],
      [MP4, 'video/mp4'],
    ] as const) {
      const res = await stack.as(owner).upload(`${E()}/media`, [{ name: 'file', filename: 'm', content }]);
      expect(res.statusCode, type).toBe(201);
      expect(res.json().mimetype).toBe(type);
    }
    const estate = (await stack.as(owner).get(E())).json();
    expect(estate.media.map((m: { mimetype: string }) => m.mimetype)).toEqual(['image/jpeg', 'image/png', 'image/webp', 'video/mp4']);
    // The interface: the estate's media are its commercial_context.commercial_media_files ({id, name, url, mimetype}), in the list form too
    const files = estate.commercial_context.commercial_media_files;
    expect(files.map((m: { id: string }) => m.id)).toEqual(estate.media.map((m: { id: string }) => m.id));
    for (const file of files)
      expect(file).toMatchObject({
        id: expect.any(String),
        name: 'm',
        url: expect.stringMatching(/^http:\/\/localhost:8080\/v1\/downloads\//),
        mimetype: expect.any(String),
      });
    expect((await download(files[0].url)).statusCode).toBe(200);
    const listed = (await stack.as(owner).get('/estates')).json().find((e: { id: string }) => e.id === estateId);
    expect(listed.commercial_context.commercial_media_files.map((m: { mimetype: string }) => m.mimetype)).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
      'video/mp4',
    ]);
    expect((await download(listed.commercial_context.commercial_media_files[1].url)).statusCode).toBe(200);
    const item = (await stack.as(owner).get('/v1/estate/list'))
      .json()
      .estates.find((i: { estate: { id: string } }) => i.estate.id === estateId);
    expect(item.estate.commercial_context.commercial_media_files).toHaveLength(4);
  });

  it('refuses bytes of a type that is not allowed with 415, whatever the client says', async () => {
    const before = storedUploads();
    const cases: Array<[string, Buffer, string]> = [
      ['files', EXE, 'application/pdf'],
      ['files', HTML, 'image/png'],
      ['files', MP4, 'video/mp4'],
      ['media', PDF, 'application/pdf'],
      ['media', HEIC, 'image/heic'],
      ['media', DOCX, 'image/jpeg'],
    ];
    for (const [collection, content, claimed] of cases) {
      const res = await stack.as(owner).upload(`${E()}/${collection}`, [{ name: 'file', filename: 'x', contentType: claimed, content }]);
      expect(res.statusCode, `${collection} ${claimed}`).toBe(415);
      expect(res.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
      expect(res.json().message[0]).toMatch(/^file must be one of/);
    }
    expect(storedUploads()).toBe(before);
  });

  it('refuses an upload over 25 MiB with 413', async () => {
    const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    PDF.copy(big);
    const res = await stack.as(owner).upload(`${E()}/files`, [{ name: 'file', filename: 'big.pdf', content: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: ['file is larger than the 25 MiB limit'] });
  });

  it('refuses malformed multipart and wrong content types', async () => {
    const url = `${E()}/files`;
    const noBoundary = await stack.as(owner).raw(url, 'whatever', 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toEqual(['body is not valid multipart/form-data']);

    const { payload, contentType } = multipart([pdfPart]);
    const truncated = await stack.as(owner).raw(url, payload.subarray(0, 80), contentType);
    expect(truncated.statusCode).toBe(400);

    const garbage = await stack.as(owner).raw(url, 'this is not multipart at all', contentType);
    expect(garbage.statusCode).toBe(400);

    const noFile = await stack.as(owner).upload(url, [{ name: 'name', content: 'only a name' }]);
    expect(noFile.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: ['file is required (a multipart part named file)'] });

    const wrongPart = await stack.as(owner).upload(url, [{ name: 'document', filename: 'a.pdf', content: PDF }]);
    expect(wrongPart.statusCode).toBe(400);
    expect(wrongPart.json().message[0]).toMatch(/document is not an allowed part/);

    const twoFiles = await stack.as(owner).upload(url, [pdfPart, { ...pdfPart, filename: 'b.pdf' }]);
    expect(twoFiles.statusCode).toBe(400);

    const empty = await stack.as(owner).upload(url, [{ name: 'file', filename: 'empty.pdf', content: Buffer.alloc(0) }]);
    expect(empty.json().message).toEqual(['file must not be empty']);

    const json = await stack.as(owner).post(url, { file: 'JVBERi0=' });
    expect(json.statusCode).toBe(415);
    // and the other way round: a JSON endpoint does not take multipart
    const intoJson = await stack.as(owner).upload('/estates', [pdfPart]);
    expect(intoJson.statusCode).toBe(415);
  });

  it('needs a token to upload; unknown estates answer 404 and leave no bytes behind', async () => {
    const { payload, contentType } = multipart([pdfPart]);
    const anonymous = await stack.app.inject({ method: 'POST', url: `${E()}/files`, headers: { 'content-type': contentType }, payload });
    expect(anonymous.statusCode).toBe(401);
    const before = storedUploads();
    expect((await stack.as(owner).upload(`/estates/${UNKNOWN}/files`, [pdfPart])).statusCode).toBe(404);
    expect((await stack.as(owner).upload('/estates/nope/media', [{ name: 'file', content: PNG, filename: 'a' }])).statusCode).toBe(404);
    expect(storedUploads()).toBe(before);
  });

  it('refuses a forged or expired link (403) and answers 404 once the file is deleted', async () => {
    const file = (await stack.as(owner).upload(`${E()}/files`, [pdfPart])).json();
    const url = new URL(file.url);
    const forged = `${PUBLIC}${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 3600}&signature=${url.searchParams.get('signature')}`;
    expect((await download(forged)).statusCode).toBe(403);
    expect((await download(`${PUBLIC}${url.pathname}`)).statusCode).toBe(403);
    expect((await download(file.url.replace('epc.pdf', 'other.pdf'))).statusCode).toBe(403);
    // an expired link, signed with the gateway's own secret
    const secret = Buffer.from(readFileSync(join(stack.dataDir, 'gateway', 'download-signing.key'), 'utf8'), 'hex');
    const key = Buffer.from(url.pathname.split('/')[3]!, 'base64url').toString();
    const past = new DownloadSigner(secret, PUBLIC, 3600, () => Date.now() - 2 * 3600_000).link(key, 'epc.pdf');
    expect((await download(past)).statusCode).toBe(403);
    const fresh = new DownloadSigner(secret, PUBLIC, 3600).link(key, 'epc.pdf');
    expect((await download(fresh)).statusCode).toBe(200);

    const removed = await stack.as(owner).delete(`${E()}/files/${file.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: file.id, url: null });
    expect((await download(file.url)).statusCode).toBe(404);
    expect((await stack.as(owner).get(E())).json().files.map((f: { id: string }) => f.id)).not.toContain(file.id);
    expect((await stack.as(owner).delete(`${E()}/files/${file.id}`)).statusCode).toBe(404);
  });

  it('deletes media under /media only', async () => {
    const medium = (await stack.as(owner).upload(`${E()}/media`, [{ name: 'file', filename: 'front.jpg', content: JPEG }])).json();
    expect((await stack.as(owner).delete(`${E()}/files/${medium.id}`)).json().message).toEqual(['file not found']);
    expect((await stack.as(owner).delete(`${E()}/media/${medium.id}`)).statusCode).toBe(200);
    expect((await download(medium.url)).statusCode).toBe(404);
    expect((await stack.as(owner).delete(`${E()}/media/${UNKNOWN}`)).json().message).toEqual(['medium not found']);
  });

  it('deleting the estate deletes its files: their links answer 404', async () => {
    const estate = (await stack.as(owner).post('/estates', {})).json();
    const file = (await stack.as(owner).upload(`/estates/${estate.id}/files`, [pdfPart])).json();
    expect((await download(file.url)).statusCode).toBe(200);
    expect((await stack.as(owner).delete(`/estates/${estate.id}`)).statusCode).toBe(200);
    expect((await download(file.url)).statusCode).toBe(404);
  });
});
