import { z } from 'zod';
import { CreateReportBody, ReferralPageQuery, ReportingSubjects as S, ReportOldStyle, ReportV1 } from '@renopath/contracts';
import { renderReferralNotFound, renderReferralPage } from '@renopath/reporting/referral-page/index.ts';
import { isReportLanguage } from '@renopath/reporting/i18n/index.ts';
import type { ReportLanguage, ReportModel } from '@renopath/reporting/report-model.ts';
import { passportRoutes } from './passport.routes.ts';
import type { RouteDef } from './route.ts';

/** Reports of a renovation (docs/http-contract.md "Renovations and reports") and the public referral page (docs/http-contract.md "Estates and their parts"). */
const reports = { auth: 'bearer', scope: 'reports', tag: 'reports' } as const;
const R = '/renovations/{renovation_id}';

type ReferralReply = Omit<ReportModel, 'estate'> & { estate: Omit<ReportModel['estate'], 'photo'>; languages: ReportLanguage[] };

/** The page in the language the service chose; the switcher links keep the visitor on the same page. */
export function referralHtml(reply: unknown, query: Record<string, unknown> = {}): string {
  // An estate without a finished trajectory gets the same page with its current label only.
  const { languages, ...model } = reply as ReferralReply;
  const asked = typeof query['lang'] === 'string' ? query['lang'] : null;
  return renderReferralPage(
    { ...model, estate: { ...model.estate, photo: null } },
    {
      languages,
      // A `?lang=` the page does not have: the page says so in the language it falls back to (and Content-Language names it).
      unavailableLanguage: asked !== null && asked !== model.language ? asked : null,
      hrefFor: (language) => `?lang=${encodeURIComponent(language)}`,
      // No agency setting allows the exact address yet: the page shows what an advert would.
      showHouseNumber: false,
    },
  );
}

export const reportingRoutes: RouteDef[] = [
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
  {
    method: 'GET',
    path: '/r/{token}',
    prefix: 'bare',
    auth: 'none',
    subject: S.referral,
    operationId: 'getReferralPage',
    query: ReferralPageQuery,
    kind: 'html',
    render: referralHtml,
    renderNotFound: (query) => renderReferralNotFound(isReportLanguage(query['lang']) ? query['lang'] : 'en'),
    status: 200,
    summary:
      "Public referral page of an estate: the home's basics, its current and reachable EPC label and the latest trajectory's steps (HTML, no login). `?lang=` picks one of the languages of the home's country (nl-BE, fr-BE and en in Belgium; nl-NL and en in the Netherlands); any other value falls back to the country's first language, which the page says at its top, and `Content-Language` names the language served",
    tag: 'reports',
    errors: [404],
  },
  ...passportRoutes,
];
