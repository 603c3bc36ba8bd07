import { z } from 'zod';
import { IdentitySubjects as S, UpdateUserBody, User } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** The caller and the users of their organization. */
export const userRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/users/me',
    prefix: 'both',
    subject: S.me,
    operationId: 'getCurrentUser',
    auth: 'bearer',
    status: 200,
    reply: z.array(User),
    summary: "The token's user, in an array",
    tag: 'users',
    errors: [401],
  },
  {
    method: 'PATCH',
    path: '/users/{user_id}',
    prefix: 'both',
    subject: S.updateUser,
    operationId: 'updateUser',
    auth: 'bearer',
    scope: 'organization',
    ids: ['user_id'],
    body: UpdateUserBody,
    status: 200,
    reply: User,
    summary:
      'Edit a user (the user themself or an owner of their organization). A new email_address (the user themself only) stays in pending_email_address until confirmed with the code sent to it; the answer is the same whether or not the address has an account',
    tag: 'users',
    errors: [400, 401, 403, 404],
  },
];
