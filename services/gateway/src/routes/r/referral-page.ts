import { ReferralPageQuery, ReportingSubjects as S } from '@renopath/contracts';
import { renderReferralNotFound, renderReferralPage } from '@renopath/reporting/referral-page/index.ts';
import { isReportLanguage } from '@renopath/reporting/i18n/index.ts';
import type { ReportLanguage, ReportModel } from '@renopath/reporting/report-model.ts';
import type { RouteDef } from '../route.ts';

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

/** The public referral page of an estate: unversioned, like the links handed out. */
export const referralPageRoutes: RouteDef[] = [
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
];
