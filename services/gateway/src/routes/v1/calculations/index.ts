import { z } from 'zod';
import { CalculationsSubjects as S, IndicationQuery, IndicationRecord, IndicationRequest } from '@renopath/contracts';
import type { RouteDef } from '../../route.ts';

/** The synchronous energy-efficiency indication (docs/http-contract.md "The indication"). */
export const calculationRoutes: RouteDef[] = [
  {
    prefix: 'both',
    auth: 'bearer',
    scope: 'calculations',
    tag: 'calculations',
    method: 'POST',
    path: '/calculations',
    subject: S.createIndication,
    operationId: 'createIndication',
    query: IndicationQuery,
    body: IndicationRequest,
    status: 201,
    reply: IndicationRecord,
    summary: 'Synchronous energy-efficiency indication (calculation_type=ENERGY_EFFICIENCY); indicative, with a disclaimer',
    errors: [400, 401, 403],
  },
  {
    prefix: 'both',
    auth: 'bearer',
    scope: 'calculations',
    tag: 'calculations',
    method: 'GET',
    path: '/calculations',
    subject: S.listIndications,
    operationId: 'listIndications',
    status: 200,
    reply: z.array(IndicationRecord),
    summary: "The organization's indications, newest first",
    errors: [401, 403],
  },
  {
    prefix: 'both',
    auth: 'bearer',
    scope: 'calculations',
    tag: 'calculations',
    method: 'GET',
    path: '/calculations/{calculation_id}',
    subject: S.getIndication,
    operationId: 'getIndication',
    ids: ['calculation_id'],
    status: 200,
    reply: IndicationRecord,
    summary: 'One indication',
    errors: [401, 403, 404],
  },
];
