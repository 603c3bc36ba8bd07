import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
  /**
   * Memory the reading process may take beyond what it holds once loaded, JavaScript heap and
   * buffers alike: a compressed stream can unpack to far more than the download limit.
   */
  maxMemoryMb?: number;
}

const DEFAULTS = { maxPages: 40, timeoutMs: 20_000, maxMemoryMb: 256 };

interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
type WorkerAnswer = { ok: true; pages: Item[][] } | { ok: false; reason: 'damaged' | 'password' | 'too_many_pages'; message: string };

/**
 * The text of a PDF, one line per visual line in reading order (top to bottom, left to right).
 * pdfjs reads the bytes in a child process with a memory cap and a time limit, and is told not to
 * load fonts, cmaps or anything else: only the bytes given are read.
 */
export async function extractPdfText(bytes: Uint8Array, options: ExtractOptions = {}): Promise<string> {
  const limits = { ...DEFAULTS, ...options };
  const answer = await readInChild(bytes, limits);
  if (!answer.ok) {
    if (answer.reason === 'password') throw new UnreadablePdfError('password', 'the PDF is protected by a password');
    if (answer.reason === 'too_many_pages') {
      throw new UnreadablePdfError('too_many_pages', `the PDF has ${answer.message} pages; an EPC document has at most ${limits.maxPages}`);
    }
    throw new UnreadablePdfError('damaged', `the PDF could not be read (${answer.message})`);
  }
  return answer.pages
    .map((items) => linesOf(items).join('\n'))
    .filter((p) => p.length > 0)
    .join('\n');
}

/** How often the reading process's resident memory is looked at (Linux: /proc/<pid>/statm). */
const MEMORY_CHECK_MS = 20;
const PAGE_BYTES = 4096;

/** Resident bytes of a process, or null where /proc is not there (the heap cap alone then holds). */
function residentBytes(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

/**
 * pdfjs in a child process (pdf-text.child.mjs). A worker thread's resourceLimits cover only the
 * JavaScript heap: the streams pdfjs inflates live in buffers outside it, and a PDF bomb held
 * gigabytes that way, kept by the service after the thread ended. The child's resident memory is
 * watched here, every buffer counted: past its size once loaded plus `maxMemoryMb` it is killed.
 * Whatever happens, the child ends, and its memory goes back to the system, not to this process.
 */
function readInChild(bytes: Uint8Array, limits: typeof DEFAULTS): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./pdf-text.child.mjs', import.meta.url), [], {
      // Not this process's flags (a TypeScript loader): plain node with a heap cap.
      execArgv: [`--max-old-space-size=${limits.maxMemoryMb}`],
      serialization: 'advanced',
      // pdfjs may print warnings; they are not the service's log lines. stderr tells a heap overflow.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
    let settled = false;
    let baseline: number | null = null;
    let watch: NodeJS.Timeout | undefined;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      fn();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const tooMuch = (cause?: unknown) =>
      new UnreadablePdfError('too_much_memory', 'the PDF unpacks to more than can be read', cause === undefined ? undefined : { cause });
    const timer = setTimeout(
      () => settle(() => reject(new UnreadablePdfError('timeout', `the PDF could not be read within ${limits.timeoutMs} ms`))),
      limits.timeoutMs,
    );
    child.on('message', (answer: WorkerAnswer | 'ready') => {
      if (answer !== 'ready') return settle(() => resolve(answer));
      baseline = child.pid === undefined ? null : residentBytes(child.pid);
      if (baseline !== null) {
        const cap = baseline + limits.maxMemoryMb * 1024 * 1024;
        watch = setInterval(() => {
          const now = residentBytes(child.pid!);
          if (now !== null && now > cap) settle(() => reject(tooMuch()));
        }, MEMORY_CHECK_MS);
      }
      // A copy: the caller's bytes stay usable.
      child.send({ bytes: new Uint8Array(bytes), maxPages: limits.maxPages });
    });
    child.once('error', (err) =>
      settle(() => reject(new UnreadablePdfError('damaged', `the PDF reader could not run (${err.message})`, { cause: err }))),
    );
    child.once('exit', (code, signal) =>
      settle(() =>
        reject(
          /heap limit|out of memory/i.test(stderr)
            ? tooMuch(new Error(stderr.trim().split('\n')[0]))
            : new UnreadablePdfError('damaged', `the PDF reader stopped (exit code ${code ?? signal})`),
        ),
      ),
    );
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
