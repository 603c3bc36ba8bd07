// Runs pdfjs on untrusted bytes in a process of its own, so the caller can cap all of its memory
// (a small PDF can inflate to gigabytes, in buffers outside the JavaScript heap) and kill it; when it
// ends, the operating system takes every byte back. Plain JavaScript: node runs it without a TS loader.
// Protocol (IPC, advanced serialization): it sends 'ready' once loaded, gets { bytes, maxPages }, and
// sends one answer.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

async function run(bytes, maxPages) {
  const task = getDocument({
    data: bytes,
    // Nothing is loaded from outside the bytes: no fonts, cmaps, scripts or workers.
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    return { ok: false, reason: err?.name === 'PasswordException' ? 'password' : 'damaged', message: String(err?.message ?? err) };
  }
  try {
    if (pdf.numPages > maxPages) return { ok: false, reason: 'too_many_pages', message: String(pdf.numPages) };
    const pages = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const items = [];
      for (const raw of content.items) {
        if (typeof raw.str !== 'string' || raw.str.length === 0) continue;
        items.push({
          str: raw.str,
          x: raw.transform[4],
          y: raw.transform[5],
          width: raw.width,
          height: Math.abs(raw.height) || Math.abs(raw.transform[3]),
        });
      }
      pages.push(items);
      page.cleanup();
    }
    return { ok: true, pages };
  } catch (err) {
    return { ok: false, reason: 'damaged', message: String(err?.message ?? err) };
  } finally {
    await pdf.destroy();
  }
}

process.once('message', ({ bytes, maxPages }) => {
  run(bytes, maxPages).then(
    (result) => process.send(result, () => process.exit(0)),
    (err) => process.send({ ok: false, reason: 'damaged', message: String(err?.message ?? err) }, () => process.exit(0)),
  );
});
process.send('ready');
