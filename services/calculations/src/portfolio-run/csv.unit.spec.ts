import { describe, expect, it } from 'vitest';
import { DomainError } from '@renopath/platform';
import { readPortfolioCsv } from './csv.ts';
import type { RawRow } from './rows.ts';

/** The file's bytes as a network or a file stream may cut them: chunks of a few bytes, cut anywhere. */
async function* cut(text: string, sizes: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function read(source: Buffer | AsyncIterable<Buffer>) {
  const rows: RawRow[] = [];
  const result = await readPortfolioCsv(
    source,
    3,
    () => undefined,
    async (batch) => void rows.push(...batch),
  );
  return { ...result, rows };
}

const FILE = [
  '\uFEFFexternal_id;country;zip_code;remark',
  'a;BE;9000;"two',
  'lines"',
  '',
  'b;BE;1000;x\r',
  'c;NL;"3731 AB";"a ; in quotes"',
  'a;BE;9000;again',
  'd;BE',
  'e;BE;2000;é',
].join('\n');

describe('the portfolio file read as a stream', () => {
  it('gives the same rows and line numbers however the bytes are cut', async () => {
    const whole = await read(Buffer.from(FILE, 'utf8'));
    expect(whole.rows.map((r) => [r.cells['external_id'], r.line])).toEqual([
      ['a', 2],
      ['b', 5],
      ['c', 6],
      ['a', 7],
      ['d', 8],
      ['e', 9],
    ]);
    expect(whole.rows[3]!.error).toMatch(/^line 7, column external_id: "a" is also on line 2/);
    expect(whole.rows[4]!.error).toMatch(/^line 8: has 2 fields/);
    for (const sizes of [[1], [2, 5, 3], [7], [64]]) {
      const streamed = await read(cut(FILE, sizes));
      expect(streamed.rows).toEqual(whole.rows);
      expect(streamed.header).toEqual(whole.header);
    }
  });

  it('refuses a quote never closed with the line it starts on, from a stream too', async () => {
    const text = 'external_id,country\nx,BE\ny,"BE\nz,NL\n';
    const refusal = await read(cut(text, [3])).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).status).toBe(400);
    expect(String((refusal as DomainError).message)).toMatch(/line 3/);
  });
});
