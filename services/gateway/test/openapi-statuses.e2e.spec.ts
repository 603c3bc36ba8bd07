import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayRoutes } from '../src/routes/index.ts';
import { ADMIN_TOKEN, startStack, type InjectReply, type Stack } from './stack.ts';

/**
 * The route table against `/openapi.json`: every route is provoked into the answers a client can
 * meet (no token, an unknown id, an unknown query parameter, a malformed, oversized or mistyped
 * body, a conflict) and each status it answers must be declared for that operation, with the media
 * type it came in. A status the server answers but the document does not name is a client's
 * unhandled case.
 */
type Json = Record<string, any>;
let stack: Stack;
let token: string;
let doc: Json;

beforeAll(async () => {
  stack = await startStack();
  token = await stack.token();
  doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => stack?.close());

const undeclared: string[] = [];
/** Records a status the operation does not declare (or declares with another media type). */
function check(
  method: string,
  template: string,
  res: Pick<InjectReply, 'statusCode'> & { headers: Record<string, unknown> },
  what: string,
) {
  const declared = doc['paths'][template]?.[method.toLowerCase()]?.responses?.[String(res.statusCode)];
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
  if (!declared) undeclared.push(`${method} ${template} ${what}: ${res.statusCode} not declared`);
  else if (declared.content && !declared.content[type])
    undeclared.push(`${method} ${template} ${what}: ${res.statusCode} as ${type}, declared as ${Object.keys(declared.content).join(', ')}`);
}

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'token' ? 'no-such-token' : randomUUID()));

describe('every status a route answers is declared in /openapi.json', () => {
  it('provokes each route: no token, unknown ids and query parameters, malformed, oversized and mistyped bodies', async () => {
    let provoked = 0;
    for (const route of gatewayRoutes) {
      const templates =
        route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
      for (const template of templates) {
        const url = fill(template);
        const auth: Record<string, string> =
          route.auth === 'bearer'
            ? { authorization: `Bearer ${token}` }
            : route.auth === 'admin'
              ? { authorization: `Bearer ${ADMIN_TOKEN}` }
              : {};
        const send = async (what: string, options: { headers?: Record<string, string>; payload?: string; query?: string }) => {
          const res = await stack.app.inject({
            method: route.method,
            url: `${url}${options.query ?? ''}`,
            headers: options.headers ?? auth,
            ...(options.payload !== undefined ? { payload: options.payload } : {}),
          });
          check(route.method, template, res, what);
          provoked++;
        };
        if (route.auth !== 'none') await send('without a token', { headers: {} });
        await send('with unknown ids', { headers: auth });
        await send('with an unknown query parameter', { query: '?no_such_parameter=1' });
        if (route.body && route.kind !== 'upload') {
          const json = { ...auth, 'content-type': 'application/json' };
          await send('with malformed JSON', { headers: json, payload: '{"name": "x",' });
          await send('with a body over 1 MiB', { headers: json, payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) });
          await send('as text/plain', { headers: { ...auth, 'content-type': 'text/plain' }, payload: '{}' });
          await send('with an empty JSON object', { headers: json, payload: '{}' });
        }
        if (route.kind === 'upload') await send('as JSON', { headers: { ...auth, 'content-type': 'application/json' }, payload: '{}' });
      }
    }
    expect(provoked).toBeGreaterThan(400);
    expect(undeclared).toEqual([]);
  }, 120_000);

  it('declares the conflicts, refusals and pages a client meets in normal use', async () => {
    const as = stack.as(token);
    const create = (external_id: string) => as.post('/v1/estates', { external_id, year_built: 1960 });
    expect((await create('crm-dup')).statusCode).toBe(201);
    const taken = await create('crm-dup');
    expect(taken.statusCode).toBe(409);
    check('POST', '/v1/estates', taken, 'with an external_id another estate has');

    const invite = await as.post(`/v1/organizations/${stack.bootstrap.organization_id}/members`, {
      email_address: 'buyer2@example-.com',
      first_name: 'B',
      last_name: 'Two',
      member_type: 'EMPLOYEE',
    });
    expect(invite.statusCode).toBe(400);
    expect(invite.json().message).toEqual(['email_address must be an email address']);
    check('POST', '/v1/organizations/{organization_id}/members', invite, 'with an address whose host ends a label in -');

    const page = await stack.app.inject({ method: 'GET', url: '/r/no-such-token?lang=nl-BE' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    check('GET', '/r/{token}', page, 'for an unknown link');

    const job = await stack.app.inject({
      method: 'POST',
      url: '/v1/calculation-jobs/suggested-renovation-trajectory-calculation',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"year_built":',
    });
    expect(job.statusCode).toBe(400);
    check('POST', '/v1/calculation-jobs/suggested-renovation-trajectory-calculation', job, 'with malformed JSON');
    expect(undeclared).toEqual([]);
  });
});
