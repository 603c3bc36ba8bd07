import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFsBlobStore, openSqliteEventStore, openSqliteReadStore, type BlobStore } from '@renopath/platform';
import { createMemoryLeaseStore } from '@renopath/platform/memory/memory-lease.ts';
import { openLeadership } from '@renopath/platform/service/context-lease.ts';
import type { PortfolioResultRow, PortfolioRun, PortfolioSummary, ServiceRequest } from '@renopath/contracts';
import { labelFor } from '@renopath/energy';
import { computeBatch } from './compute.ts';
import { resultsCsv } from './csv.ts';
import { inlineComputer, startPortfolioRuns, type PortfolioRuns } from './index.ts';
import { syntheticCsvText } from './testing.ts';

const log = pino({ level: 'silent' });
const ORG = '0b6f3f0e-1111-4a4a-9a9a-000000000001';
const USER = '0b6f3f0e-2222-4a4a-9a9a-000000000002';
const actor = { user_id: USER, organization_id: ORG, client_id: 'client-1', roles: ['ADMIN'], scopes: ['calculations'] };
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(dir = mkdtempSync(join(tmpdir(), 'portfolio-'))) {
  const eventStore = openSqliteEventStore({ file: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const readStore = openSqliteReadStore({ file: join(dir, 'reads.db'), synchronous: 'NORMAL' });
  const blobs = await openFsBlobStore({ root: join(dir, 'blobs') });
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  closers.push(() => eventStore.close());
  closers.push(() => readStore.close());
  closers.push(() => blobs.close());
  return { dir, eventStore, readStore, blobs };
}

async function start(
  stores: Awaited<ReturnType<typeof setup>>,
  extra: Partial<
    Pick<Parameters<typeof startPortfolioRuns>[0], 'onBatch' | 'leadership' | 'readStore' | 'eventStore' | 'settleTimeoutMs'>
  > = {},
) {
  const runs = await startPortfolioRuns({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    blobs: stores.blobs,
    log,
    computer: inlineComputer(),
    settleTimeoutMs: 5_000,
    isWriter: async () => true,
    inFlight: 2,
    ...extra,
  });
  closers.push(() => runs.close());
  return runs;
}

const request = (extra: Partial<ServiceRequest> = {}): ServiceRequest =>
  ({ actor, correlation_id: 'test', params: {}, query: {}, body: {}, ...extra }) as ServiceRequest;

let uploads = 0;
async function upload(runs: PortfolioRuns, blobs: BlobStore, csv: string): Promise<PortfolioRun> {
  const blob_key = `uploads/0b6f3f0e-3333-4a4a-9a9a-${String(++uploads).padStart(12, '0')}`;
  await blobs.put(blob_key, Buffer.from(csv, 'utf8'), 'text/csv');
  return (await runs.handlers['create']!(
    request({ body: { blob_key, name: 'homes.csv', mimetype: 'text/csv', size: csv.length } }),
  )) as PortfolioRun;
}

async function finished(runs: PortfolioRuns, run_id: string): Promise<PortfolioRun> {
  await runs.runner.kick(run_id);
  return (await runs.handlers['get']!(request({ params: { portfolio_run_id: run_id } }))) as PortfolioRun;
}

async function allResults(runs: PortfolioRuns, run: PortfolioRun): Promise<PortfolioResultRow[]> {
  const rows: PortfolioResultRow[] = [];
  for (let batch = 0; ; batch++) {
    const page = (await runs.handlers['results']!(request({ params: { portfolio_run_id: run.id }, query: { batch } }))) as {
      batches: number;
      rows: PortfolioResultRow[];
    };
    rows.push(...page.rows);
    if (batch + 1 >= page.batches) return rows;
  }
}

const HEADER =
  'external_id;country;zip_code;year_built;estate_format;habitable_space_m2;heating_type;energy_efficiency_score;epc_label;outstanding_amount;property_value;favourite_colour';

describe('portfolio runs', () => {
  it('reports every kind of bad row as an ERROR naming its column and line, and finishes the run with the others', async () => {
    const stores = await setup();
    const runs = await start(stores);
    const lines = [
      `\ufeff${HEADER}`,
      'ok-1;BE;9000;1930;CLOSED;120;GAS;;;200000;300000;red', // line 2
      'bad-number;BE;9000;19x0;CLOSED;120;GAS;;;;;', // line 3: year_built
      'bad-enum;BE;9000;1930;ROUND;120;GAS;;;;;', // line 4: estate_format
      ';BE;9000;1930;CLOSED;120;GAS;;;;;', // line 5: external_id missing
      'bad-zip;BE;99;1930;CLOSED;120;GAS;;;;;', // line 6: zip_code
      'missing;BE;9000;;CLOSED;120;GAS;;;;;', // line 7: year_built required
      'few-fields;BE;9000', // line 8: field count
      'bad-label;BE;9000;1930;CLOSED;120;GAS;;Z;;;', // line 9: epc_label
      'mismatch;BE;9000;1930;CLOSED;120;GAS;150;D;;;', // line 10: label vs score
      'neg-amount;BE;9000;1930;CLOSED;120;GAS;;;-5;100;', // line 11: outstanding_amount
      'ok-1;BE;9000;1930;CLOSED;120;GAS;;;;;', // line 12: repeated external_id
      '"multi;line";BE;9000;1930;OPEN;"1', // lines 13-14: a quoted newline in habitable_space_m2
      '50";GAS;;;;;',
      'ok-2;NL;3731 AB;1975;SEMI_OPEN;110;GAS;;;150000;250000;', // line 15
    ];
    const run = await upload(runs, stores.blobs, `${lines.join('\r\n')}\r\n`);
    expect(run.total_rows).toBe(13);
    expect(run.ignored_columns).toEqual(['favourite_colour']);
    const done = await finished(runs, run.id);
    expect(done.status).toBe('FINISHED');
    expect(done.processed_rows).toBe(13);

    const rows = await allResults(runs, run);
    expect(rows.map((r) => r.row_number)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    const byId = (id: string | null, line: number) => rows.find((r) => r.external_id === id && r.line === line)!;
    const expectError = (id: string | null, line: number, column: string) => {
      const row = byId(id, line);
      expect(row.status, `line ${line}`).toBe('ERROR');
      expect(row.error).toContain(`line ${line}`);
      expect(row.error).toContain(column);
      expect(row.epc_label).toBeNull();
    };
    expectError('bad-number', 3, 'column year_built');
    expectError('bad-enum', 4, 'column estate_format');
    expectError(null, 5, 'column external_id');
    expectError('bad-zip', 6, 'column zip_code');
    expectError('missing', 7, 'column year_built');
    expectError('few-fields', 8, 'fields');
    expectError('bad-label', 9, 'column epc_label');
    expectError('mismatch', 10, 'column epc_label');
    expectError('neg-amount', 11, 'column outstanding_amount');
    expectError('ok-1', 12, 'column external_id');
    expect(byId('multi;line', 13).status).toBe('ERROR');
    expect(byId('multi;line', 13).error).toMatch(/line 13, column habitable_space_m2/);
    expect(byId('ok-1', 2).status).toBe('OK');
    expect(byId('ok-2', 15).status).toBe('OK');
    expect(done.failed_rows).toBe(11);
  }, 60_000);

  it('a certified row keeps its score and its label; an estimated one says so', async () => {
    const stores = await setup();
    const runs = await start(stores);
    const csv = [
      'external_id,country,zip_code,year_built,estate_format,habitable_space_m2,heating_type,energy_efficiency_score,epc_label',
      'cert-score,BE,9000,1930,CLOSED,120,GAS,237,',
      'cert-label,BE,9000,1930,CLOSED,120,GAS,,B',
      'estimated,BE,9000,1930,CLOSED,120,GAS,,',
    ].join('\n');
    const run = await upload(runs, stores.blobs, csv);
    await finished(runs, run.id);
    const rows = await allResults(runs, run);
    const [score, label, estimated] = rows;
    expect(score).toMatchObject({ status: 'OK', epc_score: 237, epc_label: labelFor('EPC_FLANDERS', 237), label_source: 'CERTIFIED' });
    expect(score!.pcaf_data_quality).toBe(3);
    expect(label).toMatchObject({ status: 'OK', epc_label: 'B', epc_scale: 'EPC_FLANDERS', label_source: 'CERTIFIED' });
    expect(estimated).toMatchObject({ status: 'OK', label_source: 'ESTIMATED', pcaf_data_quality: 4 });
  }, 60_000);

  it('the summary adds up exactly to the OK rows, by label and by EBA bucket, counts and amounts', async () => {
    const stores = await setup();
    const runs = await start(stores);
    const run = await upload(runs, stores.blobs, syntheticCsvText(450, 7));
    await finished(runs, run.id);
    const rows = await allResults(runs, run);
    const summary = (await runs.handlers['summary']!(request({ params: { portfolio_run_id: run.id } }))) as PortfolioSummary;
    const ok = rows.filter((r) => r.status === 'OK');
    expect(ok.length).toBeGreaterThan(400);
    expect(summary.ok_rows).toBe(ok.length);
    expect(summary.ok_rows + summary.failed_rows).toBe(450);
    const cents = (xs: Array<{ outstanding_amount: number | null }>) =>
      xs.reduce((s, r) => s + Math.round((r.outstanding_amount ?? 0) * 100), 0);
    expect(summary.by_label.reduce((s, b) => s + b.count, 0)).toBe(ok.length);
    expect(summary.by_energy_bucket.reduce((s, b) => s + b.count, 0)).toBe(ok.length);
    expect(cents(summary.by_label)).toBe(cents(ok));
    expect(cents(summary.by_energy_bucket)).toBe(cents(ok));
    expect(Math.round(summary.outstanding_amount * 100)).toBe(cents(ok));
    expect(summary.by_energy_bucket.map((b) => b.bucket)).toEqual(['0-100', '100-200', '200-300', '300-400', '400-500', '>500']);
    // Each label's figures are exactly those of its rows.
    for (const entry of summary.by_label) {
      const mine = ok.filter((r) => r.epc_scale === entry.scale && r.epc_label === entry.label);
      expect(entry.count).toBe(mine.length);
      expect(Math.round(entry.outstanding_amount * 100)).toBe(cents(mine));
    }
    expect(summary.estimated_share).toBeCloseTo(ok.filter((r) => r.label_source === 'ESTIMATED').length / ok.length, 4);
  }, 120_000);

  it('resumes a run interrupted mid-way where it stopped: every row exactly once', async () => {
    const stores = await setup();
    let batches = 0;
    let closing: Promise<void> | null = null;
    const first: PortfolioRuns = await start(stores, {
      // Closing the runner after two batches is the process going away: what it committed stays.
      onBatch: () => {
        if (++batches === 2) closing = first.runner.close();
      },
    });
    const run = await upload(first, stores.blobs, syntheticCsvText(1_000, 11));
    await first.runner.kick(run.id);
    await closing;
    const midway = (await first.store.progress(run.id)).length;
    expect(midway).toBeGreaterThanOrEqual(2);
    expect(midway).toBeLessThan(5);

    const computed: number[] = [];
    const second = await start(stores, { onBatch: (_r, batch) => computed.push(batch) });
    const done = await finished(second, run.id);
    expect(done.status).toBe('FINISHED');
    expect(done.processed_rows).toBe(1_000);
    // Only the batches the first process had not committed were computed again.
    expect(computed.length).toBe(5 - midway);
    const rows = await allResults(second, run);
    expect(rows.map((r) => r.row_number)).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
  }, 120_000);

  it('stops a run: no batch is computed after the stop, and the run stays STOPPED', async () => {
    const stores = await setup();
    let stopping: Promise<unknown> | null = null;
    const runs: PortfolioRuns = await start(stores, {
      onBatch: () => {
        stopping ??= runs.handlers['stop']!(request({ params: { portfolio_run_id: run.id } }));
      },
    });
    const run = await upload(runs, stores.blobs, syntheticCsvText(2_000, 3));
    await runs.runner.kick(run.id);
    expect(((await (stopping as Promise<unknown> | null)) as PortfolioRun).status).toBe('STOPPED');
    const after = (await runs.handlers['get']!(request({ params: { portfolio_run_id: run.id } }))) as PortfolioRun;
    expect(after.status).toBe('STOPPED');
    expect(after.processed_rows).toBeLessThan(2_000);
  }, 120_000);

  it('two replicas over one store: only the one holding the lease drives a run, and the other takes it over where it stopped', async () => {
    const stores = await setup();
    // Two replicas as two processes would be: their own connections to the stores, one lease table.
    const holders = new Map();
    const lease = () =>
      openLeadership({ leases: createMemoryLeaseStore(holders), name: 'calculations:background', shared: true, retryMs: 20, log });
    const [leaderA, leaderB] = [await lease(), await lease()];
    const second = {
      eventStore: openSqliteEventStore({ file: join(stores.dir, 'events.db'), synchronous: 'NORMAL' }),
      readStore: openSqliteReadStore({ file: join(stores.dir, 'reads.db'), synchronous: 'NORMAL' }),
    };
    closers.push(() => second.eventStore.close());
    closers.push(() => second.readStore.close());
    closers.push(() => leaderB.close());
    const computedBy = { a: [] as number[], b: [] as number[] };
    let stopA: (() => void) | null = null;
    // A second connection's projection learns of new events by polling: slower than the first's on a loaded machine.
    const a = await start(stores, {
      settleTimeoutMs: 30_000,
      leadership: leaderA,
      onBatch: (_, batch) => {
        computedBy.a.push(batch);
        if (computedBy.a.length === 2) stopA?.();
      },
    });
    const b = await start(stores, {
      ...second,
      settleTimeoutMs: 30_000,
      leadership: leaderB,
      onBatch: (_, batch) => void computedBy.b.push(batch),
    });
    expect([leaderA.leading, leaderB.leading]).toEqual([true, false]);

    // Uploaded to the replica that does not lead: it stores the run, the leader finds it and drives it.
    const aHandsOver = new Promise<void>((resolve) => {
      stopA = resolve;
    });
    const uploading = upload(b, stores.blobs, syntheticCsvText(3_000));
    await aHandsOver;
    expect(computedBy.b).toEqual([]);
    // The leader goes (a restart, a lost lease): the other replica takes the lease and finishes the run.
    await a.close();
    await leaderA.close();
    const run = await uploading;
    await vi.waitFor(
      async () => {
        const view = (await b.handlers['get']!(request({ params: { portfolio_run_id: run.id } }))) as PortfolioRun;
        expect(view.status).toBe('FINISHED');
      },
      { timeout: 60_000, interval: 200 },
    );
    const done = (await b.handlers['get']!(request({ params: { portfolio_run_id: run.id } }))) as PortfolioRun;
    expect(done.processed_rows).toBe(3_000);
    expect(computedBy.b.length).toBeGreaterThan(0);
    const rows = await allResults(b, run);
    expect(rows.map((r) => r.row_number)).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
    // Every batch committed, by one replica or the other (and counted once: processed_rows above).
    expect(new Set([...computedBy.a, ...computedBy.b]).size).toBe(15);
  }, 120_000);

  it('refuses a file it cannot read with the line, and one without external_id', async () => {
    const stores = await setup();
    const runs = await start(stores);
    await expect(upload(runs, stores.blobs, 'country,zip_code\nBE,9000\n')).rejects.toMatchObject({ status: 400 });
    await expect(upload(runs, stores.blobs, 'external_id,zip_code\na,9000\nb,"90\n')).rejects.toMatchObject({
      status: 400,
      messages: [expect.stringMatching(/line 3/)],
    });
  });

  it('escapes cells a spreadsheet would run as formulas in the CSV export', () => {
    const [row] = computeBatch([{ row_number: 1, line: 2, cells: { external_id: '=HYPERLINK("x")' } }], 2026);
    const csv = resultsCsv([row!], true);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv.split('\n')[0]).toContain('row_number,line,external_id,status,error');
  });
});
