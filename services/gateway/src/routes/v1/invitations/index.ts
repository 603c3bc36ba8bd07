import { AcceptInvitationBody, IdentitySubjects as S, InvitationAcceptance } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** Accepting an invitation with the code mailed to the invited address. */
export const invitationRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/invitations/accept',
    prefix: 'v1',
    subject: S.acceptInvitation,
    operationId: 'acceptInvitation',
    rules: ['the invitation code is not valid or has expired'],
    auth: 'none',
    body: AcceptInvitationBody,
    status: 200,
    reply: InvitationAcceptance,
    summary:
      'Extension: accept an invitation with the single-use code mailed to the invited address; the membership (and the estate memberships it came with) becomes ACTIVE',
    tag: 'organizations',
    errors: [400, 429],
  },
];
