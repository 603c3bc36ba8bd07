import { adminRoutes } from './admin/index.ts';
import { referralPageRoutes } from './r/referral-page.ts';
import { passportVerificationRoutes } from './renovation-passports/verification.ts';
import type { RouteDef } from './route.ts';
import { calculationJobRoutes } from './v1/calculation-jobs/index.ts';
import { calculationRoutes } from './v1/calculations/index.ts';
import { emailChangeRoutes } from './v1/email-changes/index.ts';
import { estateListRoutes } from './v1/estate/list.ts';
import { estateFileRoutes } from './v1/estates/files.ts';
import { estateRoutes } from './v1/estates/index.ts';
import { estateMemberRoutes } from './v1/estates/members.ts';
import { estatePartRoutes } from './v1/estates/parts.ts';
import { estatePassportRoutes } from './v1/estates/renovation-passports.ts';
import { invitationRoutes } from './v1/invitations/index.ts';
import { organizationRoutes } from './v1/organizations/index.ts';
import { portfolioRunRoutes } from './v1/portfolio-runs/index.ts';
import { passportRoutes } from './v1/renovation-passports/index.ts';
import { renovationRoutes } from './v1/renovations/index.ts';
import { renovationItemRoutes } from './v1/renovations/items.ts';
import { reportRoutes } from './v1/renovations/reports.ts';
import { userRoutes } from './v1/users/index.ts';
import { jwksRoutes } from './well-known/jwks.ts';

/**
 * Every route the gateway forwards to a context, assembled here and nowhere else: the gateway
 * registers these, `/openapi.json` describes them, the tests walk them. Each folder follows its URL
 * (`v1/estates/parts.ts` serves `/v1/estates/{estate_id}/floors/...`; a `both` route is also served
 * without `/v1`); the unversioned-only routes sit outside `v1/`. The order is the document's.
 */
export const gatewayRoutes: readonly RouteDef[] = [
  ...jwksRoutes,
  ...userRoutes,
  ...organizationRoutes,
  ...invitationRoutes,
  ...emailChangeRoutes,
  ...adminRoutes,
  ...estateRoutes,
  ...estateListRoutes,
  ...estateFileRoutes,
  ...estatePartRoutes,
  ...estateMemberRoutes,
  ...renovationRoutes,
  ...renovationItemRoutes,
  ...calculationJobRoutes,
  ...calculationRoutes,
  ...portfolioRunRoutes,
  ...reportRoutes,
  ...referralPageRoutes,
  ...passportRoutes,
  ...estatePassportRoutes,
  ...passportVerificationRoutes,
];
