import { PassportSubjects as S, PassportVerificationQuery } from '@renopath/contracts';
import { isReportLanguage } from '@renopath/reporting/i18n/index.ts';
import type { PassportVerification } from '@renopath/reporting/passport/passport.handlers.ts';
import { renderVerificationNotFound, renderVerificationPage } from '@renopath/reporting/passport/verification-page.ts';
import type { RouteDef } from '../route.ts';

const ONE = '/renovation-passports/{passport_id}';

/** A signed passport's public page: unversioned, like the link printed on the passport. */
export const passportVerificationRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: `${ONE}/verification`,
    prefix: 'bare',
    auth: 'none',
    subject: S.verification,
    operationId: 'getRenovationPassportVerification',
    ids: ['passport_id'],
    query: PassportVerificationQuery,
    kind: 'html',
    render: (reply) => renderVerificationPage(reply as PassportVerification),
    renderNotFound: (query) => renderVerificationNotFound(isReportLanguage(query['lang']) ? query['lang'] : 'en'),
    status: 200,
    summary:
      'Public page of a signed passport (HTML, no login; `?lang=`): its summary, the content hash, and whether the content matches it and the signature verifies with the published key',
    tag: 'renovation passports',
    errors: [404],
  },
];
