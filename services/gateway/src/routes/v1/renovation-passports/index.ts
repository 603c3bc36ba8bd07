import {
  CreatePassportBody,
  PassportPdfQuery,
  PassportSubjects as S,
  RenovationPassport,
  SignPassportBody,
  UpdatePassportBody,
} from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/**
 * Renovation passports (docs/renovation-passport.md): read with the `reports` scope, written (drafted,
 * completed, signed) with `passports`. Another organization's passport is unknown (404) on every path.
 */
export const read = { auth: 'bearer', scope: 'reports', tag: 'renovation passports', prefix: 'v1' } as const;
const write = { auth: 'bearer', scope: 'passports', tag: 'renovation passports', prefix: 'v1' } as const;
const ONE = '/renovation-passports/{passport_id}';

export const passportRoutes: RouteDef[] = [
  {
    ...write,
    method: 'POST',
    path: '/renovation-passports',
    subject: S.create,
    operationId: 'createRenovationPassport',
    body: CreatePassportBody,
    status: 201,
    reply: RenovationPassport,
    summary:
      'Draft a renovation passport from a FINISHED trajectory job of the organization: the content is pre-filled from the plan and the estate; a new passport of the same estate takes the next version (422 for a job that is not a finished trajectory)',
    errors: [400, 401, 403, 404, 422],
  },
  {
    ...read,
    method: 'GET',
    path: ONE,
    subject: S.get,
    operationId: 'getRenovationPassport',
    ids: ['passport_id'],
    status: 200,
    reply: RenovationPassport,
    summary: 'A renovation passport, draft or signed',
    errors: [401, 403, 404],
  },
  {
    ...write,
    method: 'PATCH',
    path: ONE,
    subject: S.update,
    operationId: 'updateRenovationPassport',
    ids: ['passport_id'],
    body: UpdatePassportBody,
    rules: ['steps.{i}.note note is required with a quantity or cost override'],
    status: 200,
    reply: RenovationPassport,
    summary:
      'Complete a draft: the site visit, and step edits by `plan_order` (drop, override a quantity or cost with a note, `step_order` to reorder); totals and labels are recomputed. A signed passport answers 409',
    errors: [400, 401, 403, 404, 409],
  },
  {
    ...write,
    method: 'POST',
    path: `${ONE}/sign`,
    subject: S.sign,
    operationId: 'signRenovationPassport',
    ids: ['passport_id'],
    body: SignPassportBody,
    status: 200,
    reply: RenovationPassport,
    summary:
      'Sign the passport: `content_sha256` (SHA-256 of the RFC 8785 canonical JSON of `content`), `signature` (a compact JWS verifiable with /.well-known/jwks.json) and `verification_url` are set and it is final. 422 without a site visit, 409 when already signed',
    errors: [400, 401, 403, 404, 409, 422],
  },
  {
    ...read,
    method: 'GET',
    path: `${ONE}/pdf`,
    subject: S.pdf,
    operationId: 'getRenovationPassportPdf',
    ids: ['passport_id'],
    query: PassportPdfQuery,
    kind: 'file',
    fileType: 'application/pdf',
    status: 200,
    summary:
      "The printable passport (PDF) in the reader's language (`language` nl-BE, fr-BE, en or nl-NL; default from the estate's country): roadmap, steps, money, assumptions, site visit and signature block",
    errors: [400, 401, 403, 404],
  },
];
