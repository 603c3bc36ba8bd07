import type { ReadStoreTx, RecordedEvent } from '@renopath/platform';
import { ReportEvents } from '@renopath/contracts';
import { REPORT_STREAM_PREFIX } from '../report/report.decider.ts';

export const REPORT_VIEWS_PROJECTION = 'report-views';
export const C = { reports: 'reporting_reports' } as const;
export { REPORT_STREAM_PREFIX };

export interface ReportDoc {
  id: string;
  renovation_id: string;
  estate_id: string;
  organization_id: string;
  language: string;
  name: string;
  blob_key: string;
  created_at: string;
  /** Global position of its event: orders reports made in the same millisecond. */
  position: number;
}

/** The reports read model: one document per report (whether it is outdated is read from the change log). */
export async function projectReportViews(event: RecordedEvent, tx: ReadStoreTx): Promise<void> {
  if (event.type !== 'ReportCreated') return;
  const data = ReportEvents.ReportCreated.parse(event.data);
  await tx.put<ReportDoc>(C.reports, data.report_id, {
    id: data.report_id,
    renovation_id: data.renovation_id,
    estate_id: data.estate_id,
    organization_id: data.organization_id,
    language: data.language,
    name: data.name,
    blob_key: data.blob_key,
    created_at: data.created_at,
    position: Number(event.position),
  });
}
