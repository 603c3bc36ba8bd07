import { IdentitySubjects as S, Jwks } from '@renopath/contracts';
import type { RouteDef } from '../route.ts';

/** The keys that verify access tokens and signed passports: public, unversioned (RFC 8615). */
export const jwksRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    prefix: 'bare',
    subject: S.publishedKeys,
    operationId: 'getJwks',
    auth: 'none',
    status: 200,
    reply: Jwks,
    summary: 'Public keys that verify access tokens and signed renovation passports (each by its `kid`)',
    tag: 'auth',
    errors: [],
  },
];
