import { z } from 'zod';
import { CreateReportBody, ReportingSubjects as S, ReportOldStyle, ReportV1 } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** Reports of a renovation (docs/http-contract.md "Renovations and reports") and the public referral page (docs/http-contract.md "Estates and their parts"). */
const reports = { auth: 'bearer', scope: 'reports', tag: 'reports' } as const;
const R = '/renovations/{renovation_id}';

export const reportRoutes: RouteDef[] = [
  {
    ...reports,
    prefix: 'v1',
    method: 'POST',
    path: `${R}/reports`,
    subject: S.createReport,
    operationId: 'createReport',
    ids: ['renovation_id'],
    body: CreateReportBody,
    signLinks: true,
    status: 200,
    reply: ReportV1,
    summary:
      "Make a PDF report of the renovation (language nl-BE, nl-NL, fr-BE or en; default from the estate's country); `url` downloads it for an hour",
    errors: [400, 401, 403, 404],
  },
  {
    ...reports,
    prefix: 'v1',
    method: 'GET',
    path: `${R}/reports`,
    subject: S.listReports,
    operationId: 'listReports',
    ids: ['renovation_id'],
    signLinks: true,
    status: 200,
    reply: z.array(ReportV1),
    summary:
      "The renovation's reports, newest first; `is_outdated` once the renovation, its items or its estate changed after the report was made",
    errors: [401, 403, 404],
  },
  {
    ...reports,
    prefix: 'both',
    method: 'GET',
    path: `${R}/report`,
    subject: S.oldStyleReport,
    operationId: 'getCurrentReport',
    ids: ['renovation_id'],
    signLinks: true,
    status: 200,
    reply: ReportOldStyle,
    summary: "The renovation's newest report in the estate's default language, made now when there is none or it is outdated",
    errors: [401, 403, 404],
  },
];
