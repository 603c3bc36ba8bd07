import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCsvText } from '@renopath/calculations/portfolio-run/testing.ts';
import { PDF, PNG } from './files.ts';
import { ReplySchemas } from './reply-schemas.ts';
import { RULES_HEADING } from '../src/openapi/document.ts';
import { arbitraryOf } from './schema-samples.ts';
import { ADMIN_TOKEN, multipart, startStack, type Stack } from './stack.ts';

/**
 * Requests generated from `/openapi.json` alone, as a client generated from it (or Schemathesis) sends
 * them: for every operation, path parameters, queries and bodies the document allows; and for every
 * path, each method the document does not list. The service must not answer a schema-valid request
 * with a refusal of its content (400, 406, 413, 415, 422): every rule it enforces is in the document.
 * Unknown ids (404), states (409) and rate limits (429) are answers to what exists, not to the shape.
 * Every answer is checked against its declared status, media type and schema, no answer is a 5xx, and
 * a method a path does not take is a 405 whose `Allow` lists exactly the document's methods.
 * RENOPATH_GENERATED_RUNS raises the samples per operation (default 6, from a fixed seed).
 */
const RUNS = Number(process.env['RENOPATH_GENERATED_RUNS'] ?? 6);
const SEED = Number(process.env['RENOPATH_GENERATED_SEED'] ?? 45);

type Json = Record<string, any>;
let stack: Stack;
let token: string;
let doc: Json;
let schemas: ReplySchemas;
/** Ids of resources that exist, by path parameter name: most samples reach the service's rules with them. */
const ids = new Map<string, string>();

const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;
/** The statuses that answer what exists or who calls, not the request's shape. */
const NOT_A_REFUSAL = new Set([200, 201, 202, 204, 403, 404, 409, 410, 429]);

beforeAll(async () => {
  stack = await startStack();
  token = await stack.token();
  doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  schemas = new ReplySchemas(doc);
  ids.set('organization_id', stack.bootstrap.organization_id);
  ids.set('user_id', stack.bootstrap.user_id);
  // The resources behind the path parameters, made from the document's own examples.
  const create = async (path: string, idName: string) => {
    const operation = doc['paths'][path].post;
    const example = structuredClone(operation.requestBody.content['application/json'].example ?? {});
    for (const [name, id] of ids) if (name in example) example[name] = id;
    const res = await send('post', path, { body: { kind: 'json', value: example } });
    if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    ids.set(idName, res.json().id);
  };
  await create('/v1/estates', 'estate_id');
  await create('/v1/estates/{estate_id}/floors', 'floor_id');
  await create('/v1/estates/{estate_id}/roofs', 'roof_id');
  await create('/v1/estates/{estate_id}/floors/{floor_id}/rooms', 'room_id');
  await create('/v1/estates/{estate_id}/floors/{floor_id}/staircases', 'staircase_id');
  await create('/v1/renovations', 'renovation_id');
  await create('/v1/calculation-jobs/suggested-renovation-trajectory-calculation', 'calculation_job_id');
}, 300_000);
afterAll(async () => stack?.close());

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, unknown> }
  | { kind: 'multipart'; value: Record<string, unknown> }
  | { kind: 'none' };

interface Request {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body: Body;
}

function urlOf(template: string, params: Record<string, string>, query: Record<string, unknown> = {}): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ids.get(name) ?? randomUUID()));
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) qs.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const text = qs.toString();
  return text ? `${path}?${text}` : path;
}

/** What the suite reads of an answer. */
interface Reply {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json(): any;
}

