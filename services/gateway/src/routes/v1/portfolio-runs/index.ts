import {
  EmptyBody,
  PortfolioResultRow,
  PortfolioResultsQuery,
  PortfolioRun,
  PortfolioRunListQuery,
  PortfolioRunPage,
  PortfolioSubjects as S,
  PortfolioSummary,
} from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** Portfolio runs (docs/portfolio-runs.md): a CSV of homes in, a result row per home and the supervisor's tables out. */
const runs = { prefix: 'v1', auth: 'bearer', scope: 'calculations', tag: 'portfolio-runs' } as const;
const R = '/portfolio-runs/{portfolio_run_id}';
/** 50 MiB: a file of 100,000 homes with every column is about 30 MiB. */
export const PORTFOLIO_UPLOAD_BYTES = 50 * 1024 * 1024;

export const portfolioRunRoutes: RouteDef[] = [
  {
    ...runs,
    method: 'POST',
    path: '/portfolio-runs',
    subject: S.createRun,
    operationId: 'createPortfolioRun',
    kind: 'upload',
    accept: ['text/csv'],
    // Streamed to the blob store as it arrives: a 50 MiB file is never held whole by the gateway.
    upload: { maxBytes: PORTFOLIO_UPLOAD_BYTES, fields: ['webhook_url'], stream: true },
    status: 202,
    reply: PortfolioRun,
    summary:
      'Start a portfolio run from a CSV of homes (multipart/form-data: part file, UTF-8 with a header row, comma or semicolon; optional parts name and webhook_url; at most 100,000 rows and 50 MiB, 413 beyond). Each row is computed in the background; a bad row becomes an ERROR result row naming its column and line. 400: a file that cannot be read (the line says where) or has no external_id column',
    errors: [400, 401, 403, 413, 415],
  },
  {
    ...runs,
    method: 'GET',
    path: '/portfolio-runs',
    subject: S.listRuns,
    operationId: 'listPortfolioRuns',
    query: PortfolioRunListQuery,
    status: 200,
    reply: PortfolioRunPage,
    summary: "The organization's portfolio runs, newest first (page, page_size)",
    errors: [400, 401, 403],
  },
  {
    ...runs,
    method: 'GET',
    path: R,
    subject: S.getRun,
    operationId: 'getPortfolioRun',
    ids: ['portfolio_run_id'],
    status: 200,
    reply: PortfolioRun,
    summary: 'One portfolio run: its status, rows processed and failed, and an ETA while it runs',
    errors: [401, 403, 404],
  },
  {
    ...runs,
    method: 'POST',
    path: `${R}/stop`,
    subject: S.stopRun,
    operationId: 'stopPortfolioRun',
    ids: ['portfolio_run_id'],
    body: EmptyBody,
    status: 200,
    reply: PortfolioRun,
    summary:
      'Stop a portfolio run (no body, or {}): no batch starts after it; the rows computed so far stay readable. A run that has ended is returned as it ended',
    errors: [400, 401, 403, 404],
  },
  {
    ...runs,
    method: 'GET',
    path: `${R}/summary`,
    subject: S.summary,
    operationId: 'getPortfolioRunSummary',
    ids: ['portfolio_run_id'],
    status: 200,
    reply: PortfolioSummary,
    summary:
      "The run's tables over its OK rows so far: by label on each region's scale, by EBA Pillar 3 energy bucket (counts and outstanding amounts add up to the OK rows exactly), the estimated share, the taxonomy-aligned share and PCAF financed emissions with their weighted data quality",
    errors: [401, 403, 404],
  },
  {
    ...runs,
    method: 'GET',
    path: `${R}/results`,
    subject: S.resultsPage,
    operationId: 'getPortfolioRunResults',
    ids: ['portfolio_run_id'],
    query: PortfolioResultsQuery,
    kind: 'stream',
    stream: [
      { media: 'text/csv', format: 'csv' },
      { media: 'application/x-ndjson', format: 'ndjson' },
    ],
    status: 200,
    reply: PortfolioResultRow,
    summary:
      'The result rows, one per input row in file order, streamed: CSV (default; cells a spreadsheet would run as formulas start with a quote) or JSON lines with Accept: application/x-ndjson. While the run goes on, the rows of the batches computed so far',
    errors: [401, 403, 404, 406],
  },
];
