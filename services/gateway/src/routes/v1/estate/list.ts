import { EstateListQuery, EstateListReply, EstatesSubjects as S } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { base } from '../estates/index.ts';

/** The older list of estates with their referral links, kept under its own path. */
export const estateListRoutes: RouteDef[] = [
  {
    ...base,
    prefix: 'v1',
    method: 'GET',
    path: '/estate/list',
    subject: S.estateList,
    operationId: 'listEstatesWithReferrals',
    query: EstateListQuery,
    signLinks: true,
    status: 200,
    reply: EstateListReply,
    summary: 'The estates the caller sees, with provider, external id, quality label and referral link per item',
    errors: [400, 401, 403],
  },
];
