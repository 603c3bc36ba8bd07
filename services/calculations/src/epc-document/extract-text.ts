import { Worker } from 'node:worker_threads';

/** The PDF could not be opened or read (damaged, encrypted, too big to unpack, too slow). */
export class UnreadablePdfError extends Error {
  constructor(
    readonly reason: 'damaged' | 'password' | 'too_many_pages' | 'too_much_memory' | 'timeout',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UnreadablePdfError';
  }
}

export interface ExtractOptions {
  /** Pages read at most: a certificate has a handful; a document of thousands of pages is not one. */
  maxPages?: number;
  /** Time for reading the whole document. */
  timeoutMs?: number;
  /** Heap of the reading thread: a compressed stream can unpack to far more than the download limit. */
  maxMemoryMb?: number;
}

const DEFAULTS = { maxPages: 40, timeoutMs: 20_000, maxMemoryMb: 256 };

interface Item { str: string; x: number; y: number; width: number; height: number }
type WorkerAnswer =
  | { ok: true; pages: Item[][] }
  | { ok: false; reason: 'damaged' | 'password' | 'too_many_pages'; message: string };

/**
 * The text of a PDF, one line per visual line in reading order (top to bottom, left to right).
 * pdfjs reads the bytes in a worker thread with a memory cap and a time limit, and is told not to
 * load fonts, cmaps or anything else: only the bytes given are read.
 */
export async function extractPdfText(bytes: Uint8Array, options: ExtractOptions = {}): Promise<string> {
  const limits = { ...DEFAULTS, ...options };
  const answer = await readInWorker(bytes, limits);
  if (!answer.ok) {
    if (answer.reason === 'password') throw new UnreadablePdfError('password', 'the PDF is protected by a password');
    if (answer.reason === 'too_many_pages') {
      throw new UnreadablePdfError('too_many_pages', `the PDF has ${answer.message} pages; an EPC document has at most ${limits.maxPages}`);
    }
    throw new UnreadablePdfError('damaged', `the PDF could not be read (${answer.message})`);
  }
  return answer.pages.map((items) => linesOf(items).join('\n')).filter((p) => p.length > 0).join('\n');
}

function readInWorker(bytes: Uint8Array, limits: typeof DEFAULTS): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    // A copy: pdfjs takes ownership of (detaches) the buffer it gets.
    const worker = new Worker(new URL('./pdf-text.worker.mjs', import.meta.url), {
      workerData: { bytes: new Uint8Array(bytes), maxPages: limits.maxPages },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: Math.min(64, limits.maxMemoryMb) },
      stdout: true,
      stderr: true,
    });
    // pdfjs may print warnings; they are not the service's log lines.
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new UnreadablePdfError('timeout', `the PDF could not be read within ${limits.timeoutMs} ms`))),
      limits.timeoutMs,
    );
    worker.once('message', (answer: WorkerAnswer) => settle(() => resolve(answer)));
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new UnreadablePdfError('too_much_memory', 'the PDF unpacks to more than can be read', { cause: err })
            : new UnreadablePdfError('damaged', `the PDF could not be read (${err.message})`, { cause: err }),
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new UnreadablePdfError('damaged', `the PDF reader stopped (exit code ${code})`))));
  });
}

/** Groups text items into lines by their baseline, tolerating the small offsets of mixed fonts. */
function linesOf(items: Item[]): string[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; height: number; items: Item[] }[] = [];
  for (const item of sorted) {
    const line = lines[lines.length - 1];
    const tolerance = Math.max(2, 0.4 * Math.max(item.height, line?.height ?? 0));
    if (line && Math.abs(line.y - item.y) <= tolerance) {
      line.items.push(item);
      line.height = Math.max(line.height, item.height);
    } else lines.push({ y: item.y, height: item.height, items: [item] });
  }
  return lines
    .map((line) => joinLine(line.items.sort((a, b) => a.x - b.x)))
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .filter((text) => text.length > 0);
}

function joinLine(items: Item[]): string {
  let text = '';
  let end = -Infinity;
  for (const item of items) {
    // A gap wider than a fraction of the font size separates words even when no space was drawn.
    const gap = item.x - end;
    if (text && !/\s$/.test(text) && !/^\s/.test(item.str) && gap > 0.15 * (item.height || 10)) text += ' ';
    text += item.str;
    end = item.x + item.width;
  }
  return text;
}
