import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, createDeflate, deflateSync } from 'node:zlib';
import { PDFDocument, PDFRawStream, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  downloadEpcDocument,
  EpcDocumentError,
  extractPdfText,
  processEpcDocument,
  UnreadablePdfError,
  type ProcessOptions,
} from './index.ts';
import { buildPdf, dutchLabelPages, flemishEpcPages, type PdfLine } from './testing.ts';

const today = new Date('2026-01-15T10:00:00Z');

interface Served {
  body: Uint8Array | string;
  type: string;
  status?: number;
}

describe('EPC documents from a URL', () => {
  const routes = new Map<string, Served>();
  let server: http.Server;
  let base: string;
  let hits = 0;
  const local: ProcessOptions = { allowPrivateNetwork: true, timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, today };

  beforeAll(async () => {
    const blank = await PDFDocument.create();
    blank.addPage([595, 842]);
    routes.set('/flemish.pdf', { body: await buildPdf(flemishEpcPages()), type: 'application/pdf' });
    routes.set('/dutch.pdf', { body: await buildPdf(dutchLabelPages()), type: 'application/pdf' });
    routes.set('/no-score.pdf', { body: await buildPdf(flemishEpcPages({ score: null })), type: 'application/pdf' });
    routes.set('/mismatch.pdf', { body: await buildPdf(flemishEpcPages({ score: '180', label: 'E' })), type: 'application/pdf' });
    routes.set('/scanned.pdf', { body: await blank.save(), type: 'application/pdf' });
    routes.set('/invoice.pdf', { body: await buildPdf([['Factuur 2024-001', ['Bedrag', '1.250,00 EUR']]]), type: 'application/pdf' });
    routes.set('/octet.pdf', { body: await buildPdf(dutchLabelPages()), type: 'application/octet-stream' });
    routes.set('/html.pdf', { body: '<!doctype html><html><body>Not found</body></html>', type: 'application/pdf' });
    routes.set('/broken.pdf', {
      body: '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ngarbage without xref or trailer',
      type: 'application/pdf',
    });
    routes.set('/huge.pdf', {
      body: new Uint8Array(300_000).fill(0x20).map((b, i) => (i < 5 ? '%PDF-'.charCodeAt(i) : b)),
      type: 'application/pdf',
    });
    server = http.createServer((req, res) => {
      hits++;
      const route = routes.get(req.url ?? '');
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.type });
      res.end(route.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads a Flemish EPC into property fields', async () => {
    const result = await processEpcDocument(`${base}/flemish.pdf`, local);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.kind).toBe('EPC_FLANDERS');
    expect(result.fields).toMatchObject({
      country: 'BE',
      energy_efficiency_score: 345,
      zip_code: '9000',
      place: 'Gent',
      street: 'Kerkstraat',
      house_number: '12',
      year_built: 1975,
      habitable_space_m2: 152.5,
      heating_type: 'GAS',
      heating_device: 'CONDENSING_BOILER',
      window_glazing_type: 'DOUBLE_GLAZING',
      inclined_roof_insulation_type: 'MODERATE',
      outer_wall_insulation_type: 'NONE',
      has_solar_panels: true,
      ventilation_type: 'SYSTEM_C',
    });
    expect(result.extracted).toMatchObject({ epc_label: 'D', certificate_number: '20240312-0003012345-RES-1' });
    expect(result.flags).toEqual([]);
  });

  it('reads a Dutch energielabel into property fields, whatever content type the server names', async () => {
    const result = await processEpcDocument(`${base}/octet.pdf`, local);
    expect(result.ok && result.kind).toBe('ENERGY_LABEL_NL');
    if (!result.ok) return;
    expect(result.fields).toMatchObject({
      country: 'NL',
      energy_efficiency_score: 180.5,
      zip_code: '1234 AB',
      place: 'Utrecht',
      year_built: 1930,
      habitable_space_m2: 120,
      heating_device: 'CONDENSING_BOILER',
      window_glazing_type: 'HR',
      has_solar_panels: false,
    });
    expect(result.extracted.epc_label).toBe('B');
  });

  it('flags a certificate without a score', async () => {
    const result = await processEpcDocument(`${base}/no-score.pdf`, local);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fields.energy_efficiency_score).toBeUndefined();
    expect(result.flags).toContainEqual(expect.objectContaining({ field: 'energy_efficiency_score', code: 'MISSING_SCORE' }));
  });

  it('flags a score that does not match the stated label', async () => {
    const result = await processEpcDocument(`${base}/mismatch.pdf`, local);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.flags).toContainEqual(expect.objectContaining({ field: 'energy_efficiency_score', code: 'SCORE_LABEL_MISMATCH' }));
  });

  it.each([
    ['/missing.pdf', 'EPC_DOWNLOAD_FAILED', '404'],
    ['/html.pdf', 'EPC_NOT_A_PDF', 'not a PDF'],
    ['/broken.pdf', 'EPC_UNREADABLE', 'could not be read'],
    ['/scanned.pdf', 'EPC_NO_TEXT', 'no text'],
    ['/invoice.pdf', 'EPC_NOT_RECOGNISED', 'neither'],
  ])('answers %s with %s', async (path, code, words) => {
    const result = await processEpcDocument(`${base}${path}`, local);
    expect(result).toEqual({ ok: false, code, message: expect.stringContaining(words) });
  });

  it('refuses a document larger than the limit', async () => {
    const result = await processEpcDocument(`${base}/huge.pdf`, { ...local, maxBytes: 100_000 });
    expect(result).toEqual({ ok: false, code: 'EPC_DOCUMENT_TOO_LARGE', message: expect.stringContaining('98 kB') });
  });

  it('refuses a URL on the private network unless allowed, without contacting it', async () => {
    const before = hits;
    const result = await processEpcDocument(`${base}/flemish.pdf`, { ...local, allowPrivateNetwork: false });
    expect(result).toEqual({ ok: false, code: 'EPC_URL_REFUSED', message: expect.stringContaining('127.0.0.1') });
    expect(hits).toBe(before);
  });

  it('refuses a URL that is not http(s)', async () => {
    const result = await processEpcDocument('file:///etc/passwd', local);
    expect(result).toMatchObject({ ok: false, code: 'EPC_URL_REFUSED' });
  });

  it('downloadEpcDocument throws a coded error for a non-PDF answer', async () => {
    const err = await downloadEpcDocument(`${base}/html.pdf`, local).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EpcDocumentError);
    expect((err as EpcDocumentError).code).toBe('EPC_NOT_A_PDF');
    expect((err as EpcDocumentError).message).toContain('application/pdf');
  });
});