async function send(method: string, template: string, request: Request): Promise<Reply> {
  const operation = doc['paths'][template]?.[method];
  const security: Json[] = operation?.security ?? doc['security'] ?? [];
  const auth = security.some((s) => 'admin' in s) ? ADMIN_TOKEN : security.length > 0 ? token : null;
  const headers: Record<string, string> = auth ? { authorization: `Bearer ${auth}` } : {};
  const url = urlOf(template, request.params ?? {}, request.query);
  const b = request.body;
  if (b.kind === 'json') {
    return stack.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(b.value),
    });
  }
  if (b.kind === 'form') {
    const form = new URLSearchParams(Object.entries(b.value).map(([k, v]) => [k, String(v)])).toString();
    return stack.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  }
  if (b.kind === 'multipart') {
    const parts = Object.entries(b.value).map(([name, value]) =>
      name === 'file' ? { name, ...(value as SampleFile) } : { name, content: String(value) },
    );
    const body = multipart(parts);
    return stack.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: { ...headers, 'content-type': body.contentType },
      payload: body.payload,
    });
  }
  return stack.app.inject({ method: method.toUpperCase() as 'GET', url, headers });
}

/**
 * The rules an operation documents beyond its schema (under RULES_HEADING in its description), as
 * patterns: `{name}` is any value.
 */
function documentedRules(operation: Json): RegExp[] {
  const description = String(operation.description ?? '');
  const at = description.indexOf(RULES_HEADING);
  if (at < 0) return [];
  return [...description.slice(at).matchAll(/^- `(.+)`$/gm)].map(
    ([, rule]) => new RegExp(`^${rule!.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '.+?')}$`),
  );
}

/** A refusal whose every message is a rule the operation documents. */
function documented(operation: Json, body: string): boolean {
  const rules = documentedRules(operation);
  let messages: unknown;
  try {
    messages = JSON.parse(body).message;
  } catch {
    return false;
  }
  return Array.isArray(messages) && messages.length > 0 && messages.every((m) => rules.some((rule) => rule.test(String(m))));
}

interface SampleFile {
  filename: string;
  content: Buffer;
  contentType: string;
}
/** Sample files by type, each of the bytes its type is decided from. */
const SAMPLE_FILES: Record<string, () => SampleFile> = {
  'application/pdf': () => ({ filename: 'report.pdf', content: PDF, contentType: 'application/pdf' }),
  'image/png': () => ({ filename: 'photo.png', content: PNG, contentType: 'image/png' }),
  'text/csv': () => ({ filename: 'homes.csv', content: Buffer.from(syntheticCsvText(2, 7)), contentType: 'text/csv' }),
};
/** A file of a type the document's multipart encoding names for the part (`application/pdf, image/jpeg, ...`). */
function sampleFile(types: string | undefined): SampleFile {
  const listed = (types ?? 'image/png').split(',').map((t) => t.trim());
  const type = listed.find((t) => SAMPLE_FILES[t]);
  if (!type) throw new Error(`no sample file of the types ${listed.join(', ')}: add one to the suite`);
  return SAMPLE_FILES[type]!();
}

/** Schema-valid requests for one operation: parameters mostly the existing resources', bodies as the document allows. */
function requestsFor(operation: Json): fc.Arbitrary<Request> {
  const parameters: Json[] = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const params = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const sampled = arbitraryOf(p.schema, doc) as fc.Arbitrary<string>;
        const known = ids.get(p.name);
        return [p.name, known ? fc.oneof({ weight: 4, arbitrary: fc.constant(known) }, { weight: 1, arbitrary: sampled }) : sampled];
      }),
    ),
  );
  const queryArbitraries: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(
    queryParams.map((p) => [p.name as string, arbitraryOf(p.schema, doc)]),
  );
  const query = fc.record(queryArbitraries, {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name as string) as never[],
  });
  const content: Json = operation.requestBody?.content ?? {};
  const bodies: Array<fc.Arbitrary<Body>> = [];
  if (content['application/json']) {
    bodies.push(
      fc
        .tuple(
          arbitraryOf(content['application/json'].schema, doc),
          fc.array(
            fc.nat(3).map((n) => n > 0),
            { minLength: 4, maxLength: 4 },
          ),
        )
        .map(([value, coins]) => ({ kind: 'json' as const, value: withKnownIds(value, coins) })),
    );
  }
  if (content['application/x-www-form-urlencoded']) {
    bodies.push(
      arbitraryOf(content['application/x-www-form-urlencoded'].schema, doc).map((value) => ({
        kind: 'form' as const,
        value: value as Record<string, unknown>,
      })),
    );
  }
  if (content['multipart/form-data']) {
    // A file of a type the operation takes (its bytes decide the type, as the document says).
    bodies.push(
      arbitraryOf(content['multipart/form-data'].schema, doc).map((value) => ({
        kind: 'multipart' as const,
        value: { ...(value as Record<string, unknown>), file: sampleFile(content['multipart/form-data'].encoding?.file?.contentType) },
      })),
    );
  }
  const body = bodies.length ? fc.oneof(...bodies) : fc.constant({ kind: 'none' as const });
  return fc.record({ params, query, body }).map((r) => ({ ...r, params: r.params as Record<string, string> }));
}

