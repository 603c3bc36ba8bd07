import { z } from 'zod';
import { Timestamp, Uuid } from './identity.ts';
import { Report, OldStyleReport, ReportLanguage } from './renovations.ts';

/**
 * The reporting context (docs/http-contract.md "Renovations and reports"; `referral_link` in "Estates and their parts"): PDF reports of a renovation, their
 * `is_outdated` flag, and the data of the public referral page. `ReportLanguage` and
 * `CreateReportBody` are the renovations contract's (the endpoint shapes were fixed there first).
 */

/** `{ id, name, url, created_at, is_outdated }`; the service answers `url: null` with a `blob_key` the gateway signs. */
export const ReportV1 = Report;
export type ReportV1 = z.infer<typeof ReportV1>;
/** `GET /renovations/{id}/report`: `{ id, name, url, mimetype }`. */
export const ReportOldStyle = OldStyleReport;
export type ReportOldStyle = z.infer<typeof ReportOldStyle>;

/**
 * `GET /r/{token}?lang=`: a public page linked from adverts, so other parameters (campaign tags) and an
 * unknown language are ignored rather than refused: the page answers in the home's default language.
 */
export const ReferralPageQuery = z.object({ lang: z.string().max(16).optional() });

/** Events of a report stream (`report-<id>`). */
export const ReportEvents = {
  ReportCreated: z.object({
    report_id: Uuid,
    renovation_id: Uuid,
    estate_id: Uuid,
    organization_id: Uuid,
    language: ReportLanguage,
    name: z.string(),
    /** `reports/<report_id>.pdf` in the blob store. */
    blob_key: z.string(),
    created_at: Timestamp,
  }),
} as const;
export type ReportEventType = keyof typeof ReportEvents;
export type ReportEvent = { [K in ReportEventType]: { type: K; data: z.infer<(typeof ReportEvents)[K]> } }[ReportEventType];

/** Subjects of the reporting context (`cmd.reporting.*`, `qry.reporting.*`; events on `evt.reporting.<EventType>`). */
export const ReportingSubjects = {
  /** Params `renovation_id`; body CreateReportBody; reply ReportV1 (with `blob_key`). */
  createReport: 'cmd.reporting.create-report',
  /** Params `renovation_id`; reply ReportV1[] newest first. */
  listReports: 'qry.reporting.list-reports',
  /** Params `renovation_id`; reply ReportOldStyle (with `blob_key`): the newest current report, made on the fly if needed. */
  oldStyleReport: 'qry.reporting.old-style-report',
  /** Public (no actor): params `token`, query ReferralPageQuery; reply the ReportModel (no photo) with `languages` and `language`. */
  referral: 'qry.reporting.referral',
} as const;
