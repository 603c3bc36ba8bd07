import { z } from 'zod';
import { AddEstateMemberBody, EstateMember, EstatesSubjects as S } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { base, E } from './index.ts';

/** An estate's members: the clients who may read it. */
export const estateMemberRoutes: RouteDef[] = [
  {
    ...base,
    method: 'GET',
    path: `${E}/members`,
    subject: S.listMembers,
    operationId: 'listEstateMembers',
    ids: ['estate_id'],
    status: 200,
    reply: z.array(EstateMember),
    summary: "The estate's members (CLIENT), invited ones with status PENDING; a CLIENT reader sees only themself",
    errors: [401, 403, 404],
  },
  {
    ...base,
    method: 'POST',
    path: `${E}/members`,
    subject: S.addMember,
    operationId: 'inviteEstateMember',
    ids: ['estate_id'],
    body: AddEstateMemberBody,
    status: 201,
    reply: EstateMember,
    summary:
      'Invite an estate member: PENDING (and a pending CLIENT of the organization) until they accept the invitation mailed to the address; answered with the names given here. An active member of the organization is a member at once and keeps their role',
    errors: [400, 401, 403, 404],
  },
  {
    ...base,
    method: 'DELETE',
    path: `${E}/members/{member_id}`,
    subject: S.removeMember,
    operationId: 'removeEstateMember',
    ids: ['estate_id', 'member_id'],
    status: 200,
    reply: EstateMember,
    summary: 'Remove an estate member (they stay in the organization)',
    errors: [401, 403, 404],
  },
];
