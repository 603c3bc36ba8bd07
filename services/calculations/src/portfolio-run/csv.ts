import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { PORTFOLIO_RESULT_COLUMNS, type PortfolioResultRow } from '@renopath/contracts';
import { DomainError } from '@renopath/platform';
import { PORTFOLIO_COLUMNS, type RawRow } from './rows.ts';

/** Rows in one file at most, and its size (docs/portfolio-runs.md "The file"): 413 beyond. */
export const MAX_ROWS = 100_000;
export const MAX_BYTES = 50 * 1024 * 1024;

export interface PortfolioHeader {
  /** The header's columns as written (trimmed), in order. */
  columns: string[];
  ignored_columns: string[];
}

/** The file's delimiter, from its header line: `;` (spreadsheets in Belgium and the Netherlands) or `,`. */
function delimiterOf(head: Buffer): ';' | ',' {
  const end = head.indexOf(0x0a);
  const first = head.subarray(0, end < 0 ? Math.min(head.length, 64 * 1024) : end).toString('utf8');
  const semicolons = first.split(';').length;
  const commas = first.split(',').length;
  return semicolons > commas ? ';' : ',';
}

/**
 * Line numbers from the parser's byte offsets (its own line count counts a quoted CRLF twice): the
 * chunks that went to the parser are kept until the records read have passed them, no longer.
 */
class LineCounter {
  private chunks: Buffer[] = [];
  /** Byte offset of `chunks[0]`'s first byte, and how far into the file newlines are counted. */
  private base = 0;
  private cursor = 0;
  line = 1;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** Counts the newlines before byte `offset`. */
  countTo(offset: number): void {
    while (this.cursor < offset && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const from = this.cursor - this.base;
      const to = Math.min(chunk.length, offset - this.base);
      for (let at = chunk.indexOf(0x0a, from); at >= 0 && at < to; at = chunk.indexOf(0x0a, at + 1)) this.line++;
      this.cursor = this.base + to;
      if (to === chunk.length) {
        this.chunks.shift();
        this.base += chunk.length;
      }
    }
  }
}

const tooLarge = () => new DomainError(413, [`file is larger than ${MAX_BYTES / 1024 / 1024} MiB`]);

/**
 * Reads a portfolio CSV (UTF-8, BOM or not, a header row, `;` or `,`, quoted fields that may span
 * lines) from its bytes as they come, in batches of `batchSize` rows, holding neither the file nor
 * more than a batch of rows: `onHeader` sees the columns first, then `onBatch` each batch in file
 * order (the next bytes are read only once it is done). A row the reader cannot take (a wrong number
 * of fields, an external_id seen before) comes as a row with its `error`; a file that cannot be read
 * on (an unclosed quote) or has no `external_id` column is refused (400), one over MAX_ROWS or
 * MAX_BYTES too (413).
 */