describe('extractPdfText', () => {
  it('gives lines in reading order whatever order the PDF draws them in', async () => {
    const pages: PdfLine[][] = [[['Energiescore', '345 kWh/(m² jaar)'], ['Label', 'D'], 'Bouwjaar 1975'], [['Ramen', 'dubbel glas']]];
    const bytes = await buildPdf(pages, { drawReversed: true });
    const text = await extractPdfText(bytes);
    expect(text.split('\n')).toEqual(['Energiescore 345 kWh/(m² jaar)', 'Label D', 'Bouwjaar 1975', 'Ramen dubbel glas']);
  });

  it("leaves the caller's bytes usable", async () => {
    const bytes = await buildPdf([['Label D']]);
    await extractPdfText(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(await extractPdfText(bytes)).toBe('Label D');
  });

  it('stops reading a small PDF that unpacks to more than the memory cap', async () => {
    // Well under the download limit on the wire, 36 MB of text operators once inflated.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    page.drawText('Label D', { x: 50, y: 700, size: 11, font });
    const op = Buffer.from(`BT /F1 1 Tf 10 10 Td (${'A'.repeat(61)}) Tj ET\n`);
    const inflated = Buffer.alloc(op.length * 400_000);
    for (let i = 0; i < 400_000; i++) op.copy(inflated, i * op.length);
    const compressed = deflateSync(inflated, { level: 1 });
    page.node.addContentStream(
      doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: compressed.length }), compressed)),
    );
    const err = await extractPdfText(await doc.save(), { maxMemoryMb: 32 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadablePdfError);
    expect((err as UnreadablePdfError).reason).toBe('too_much_memory');
  });

  it('refuses PDF bombs as unreadable, and the memory they took goes back', { timeout: 120_000 }, async () => {
    // Half a MiB on the wire, 768 MiB of content stream once inflated: pdfjs keeps it in buffers
    // outside the JavaScript heap, where a worker thread's heap limit never saw it.
    const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
    const parts: Buffer[] = [];
    deflate.on('data', (part: Buffer) => parts.push(part));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 768; i++) if (!deflate.write(zeros)) await new Promise((r) => deflate.once('drain', r));
    await new Promise((r) => deflate.end(r));
    const compressed = Buffer.concat(parts);
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    page.node.addContentStream(
      doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: compressed.length }), compressed)),
    );
    const bomb = await doc.save();
    expect(bomb.byteLength).toBeLessThan(2 * 1024 * 1024);

    const before = process.memoryUsage().rss;
    const results = await Promise.all(Array.from({ length: 4 }, () => extractPdfText(bomb).catch((e: unknown) => e)));
    for (const err of results) {
      expect(err).toBeInstanceOf(UnreadablePdfError);
      expect((err as UnreadablePdfError).reason).toBe('too_much_memory');
    }
    const after = process.memoryUsage().rss;
    console.info(
      `[epc bombs] 4 at once: this process's resident memory ${Math.round(before / 2 ** 20)} MiB before, ${Math.round(after / 2 ** 20)} MiB after`,
    );
    // What the readers inflated was theirs: this process holds about what it held before.
    expect(after - before).toBeLessThan(64 * 1024 * 1024);
    // And a real certificate reads as ever afterwards.
    expect(await extractPdfText(await buildPdf([['Label D']]))).toBe('Label D');
  });

  it('stops reading when the time limit passes', async () => {
    const err = await extractPdfText(await buildPdf(flemishEpcPages()), { timeoutMs: 1 }).catch((e: unknown) => e);
    expect((err as UnreadablePdfError).reason).toBe('timeout');
  });
});
