import { z } from 'zod';
import { EnergyEfficiencyType } from './enums.ts';
import { JobActor } from './calculations.ts';
import { Timestamp, Uuid } from './identity.ts';
import { paginated } from './renovations.ts';
import { UploadedFile } from './estates.ts';

/**
 * Portfolio runs (docs/portfolio-runs.md): a CSV of homes (a lender's collateral, a housing
 * corporation's stock) computed in batches, one result row per input row, and the supervisor's
 * tables over the rows that computed. A run is a stream `portfolio-run-<id>`; its rows and results are
 * written in bulk beside it, one transaction per batch.
 */

export const PortfolioRunStatus = z.enum(['QUEUED', 'RUNNING', 'FINISHED', 'STOPPED', 'FAILED']);
export type PortfolioRunStatus = z.infer<typeof PortfolioRunStatus>;

export const PortfolioRun = z.object({
  id: Uuid,
  name: z.string().nullable(),
  status: PortfolioRunStatus,
  total_rows: z.number().int(),
  processed_rows: z.number().int(),
  failed_rows: z.number().int(),
  /** Columns of the file that are not a portfolio column: ignored, listed here. */
  ignored_columns: z.array(z.string()),
  webhook_url: z.string().nullable(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
  /** While RUNNING: when the rows left should be done at the rate so far (null before the first batch). */
  eta: Timestamp.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type PortfolioRun = z.infer<typeof PortfolioRun>;
export const PortfolioRunPage = paginated(PortfolioRun);

export const PortfolioRunListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048);

/** The upload as the gateway hands it to the service: the stored file and the form's other parts. */
export const CreatePortfolioRunBody = UploadedFile.extend({
  webhook_url: httpUrl().optional(),
});
export type CreatePortfolioRunBody = z.infer<typeof CreatePortfolioRunBody>;

export const LabelSource = z.enum(['CERTIFIED', 'ESTIMATED']);
export const TaxonomyStatus = z.enum(['CLASS_A', 'TOP_15', 'NOT_ALIGNED', 'NOT_ASSESSABLE', 'NOT_APPLICABLE']);
export type TaxonomyStatus = z.infer<typeof TaxonomyStatus>;

/** One result row, one per input row (docs/portfolio-runs.md "Results"). */
export const PortfolioResultRow = z.object({
  row_number: z.number().int(),
  /** The file's line the row starts on (the header is line 1). */
  line: z.number().int(),
  external_id: z.string().nullable(),
  status: z.enum(['OK', 'ERROR']),
  /** For ERROR: the column and why, with the line number. */
  error: z.string().nullable(),
  epc_score: z.number().nullable(),
  epc_label: z.string().nullable(),
  epc_scale: EnergyEfficiencyType.nullable(),
  label_source: LabelSource.nullable(),
  confidence_score: z.number().nullable(),
  primary_energy_kwh_m2: z.number().nullable(),
  co2_kg_year: z.number().nullable(),
  co2_kg_m2_year: z.number().nullable(),
  /** Taxonomy 7.7 for a home built before 2021: true or false where it can be told, null where not (see taxonomy_status). */
  taxonomy_top_15: z.boolean().nullable(),
  /**
   * Why taxonomy_top_15 is what it is: CLASS_A (label A or better), TOP_15 (within the region's top-15%
   * figure), NOT_ALIGNED, NOT_ASSESSABLE (not class A, and no verified top-15% figure for the region),
   * NOT_APPLICABLE (built from 2021: another criterion, not assessed). Null on an ERROR row.
   */
  taxonomy_status: TaxonomyStatus.nullable(),
  /** The rule id of the first milestone the trajectory reaches (obligation, rental norm, regional target). */
  next_milestone: z.string().nullable(),
  /** The date that milestone must be reached by (YYYY-MM-DD), as the planner dates it for a single job. */
  next_milestone_date: z.string().nullable(),
  cost_to_next_milestone: z.number().nullable(),
  cost_to_target: z.number().nullable(),
  outstanding_amount: z.number().nullable(),
  financed_emissions_kg_year: z.number().nullable(),
  pcaf_data_quality: z.number().int().min(1).max(5).nullable(),
});
export type PortfolioResultRow = z.infer<typeof PortfolioResultRow>;

/** The result columns, in the order of the CSV export. */
export const PORTFOLIO_RESULT_COLUMNS = Object.keys(PortfolioResultRow.shape) as Array<keyof PortfolioResultRow>;

export const PortfolioSummary = z.object({
  run_id: Uuid,
  status: PortfolioRunStatus,
  ok_rows: z.number().int(),
  failed_rows: z.number().int(),
  outstanding_amount: z.number(),
  by_label: z.array(z.object({ scale: EnergyEfficiencyType, label: z.string(), count: z.number().int(), outstanding_amount: z.number() })),
  /** EBA Pillar 3 ESG template 2's buckets of primary energy (kWh/m2.yr). */
  by_energy_bucket: z.array(z.object({ bucket: z.string(), count: z.number().int(), outstanding_amount: z.number() })),
  /** Share of OK rows whose label was estimated (no certificate given). */
  estimated_share: z.number(),
  /** Share of OK rows aligned with taxonomy 7.7 (class A, or within a verified regional top-15% figure). */
  taxonomy_aligned_share: z.number(),
  /** Share of OK rows whose alignment cannot be told: not class A, and no verified top-15% figure for their region. */
  taxonomy_not_assessable_share: z.number(),
  financed_emissions_kg_year: z.number(),
  /** PCAF data quality weighted by financed emissions (null when no row has emissions). */
  financed_emissions_data_quality: z.number().nullable(),
});
export type PortfolioSummary = z.infer<typeof PortfolioSummary>;

export const PortfolioRunCreated = z.object({
  run_id: Uuid,
  actor: JobActor,
  name: z.string().nullable(),
  webhook_url: z.string().nullable(),
  total_rows: z.number().int(),
  batches: z.number().int(),
  ignored_columns: z.array(z.string()),
  created_at: Timestamp,
});
export const PortfolioRunEvents = {
  PortfolioRunCreated,
  PortfolioRunStarted: z.object({ run_id: Uuid, started_at: Timestamp }),
  PortfolioRunStopped: z.object({ run_id: Uuid, stopped_at: Timestamp }),
  PortfolioRunFinished: z.object({
    run_id: Uuid,
    finished_at: Timestamp,
    processed_rows: z.number().int(),
    failed_rows: z.number().int(),
  }),
  PortfolioRunFailed: z.object({ run_id: Uuid, failed_at: Timestamp, error: z.object({ code: z.string(), message: z.string() }) }),
} as const;
export type PortfolioRunEvent = {
  [K in keyof typeof PortfolioRunEvents]: { type: K; data: z.infer<(typeof PortfolioRunEvents)[K]> };
}[keyof typeof PortfolioRunEvents];

export const PortfolioSubjects = {
  createRun: 'cmd.calculations.create-portfolio-run',
  getRun: 'qry.calculations.get-portfolio-run',
  listRuns: 'qry.calculations.list-portfolio-runs',
  stopRun: 'cmd.calculations.stop-portfolio-run',
  summary: 'qry.calculations.portfolio-run-summary',
  /** One batch of result rows (query `batch`, `format`), for the gateway's streamed results. */
  resultsPage: 'qry.calculations.portfolio-run-results',
  /** Internal (portfolio workers, any process): compute one batch of rows; reply the result rows. */
  computeBatch: 'cmd.calculations.compute-portfolio-batch',
} as const;

/** The HTTP query of the results: none (the format is the Accept header's). */
export const PortfolioResultsQuery = z.strictObject({});
/** One batch of the results as the gateway streams them: its rows rendered in the asked format. */
export const PortfolioResultsPageQuery = z.strictObject({
  batch: z.coerce.number().int().min(0).max(1_000_000).default(0),
  format: z.enum(['csv', 'ndjson', 'json']).default('json'),
});
export const PortfolioResultsPage = z.object({
  batch: z.number().int(),
  batches: z.number().int(),
  /** Whether the batch is computed (false: not yet; its rows are absent). */
  done: z.boolean(),
  /** format json: the rows. */
  rows: z.array(PortfolioResultRow).optional(),
  /** format csv (with the header line on batch 0) or ndjson: the rows as text. */
  text: z.string().optional(),
});
