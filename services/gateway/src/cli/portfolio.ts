import { createWriteStream, openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PortfolioRun, PortfolioSummary } from '@renopath/contracts';

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `renopath portfolio homes.csv --out results.csv` (docs/portfolio-runs.md): uploads the file (read
 * from disk as it is sent), follows the run with a progress line (rows, homes a second, ETA), writes
 * the streamed results to `--out` and prints the summary tables. Against RENOPATH_URL, as the API client
 * of RENOPATH_TOKEN, or of RENOPATH_CLIENT_ID and RENOPATH_CLIENT_SECRET.
 */
export async function portfolioCommand(
  options: Io & { base: string; file: string; outFile: string; name?: string; pollMs?: number },
): Promise<number> {
  const { base, err, out } = options;
  const token = await bearer(base);
  const auth = { authorization: `Bearer ${token}` };
  const form = new FormData();
  form.append('file', await openAsBlob(options.file, { type: 'text/csv' }), basename(options.file));
  if (options.name) form.append('name', options.name);
  const created = await fetch(`${base}/v1/portfolio-runs`, { method: 'POST', headers: auth, body: form });
  if (created.status !== 202) {
    err.write(`upload refused: ${created.status} ${await created.text()}\n`);
    return 1;
  }
  let run = (await created.json()) as PortfolioRun;
  err.write(
    `portfolio run ${run.id}: ${run.total_rows} rows${run.ignored_columns.length ? ` (columns ignored: ${run.ignored_columns.join(', ')})` : ''}\n`,
  );
  const started = Date.now();
  while (run.status === 'QUEUED' || run.status === 'RUNNING') {
    await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
    const res = await fetch(`${base}/v1/portfolio-runs/${run.id}`, { headers: auth });
    if (!res.ok) continue; // a restart of the service: the run resumes, and so does this
    run = (await res.json()) as PortfolioRun;
    err.write(`\r${progressLine(run, (Date.now() - started) / 1000)}`);
  }
  err.write(`\r${progressLine(run, (Date.now() - started) / 1000)}\n`);

  const results = await fetch(`${base}/v1/portfolio-runs/${run.id}/results`, { headers: { ...auth, accept: 'text/csv' } });
  if (!results.ok || !results.body) {
    err.write(`results: ${results.status} ${await results.text()}\n`);
    return 1;
  }
  await pipeline(Readable.fromWeb(results.body as WebReadableStream), createWriteStream(options.outFile));
  err.write(`results written to ${options.outFile}\n`);
  const summary = (await (await fetch(`${base}/v1/portfolio-runs/${run.id}/summary`, { headers: auth })).json()) as PortfolioSummary;
  out.write(summaryTable(run, summary));
  return run.status === 'FINISHED' ? 0 : 1;
}

async function bearer(base: string): Promise<string> {
  const token = process.env['RENOPATH_TOKEN'];
  if (token) return token;
  const id = process.env['RENOPATH_CLIENT_ID'];
  const secret = process.env['RENOPATH_CLIENT_SECRET'];
  if (!id || !secret) throw new Error('set RENOPATH_TOKEN, or RENOPATH_CLIENT_ID and RENOPATH_CLIENT_SECRET');
  const res = await fetch(`${base}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'x-service-client-id': id, 'x-service-client-secret': secret },
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `[##########----------]  4,200 / 10,000 rows   12 errors   131 homes/s   ETA 44 s`. */
export function progressLine(run: PortfolioRun, seconds: number): string {
  const width = 24;
  const done = run.total_rows === 0 ? 1 : run.processed_rows / run.total_rows;
  const bar = '#'.repeat(Math.round(done * width)).padEnd(width, '-');
  const rate = seconds > 0 ? run.processed_rows / seconds : 0;
  const eta = run.eta ? Math.max(0, Math.round((Date.parse(run.eta) - Date.now()) / 1000)) : null;
  const n = (x: number) => x.toLocaleString('en');
  return (
    `[${bar}] ${n(run.processed_rows).padStart(7)} / ${n(run.total_rows)} rows  ${n(run.failed_rows)} errors  ` +
    `${rate.toFixed(0)} homes/s  ${run.status === 'RUNNING' || run.status === 'QUEUED' ? `ETA ${eta === null ? '?' : `${eta} s`}` : run.status}   `
  );
}

/** The summary as plain-text tables: by label, by EBA bucket, then the shares and financed emissions. */
export function summaryTable(run: PortfolioRun, s: PortfolioSummary): string {
  const money = (x: number) => x.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const lines = [
    '',
    `run ${run.id} ${run.status}: ${s.ok_rows} OK, ${s.failed_rows} errors`,
    '',
    `${'scale'.padEnd(16)} ${'label'.padEnd(6)} ${'homes'.padStart(8)} ${'outstanding'.padStart(18)}`,
    ...s.by_label.map(
      (b) => `${b.scale.padEnd(16)} ${b.label.padEnd(6)} ${String(b.count).padStart(8)} ${money(b.outstanding_amount).padStart(18)}`,
    ),
    '',
    `${'kWh/m2 (EBA)'.padEnd(23)} ${'homes'.padStart(8)} ${'outstanding'.padStart(18)}`,
    ...s.by_energy_bucket.map((b) => `${b.bucket.padEnd(23)} ${String(b.count).padStart(8)} ${money(b.outstanding_amount).padStart(18)}`),
    `${'total'.padEnd(23)} ${String(s.ok_rows).padStart(8)} ${money(s.outstanding_amount).padStart(18)}`,
    '',
    `estimated labels ${(s.estimated_share * 100).toFixed(1)}%   taxonomy-aligned ${(s.taxonomy_aligned_share * 100).toFixed(1)}%` +
      `   not assessable (no regional top-15% figure) ${(s.taxonomy_not_assessable_share * 100).toFixed(1)}%`,
    `financed emissions ${(s.financed_emissions_kg_year / 1000).toFixed(1)} t CO2/yr (PCAF data quality ${s.financed_emissions_data_quality ?? '-'})`,
    '',
  ];
  return lines.join('\n');
}
