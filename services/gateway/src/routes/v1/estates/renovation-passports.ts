import { z } from 'zod';
import { PassportSubjects as S, RenovationPassport } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';
import { read } from '../renovation-passports/index.ts';

/** An estate's renovation passports, every version (docs/renovation-passport.md). */
export const estatePassportRoutes: RouteDef[] = [
  {
    ...read,
    method: 'GET',
    path: '/estates/{estate_id}/renovation-passports',
    subject: S.listForEstate,
    operationId: 'listEstateRenovationPassports',
    ids: ['estate_id'],
    status: 200,
    reply: z.array(RenovationPassport),
    summary: "The estate's renovation passports, version 1 first; earlier versions stay as they were",
    errors: [401, 403, 404],
  },
];