/** Ids in a body (an `estate_id` to attach to) are mostly the existing resources' (each by a drawn coin, so a seed repeats a run). */
function withKnownIds(value: unknown, coins: boolean[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  let i = 0;
  for (const [name, id] of ids) if (name in out && typeof out[name] === 'string' && coins[i++ % coins.length]) out[name] = id;
  return out;
}

function operations(): Array<{ method: string; template: string; operation: Json }> {
  const all: Array<{ method: string; template: string; operation: Json }> = [];
  for (const [template, item] of Object.entries(doc['paths'] as Json)) {
    for (const method of METHODS) if (item[method]) all.push({ method, template, operation: item[method] });
  }
  // Deletions last: the resources the other operations reach stay until then.
  return all.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
}

describe('requests generated from /openapi.json', () => {
  it('answers every schema-valid request as the document says, and refuses none for its shape', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const { method, template, operation } of operations()) {
      const samples = fc.sample(requestsFor(operation), { numRuns: RUNS, seed: SEED });
      for (const request of samples) {
        const res = await send(method, template, request);
        sent++;
        const what = `${method.toUpperCase()} ${urlOf(template, request.params ?? {}, request.query)} ${JSON.stringify(request.body.kind === 'multipart' ? 'multipart' : request.body).slice(0, 300)}`;
        if (res.statusCode >= 500) problems.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        // The token endpoint's credentials are sampled, so unknown: its 400/401 (RFC 6749 5.2 invalid_client) answers who calls.
        const refusal =
          !NOT_A_REFUSAL.has(res.statusCode) &&
          !(template.endsWith('/oauth/token') && (res.statusCode === 401 || res.statusCode === 400)) &&
          !([400, 406, 422].includes(res.statusCode) && documented(operation, res.body));
        if (refusal && res.statusCode < 500) problems.push(`${what}: refused ${res.statusCode} ${res.body.slice(0, 300)}`);
        for (const violation of schemas.check(method.toUpperCase(), template, res)) problems.push(`${what}: ${violation}`);
      }
      if (process.env['RENOPATH_GENERATED_VERBOSE']) console.log(`${method} ${template}: ${problems.length} problems so far`);
    }
    if (process.env['RENOPATH_GENERATED_VERBOSE']) console.log(problems.join('\n'));
    expect(sent).toBeGreaterThan(150 * Math.min(RUNS, 1));
    expect(problems).toEqual([]);
  }, 900_000);

  it('answers every method a path does not take with 405 and the methods it takes in Allow', async () => {
    const problems: string[] = [];
    for (const [template, item] of Object.entries(doc['paths'] as Json)) {
      const declared = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      const allowed = [...declared, ...(declared.includes('GET') ? ['HEAD'] : [])].sort();
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY', 'TRACE']) {
        if (allowed.includes(method)) continue;
        // No body and no content type: what a client probing the path sends.
        const res = await stack.app.inject({
          method: method as 'GET',
          url: urlOf(template, {}),
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.statusCode !== 405) problems.push(`${method} ${template}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.headers['allow'] !== allowed.join(', '))
          problems.push(`${method} ${template}: Allow ${res.headers['allow']}, expected ${allowed.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('states in the document each rule a refused body breaks', async () => {
    const estate = ids.get('estate_id')!;
    const organization = ids.get('organization_id')!;
    const cases: Array<{ method: string; template: string; body: Record<string, unknown>; message: string }> = [
      {
        method: 'post',
        template: '/v1/estates',
        body: { name: 'Twice', energy_context: { eco_facilities: ['SOLAR_PANELS', 'SOLAR_PANELS'] } },
        message: 'must not repeat a value',
      },
      { method: 'patch', template: '/v1/organizations/{organization_id}', body: { phone_number: '12 34' }, message: 'phone number' },
      {
        method: 'patch',
        template: '/v1/organizations/{organization_id}',
        body: { phone_number: '+32 (0)9 ab 12 34 56' },
        message: 'phone number',
      },
      { method: 'post', template: '/v1/estates', body: { name: 'Bell\u0007' }, message: 'control characters' },
      { method: 'post', template: '/v1/estates', body: { name: 'Left\u202eright' }, message: 'bidirectional' },
      { method: 'post', template: '/v1/estates', body: { name: '   ' }, message: 'name' },
      {
        method: 'post',
        template: '/v1/organizations/{organization_id}/members',
        body: {
          email_address: `a@${['d', 'e', 'f', 'g', 'h'].map((c) => c.repeat(60)).join('.')}.be`,
          first_name: 'A',
          last_name: 'B',
          member_type: 'EMPLOYEE',
        },
        message: 'email',
      },
      {
        method: 'post',
        template: '/v1/organizations/{organization_id}/members',
        body: { email_address: `${'l'.repeat(65)}@example.be`, first_name: 'A', last_name: 'B', member_type: 'EMPLOYEE' },
        message: 'email',
      },
    ];
    for (const { method, template, body, message } of cases) {
      const parsed = body;
      const res = await send(method, template, {
        params: { estate_id: estate, organization_id: organization },
        body: { kind: 'json', value: parsed },
      });
      expect(res.statusCode, `${template} ${JSON.stringify(body)}`).toBe(400);
      expect(JSON.stringify(res.json().message), template).toContain(message);
      // The document refuses it too: a client validating against it never sends it.
      expect(schemas.allowsBody(method, template, parsed), `${template} ${JSON.stringify(body)} in the document`).toBe(false);
    }
    // An empty file: refused, and the document's file has at least one byte.
    const upload = multipart([{ name: 'file', filename: 'empty.png', content: Buffer.alloc(0), contentType: 'image/png' }]);
    const empty = await stack.app.inject({
      method: 'POST',
      url: `/v1/estates/${estate}/media`,
      headers: { authorization: `Bearer ${token}`, 'content-type': upload.contentType },
      payload: upload.payload,
    });
    expect(empty.statusCode).toBe(400);
    expect(
      doc['paths']['/v1/estates/{estate_id}/media'].post.requestBody.content['multipart/form-data'].schema.properties.file.minLength,
    ).toBe(1);
  });

  it('checks replies as a generated client reads them: a field a closed schema lacks is a violation', async () => {
    const jobId = ids.get('calculation_job_id')!;
    const template = '/v1/calculation-jobs/{calculation_job_id}';
    const res = await send('get', template, { body: { kind: 'none' } });
    expect(res.statusCode).toBe(200);
    expect(schemas.check('GET', template, res)).toEqual([]);
    const withExtra = { ...res, body: JSON.stringify({ ...res.json(), id: jobId, not_in_the_schema: true }) };
    expect(schemas.check('GET', template, withExtra).join()).toContain('must NOT have additional properties');
    const untyped = { ...res, body: JSON.stringify({ ...res.json(), created_at: 42 }) };
    expect(schemas.check('GET', template, untyped)).not.toEqual([]);
  });
});
