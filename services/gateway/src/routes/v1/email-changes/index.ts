import { ConfirmEmailChangeBody, EmailChangeConfirmation, IdentitySubjects as S } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** Confirming a new email address with the code mailed to it. */
export const emailChangeRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/email-changes/confirm',
    prefix: 'v1',
    subject: S.confirmEmailChange,
    operationId: 'confirmEmailChange',
    rules: ['the confirmation code is not valid or has expired'],
    auth: 'none',
    body: ConfirmEmailChangeBody,
    status: 200,
    reply: EmailChangeConfirmation,
    summary: "Extension: confirm a new email address with the single-use code mailed to it; the user's address changes",
    tag: 'users',
    errors: [400, 429],
  },
];
