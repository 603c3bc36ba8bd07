import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCsvText } from '@renopath/calculations/portfolio-run/testing.ts';
import { multipart, startStack, type Stack } from './stack.ts';

let stack: Stack;
let owner: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.token();
});
afterAll(async () => stack?.close());

const csvPart = (content: string) => ({ name: 'file', filename: 'homes.csv', contentType: 'text/csv', content });

async function untilEnded(id: string) {
  for (let i = 0; i < 600; i++) {
    const run = (await stack.as(owner).get(`/v1/portfolio-runs/${id}`)).json();
    if (run.status !== 'QUEUED' && run.status !== 'RUNNING') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('portfolio run did not end');
}

/** Uploaded files still stored anywhere under the stack's data (an upload's blob is gone once its rows are stored). */
function storedUploads(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/[\\/]data[\\/]uploads[\\/]/.test(path)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

describe('portfolio runs over HTTP (docs/portfolio-runs.md)', () => {
  it('streams a keyed upload: a retry with the same key and file answers the same run, another file under it is refused, and no upload is left stored', async () => {
    const before = storedUploads(stack.dataDir).length;
    const send = (csv: string) => {
      const { payload, contentType } = multipart([csvPart(csv)]);
      return stack.app.inject({
        method: 'POST',
        url: '/v1/portfolio-runs',
        headers: { authorization: `Bearer ${owner}`, 'content-type': contentType, 'idempotency-key': 'portfolio-upload-1' },
        payload,
      });
    };
    const csv = syntheticCsvText(300, 11);
    const first = await send(csv);
    expect(first.statusCode, first.body).toBe(202);
    const again = await send(csv);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().id).toBe(first.json().id);
    const other = await send(syntheticCsvText(300, 12));
    expect(other.statusCode).toBe(422);
    await untilEnded(first.json().id);
    expect(storedUploads(stack.dataDir).length).toBe(before);
  }, 120_000);

  it('refuses a file past 50 MiB (413) as it streams in, and keeps nothing of it', async () => {
    const before = storedUploads(stack.dataDir).length;
    const line = 'H0000001,BE,9000,1930,HOUSE,CLOSED,120,HR,GAS,,100000,300000\n';
    const big = `${syntheticCsvText(1, 3)}${line.repeat(Math.ceil((50 * 1024 * 1024) / line.length) + 10)}`;
    const res = await stack.as(owner).upload('/v1/portfolio-runs', [csvPart(big)]);
    expect(res.statusCode).toBe(413);
    expect(storedUploads(stack.dataDir).length).toBe(before);
  }, 120_000);

  it('takes a CSV upload (202), runs it, and streams one result row per input row as CSV or JSON lines, with a summary that adds up', async () => {
    const csv = `${syntheticCsvText(30, 5, ';')}bad;BE;9000;19x0;HOUSE;CLOSED;100;HR;GAS;;;\n`;
    const res = await stack.as(owner).upload('/v1/portfolio-runs', [csvPart(csv), { name: 'name', content: 'Q4 book' }]);
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json();
    expect(created).toMatchObject({ name: 'Q4 book', total_rows: 31, status: expect.stringMatching(/QUEUED|RUNNING|FINISHED/) });

    const run = await untilEnded(created.id);
    expect(run).toMatchObject({ status: 'FINISHED', processed_rows: 31, failed_rows: 1, finished_at: expect.any(String) });

    const asCsv = await stack.as(owner).get(`/v1/portfolio-runs/${created.id}/results`);
    expect(asCsv.statusCode).toBe(200);
    expect(asCsv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = asCsv.body.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^row_number,line,external_id,status,error,epc_score,epc_label/);
    expect(lines).toHaveLength(32);
    expect(lines[31]).toContain('line 32, column year_built');

    const asJson = await stack.app.inject({
      method: 'GET',
      url: `/v1/portfolio-runs/${created.id}/results`,
      headers: { authorization: `Bearer ${owner}`, accept: 'application/x-ndjson' },
    });
    expect(asJson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const rows = asJson.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.row_number)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));

    const summary = (await stack.as(owner).get(`/v1/portfolio-runs/${created.id}/summary`)).json();
    expect(summary.ok_rows).toBe(30);
    expect(summary.by_energy_bucket.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(30);

    const list = (await stack.as(owner).get('/v1/portfolio-runs?page_size=5')).json();
    expect(list.data.map((r: { id: string }) => r.id)).toContain(created.id);
  }, 120_000);

  it('refuses what is not a CSV (415), a file without external_id (400), and another organization reads no run (404)', async () => {
    const pdf = await stack
      .as(owner)
      .upload('/v1/portfolio-runs', [
        { name: 'file', filename: 'x.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n') },
      ]);
    expect(pdf.statusCode).toBe(415);
    const noId = await stack.as(owner).upload('/v1/portfolio-runs', [csvPart('country,zip_code\nBE,9000\n')]);
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message.join(' ')).toContain('external_id');

    const created = (await stack.as(owner).upload('/v1/portfolio-runs', [csvPart(syntheticCsvText(2, 9))])).json();
    const other = await stack.tenant('Other bank', 'other-portfolio@example.com');
    expect((await stack.as(other.token).get(`/v1/portfolio-runs/${created.id}`)).statusCode).toBe(404);
    expect((await stack.as(other.token).get(`/v1/portfolio-runs/${created.id}/results`)).statusCode).toBe(404);
  }, 60_000);
});
