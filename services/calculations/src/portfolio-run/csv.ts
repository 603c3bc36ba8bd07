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
function delimiterOf(bytes: Buffer): ';' | ',' {
  const end = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, end < 0 ? Math.min(bytes.length, 64 * 1024) : end).toString('utf8');
  const semicolons = first.split(';').length;
  const commas = first.split(',').length;
  return semicolons > commas ? ';' : ',';
}

/**
 * Reads a portfolio CSV (UTF-8, BOM or not, a header row, `;` or `,`, quoted fields that may span
 * lines) in batches of `batchSize` rows, without holding more than a batch of rows: `onHeader` sees the
 * columns first, then `onBatch` each batch in file order. A row the reader cannot take (a wrong number
 * of fields, an external_id seen before) comes as a row with its `error`; a file that cannot be read
 * on (an unclosed quote) or has no `external_id` column is refused (400), one over MAX_ROWS too (413).
 */
export async function readPortfolioCsv(
  bytes: Buffer,
  batchSize: number,
  onHeader: (header: PortfolioHeader) => Promise<void> | void,
  onBatch: (rows: RawRow[]) => Promise<void>,
): Promise<{ total_rows: number; header: PortfolioHeader }> {
  if (bytes.length > MAX_BYTES) throw new DomainError(413, [`file is larger than ${MAX_BYTES / 1024 / 1024} MiB`]);
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(bytes),
    info: true,
    relax_column_count: true,
    relax_quotes: true,
  });
  // Fed in slices: the parser's records are taken as they come, never the whole file's at once.
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
    })(),
  ).pipe(parser);

  let header: PortfolioHeader | null = null;
  let batch: RawRow[] = [];
  let row_number = 0;
  // Lines are counted from the records' byte offsets: the parser's own line count counts a quoted CRLF twice.
  let prevEnd = 0;
  let cursor = 0;
  let line = 1;
  const seen = new Map<string, number>();
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      for (; cursor < prevEnd; cursor++) if (bytes[cursor] === 0x0a) line++;
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
    parser.destroy();
    if (err instanceof DomainError) throw err;
    const csv = err as CsvError & { lines?: number };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
      for (; cursor < prevEnd; cursor++) if (bytes[cursor] === 0x0a) line++;
      throw new DomainError(400, [`file: line ${line}: ${csv.message.replace(/^Invalid [^:]+: /, '')}`]);
    }
    throw err;
  }
  if (!header) throw new DomainError(400, ['file: no header row']);
  if (batch.length > 0) await onBatch(batch);
  return { total_rows: row_number, header };
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