export async function readPortfolioCsv(
  source: Buffer | AsyncIterable<Buffer>,
  batchSize: number,
  onHeader: (header: PortfolioHeader) => Promise<void> | void,
  onBatch: (rows: RawRow[]) => Promise<void>,
): Promise<{ total_rows: number; header: PortfolioHeader }> {
  const input = Buffer.isBuffer(source) ? slices(source) : source;
  const chunks = input[Symbol.asyncIterator]();
  // The header line decides the delimiter: bytes are taken until it has ended (or 64 KiB).
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < 64 * 1024 && !head.some((c) => c.includes(0x0a))) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(Buffer.concat(head)),
    info: true,
    relax_column_count: true,
    relax_quotes: true,
  });
  const lines = new LineCounter();
  let bytes = 0;
  let refused: DomainError | null = null;
  async function* feed(): AsyncGenerator<Buffer> {
    const take = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_BYTES) throw (refused = tooLarge());
      lines.push(chunk);
      return chunk;
    };
    for (const chunk of head) yield take(chunk);
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield take(next.value);
  }
  const fed = Readable.from(feed());
  // A source that fails (the store, the size limit) fails the parser, and so the loop below.
  fed.once('error', (err) => parser.destroy(err));
  fed.pipe(parser);

  let header: PortfolioHeader | null = null;
  let batch: RawRow[] = [];
  let row_number = 0;
  let prevEnd = 0;
  const seen = new Map<string, number>();
  try {
    for await (const { record, info } of recordsOf(parser)) {
      lines.countTo(prevEnd);
      const line = lines.line;
      prevEnd = info.bytes;
      if (record.length === 1 && record[0]!.trim() === '') continue; // an empty line
      if (!header) {
        const columns = record.map((c) => c.trim());
        if (!columns.includes('external_id')) {
          throw new DomainError(400, ['file: the header row (line 1) has no external_id column']);
        }
        const dup = columns.find((c, i) => c !== '' && columns.indexOf(c) !== i);
        if (dup) throw new DomainError(400, [`file: the header row names column ${dup} twice`]);
        header = { columns, ignored_columns: columns.filter((c) => c !== '' && !PORTFOLIO_COLUMNS.has(c)) };
        await onHeader(header);
        continue;
      }
      row_number++;
      if (row_number > MAX_ROWS) throw new DomainError(413, [`file has more than ${MAX_ROWS} rows`]);
      const raw: RawRow = { row_number, line, cells: {} };
      if (record.length !== header.columns.length) {
        raw.error = `line ${line}: has ${record.length} fields where the header has ${header.columns.length}`;
      }
      for (let i = 0; i < header.columns.length; i++) {
        const column = header.columns[i]!;
        if (PORTFOLIO_COLUMNS.has(column)) raw.cells[column] = record[i] ?? '';
      }
      const id = (raw.cells['external_id'] ?? '').trim();
      if (!raw.error && id !== '') {
        const first = seen.get(id);
        if (first !== undefined) raw.error = `line ${line}, column external_id: ${JSON.stringify(id)} is also on line ${first}`;
        else seen.set(id, line);
      }
      batch.push(raw);
      if (batch.length >= batchSize) {
        await onBatch(batch);
        batch = [];
      }
    }
  } catch (err) {
    fed.destroy();
    parser.destroy();
    // The source is let go (a file stream closes its descriptor) when the reading stops before its end.
    await chunks.return?.().catch(() => undefined);
    if (refused) throw refused;
    if (err instanceof DomainError) throw err;
    const csv = err as CsvError & { lines?: number };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
      lines.countTo(prevEnd);
      throw new DomainError(400, [`file: line ${lines.line}: ${csv.message.replace(/^Invalid [^:]+: /, '')}`]);
    }
    throw err;
  }
  if (refused) throw refused;
  if (!header) throw new DomainError(400, ['file: no header row']);
  if (batch.length > 0) await onBatch(batch);
  return { total_rows: row_number, header };
}

type ParsedRecord = { record: string[]; info: { bytes: number } };

/**
 * The parser's records, and its error only after every record it parsed before it: a stream's own
 * iterator drops the records still buffered when the stream fails, and the line of a quote never
 * closed is told from the last record read before it. At most 64 records wait (the parser is paused).
 */
async function* recordsOf(parser: ReturnType<typeof parse>): AsyncGenerator<ParsedRecord> {
  const queue: ParsedRecord[] = [];
  let failure: unknown = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  parser.on('data', (r: ParsedRecord) => {
    queue.push(r);
    if (queue.length >= 64) parser.pause();
    signal();
  });
  parser.on('error', (err) => {
    failure = err;
    signal();
  });
  parser.on('end', () => {
    ended = true;
    signal();
  });
  for (;;) {
    const next = queue.shift();
    if (next) {
      if (queue.length < 16 && parser.isPaused()) parser.resume();
      yield next;
      continue;
    }
    if (failure) throw failure;
    if (ended) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}

/** A file already in memory, fed in slices as a stream would come. */
async function* slices(bytes: Buffer): AsyncGenerator<Buffer> {
  if (bytes.length > MAX_BYTES) throw tooLarge();
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

/**
 * Result rows as CSV lines (with the header line when `header`). A cell a spreadsheet would take for
 * a formula (`=`, `+`, `-`, `@`, tab, carriage return first) is written with a leading `'`: an
 * external_id or an error message echoes the client's text, which must not run in a reader's
 * spreadsheet. Numbers are written as numbers.
 */
export function resultsCsv(rows: readonly PortfolioResultRow[], header: boolean): string {
  return stringify(
    rows.map((r) => PORTFOLIO_RESULT_COLUMNS.map((c) => r[c])),
    {
      header,
      columns: PORTFOLIO_RESULT_COLUMNS as string[],
      escape_formulas: true,
      cast: { boolean: (b) => (b ? 'true' : 'false') },
    },
  );
}
