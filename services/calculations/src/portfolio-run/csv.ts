import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { PORTFOLIO_RESULT_COLUMNS, type PortfolioResultRow } from '@renopath/contracts';
import { DomainError, takeHead, type StreamHead } from '@renopath/platform';
import { PORTFOLIO_COLUMNS, type RawRow } from './rows.ts';

/** Rows in one file at most, and its size (docs/portfolio-runs.md "The file"): 413 beyond. */
export const MAX_ROWS = 100_000;
export const MAX_BYTES = 50 * 1024 * 1024;

export interface PortfolioHeader {
  /** The header's columns as written (trimmed), in order. */
  columns: string[];
  ignored_columns: string[];
}

/** The header line decides the delimiter: bytes are taken until it has ended, or this many. */
const HEAD_BYTES = 64 * 1024;

/** The file's delimiter, from its header line: `;` (spreadsheets in Belgium and the Netherlands) or `,`. */
function delimiterOf(head: Buffer): ';' | ',' {
  const end = head.indexOf(0x0a);
  const first = head.subarray(0, end < 0 ? Math.min(head.length, HEAD_BYTES) : end).toString('utf8');
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
  const head = await takeHead(chunks, (taken, bytes) => bytes >= HEAD_BYTES || taken.some((c) => c.includes(0x0a)));
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(Buffer.concat(head.chunks)),
    info: true,
    relax_column_count: true,
    relax_quotes: true,
  });
  const lines = new LineCounter();
  const feed = new Feed(chunks, head, lines);
  const fed = Readable.from(feed.bytes());
  // A source that fails (the store, the size limit) fails the parser, and so the loop below.
  fed.once('error', (err) => parser.destroy(err));
  fed.pipe(parser);

  const rows = new RowBatcher(batchSize, onHeader, onBatch);
  let prevEnd = 0;
  try {
    for await (const { record, info } of recordsOf(parser)) {
      lines.countTo(prevEnd);
      prevEnd = info.bytes;
      await rows.take(record, lines.line);
    }
  } catch (err) {
    fed.destroy();
    parser.destroy();
    // The source is let go (a file stream closes its descriptor) when the reading stops before its end.
    await chunks.return?.().catch(() => undefined);
    throw readFailure(err, feed.refused, lines, prevEnd);
  }
  if (feed.refused) throw feed.refused;
  if (!rows.header) throw new DomainError(400, ['file: no header row']);
  await rows.flush();
  return { total_rows: rows.count, header: rows.header };
}

/** The bytes handed to the parser: the head, then the rest of the source, counted for the size limit and the lines. */
class Feed {
  private taken = 0;
  /** The size limit's refusal, once passed (the parser only sees the stream fail). */
  refused: DomainError | null = null;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly head: StreamHead,
    private readonly lines: LineCounter,
  ) {}

  async *bytes(): AsyncGenerator<Buffer> {
    for (const chunk of this.head.chunks) yield this.take(chunk);
    if (this.head.ended) return;
    for (let next = await this.chunks.next(); !next.done; next = await this.chunks.next()) yield this.take(next.value);
  }

  private take(chunk: Buffer): Buffer {
    this.taken += chunk.length;
    if (this.taken > MAX_BYTES) throw (this.refused = tooLarge());
    this.lines.push(chunk);
    return chunk;
  }
}

/** The records in file order: the first one the header, the others rows, handed on in batches. */
class RowBatcher {
  header: PortfolioHeader | null = null;
  /** Rows read so far (the last one's row_number). */
  count = 0;
  private batch: RawRow[] = [];
  /** Each external_id read, with the line it was first on. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly batchSize: number,
    private readonly onHeader: (header: PortfolioHeader) => Promise<void> | void,
    private readonly onBatch: (rows: RawRow[]) => Promise<void>,
  ) {}

  async take(record: string[], line: number): Promise<void> {
    if (record.length === 1 && record[0]!.trim() === '') return; // an empty line
    if (!this.header) {
      this.header = headerOf(record);
      await this.onHeader(this.header);
      return;
    }
    this.count++;
    if (this.count > MAX_ROWS) throw new DomainError(413, [`file has more than ${MAX_ROWS} rows`]);
    const raw = rowOf(record, this.header, this.count, line);
    const repeated = raw.error ? undefined : this.repeated(raw, line);
    if (repeated) raw.error = repeated;
    this.batch.push(raw);
    if (this.batch.length >= this.batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    await this.onBatch(this.batch);
    this.batch = [];
  }

  /** The error of a row whose external_id an earlier row has (the first one is remembered). */
  private repeated(raw: RawRow, line: number): string | undefined {
    const id = (raw.cells['external_id'] ?? '').trim();
    if (id === '') return undefined;
    const first = this.seen.get(id);
    if (first !== undefined) return `line ${line}, column external_id: ${JSON.stringify(id)} is also on line ${first}`;
    this.seen.set(id, line);
    return undefined;
  }
}

/** The header row's columns; refused without an external_id column or with a column named twice. */
function headerOf(record: string[]): PortfolioHeader {
  const columns = record.map((c) => c.trim());
  if (!columns.includes('external_id')) {
    throw new DomainError(400, ['file: the header row (line 1) has no external_id column']);
  }
  const dup = columns.find((c, i) => c !== '' && columns.indexOf(c) !== i);
  if (dup) throw new DomainError(400, [`file: the header row names column ${dup} twice`]);
  return { columns, ignored_columns: columns.filter((c) => c !== '' && !PORTFOLIO_COLUMNS.has(c)) };
}

/** One record as a row: the cells of the columns the reader knows, and an error when its field count is off. */
function rowOf(record: string[], header: PortfolioHeader, row_number: number, line: number): RawRow {
  const raw: RawRow = { row_number, line, cells: {} };
  if (record.length !== header.columns.length) {
    raw.error = `line ${line}: has ${record.length} fields where the header has ${header.columns.length}`;
  }
  for (let i = 0; i < header.columns.length; i++) {
    const column = header.columns[i]!;
    if (PORTFOLIO_COLUMNS.has(column)) raw.cells[column] = record[i] ?? '';
  }
  return raw;
}

/** What a reading that stopped says: the size limit's refusal, a refusal of ours, or the parser's error with its line. */
function readFailure(err: unknown, refused: DomainError | null, lines: LineCounter, prevEnd: number): unknown {
  if (refused) return refused;
  if (err instanceof DomainError) return err;
  const csv = err as CsvError & { lines?: number };
  if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
    lines.countTo(prevEnd);
    return new DomainError(400, [`file: line ${lines.line}: ${csv.message.replace(/^Invalid [^:]+: /, '')}`]);
  }
  return err;
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
