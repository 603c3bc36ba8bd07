import * as contracts from '@renopath/contracts';
import { TokenRequestBody } from '@renopath/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_EXAMPLES } from './examples.ts';
import { servedDocument } from './testing.ts';
import { gatewayRoutes } from '../routes/index.ts';

const ROUTES = gatewayRoutes;

/**
 * What `/openapi.json` promises an integrator beyond being valid (client-generation.int.spec.ts):
 * named and described schemas, examples the server accepts, what a client may not send left out of
 * bodies, the headers and security scheme it must use, and the webhooks it will receive.
 */
type Json = Record<string, any>;
let doc: Json;
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const operations = () =>
  Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
const deref = (schema: Json): Json => (schema['$ref'] ? doc['components'].schemas[String(schema['$ref']).split('/').pop()!] : schema);

/** Every (sub)schema of the document with the property name it sits under. */
function* properties(node: unknown, name = ''): Generator<[string, Json]> {
  if (Array.isArray(node)) for (const item of node) yield* properties(item, name);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object')
        for (const [prop, schema] of Object.entries(value)) {
          yield [prop, schema as Json];
          yield* properties(schema, prop);
        }
      else yield* properties(value, name);
    }
  }
}

beforeAll(async () => {
  doc = await servedDocument();
});

describe('/openapi.json, named, typed and described', () => {
  it('describes every operation and every named schema, and names operations by hand (aliases after their /v1 operation)', () => {
    const ops = operations();
    expect(ops.filter(({ op }) => !op['summary'] || !op['description']).map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    const ids = ops.map(({ op }) => op['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => /V1/.test(id))).toEqual([]);
    const alias = doc['paths']['/estates/{estate_id}'].get;
    expect(alias.operationId).toBe('getEstateUnversioned');
    expect(alias.description).toContain('Alias of `GET /v1/estates/{estate_id}`');
    const undescribed = Object.entries(doc['components'].schemas as Record<string, Json>)
      .filter(([, schema]) => !schema['description'])
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });

  it('gives every JSON request body an example its route accepts', () => {
    const missing = operations().filter(
      ({ op }) => op['requestBody']?.content['application/json'] && op['requestBody'].content['application/json'].example === undefined,
    );
    expect(missing.map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    const refused = ROUTES.filter((route) => route.body && route.kind !== 'upload').flatMap((route) => {
      const example =
        doc['paths'][`/v1${route.path}`]?.[route.method.toLowerCase()] ?? doc['paths'][route.path][route.method.toLowerCase()];
      const value = example.requestBody.content['application/json'].example;
      return [route.body!, ...(route.documentedBody ? [route.documentedBody.schema] : [])]
        .map((schema) => schema.safeParse(value))
        .flatMap((result) => (result.success ? [] : [`${route.operationId}: ${result.error.message}`]));
    });
    expect(refused).toEqual([]);
    // The token endpoint's (not in the route table).
    expect(TokenRequestBody.safeParse(REQUEST_EXAMPLES['TokenRequestBody']).success).toBe(true);
  });

  it("offers a scope's items only the catalogue's component types of that scope", () => {
    const roof = deref(
      doc['paths']['/v1/renovations/{renovation_id}/roofs/{roof_id}/items'].post.requestBody.content['application/json'].schema,
    );
    const general = deref(doc['paths']['/v1/renovations/{renovation_id}/items'].post.requestBody.content['application/json'].schema);
    expect(roof.properties.renovation_component_type.enum).toContain('INCLINED_ROOF_INSULATION_OUTSIDE');
    expect(roof.properties.renovation_component_type.enum).not.toContain('CAVITY_WALL_INSULATION');
    expect(general.properties.renovation_component_type.enum).toContain('CAVITY_WALL_INSULATION');
  });

  it('refers to named schemas for the bodies and replies of operations', () => {
    const unnamed = operations().filter(({ op }) => {
      const body = op['requestBody']?.content['application/json']?.schema;
      return body && !body.$ref;
    });
    expect(unnamed.map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    expect(doc['paths']['/v1/estates/{estate_id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Estate',
    });
  });

  it('types the finished job: metadata with its steps, totals, confidence and renovation_id', () => {
    const job = doc['components'].schemas.CalculationJob;
    expect(job.properties.metadata).toEqual({ $ref: '#/components/schemas/CalculationJobMetadata' });
    const shapes = doc['components'].schemas.CalculationJobMetadata.anyOf.map((s: Json) => s.$ref ?? s);
    expect(shapes).toEqual(
      expect.arrayContaining(['#/components/schemas/FinishedTrajectoryJobMetadata', '#/components/schemas/FailedJobMetadata']),
    );
    const finished = doc['components'].schemas.FinishedTrajectoryJobMetadata;
    expect(finished.required).toEqual(expect.arrayContaining(['steps', 'totals', 'confidence_score', 'quality_label', 'renovation_id']));
    expect(finished.properties.steps.items).toEqual({ $ref: '#/components/schemas/TrajectoryStep' });
  });

  it('leaves read-only fields out of bodies and marks them readOnly in replies; instants are date-time; no safe-integer bounds', () => {
    const create = deref(doc['paths']['/v1/estates'].post.requestBody.content['application/json'].schema);
    for (const field of ['id', 'created_at', 'updated_at', 'quality_label', 'referral_link', 'organization_id'])
      expect(create.properties).not.toHaveProperty([field]);
    const org = deref(doc['paths']['/v1/organizations/{organization_id}'].patch.requestBody.content['application/json'].schema);
    expect(org.properties).not.toHaveProperty(['region']);
    expect(doc['components'].schemas.Estate.properties.quality_label.readOnly).toBe(true);
    expect(doc['components'].schemas.Estate.properties.id.readOnly).toBe(true);
    const instants = [...properties(doc)].filter(
      ([name, schema]) => /_at$/.test(name) && (schema.type === 'string' || schema.anyOf?.some((s: Json) => s.type === 'string')),
    );
    expect(instants.length).toBeGreaterThan(20);
    const loose = instants.filter(
      ([, schema]) => (schema.format ?? schema.anyOf?.find((s: Json) => s.type === 'string')?.format) !== 'date-time',
    );
    expect(loose.map(([name]) => name)).toEqual([]);
    expect(JSON.stringify(doc)).not.toMatch(/9007199254740991/);
  });

  it('says that a PATCH body must change something', () => {
    const patches = operations().filter(({ method, path }) => method === 'patch' && path.startsWith('/v1/'));
    expect(patches.length).toBeGreaterThan(5);
    expect(
      patches.filter(({ op }) => deref(op['requestBody'].content['application/json'].schema).minProperties !== 1).map(({ path }) => path),
    ).toEqual([]);
  });
});

describe('/openapi.json, how to call', () => {
  it('declares OAuth2 client credentials with its token URL, and the token headers', () => {
    const oauth = doc['components'].securitySchemes.oauth2;
    expect(oauth.flows.clientCredentials.tokenUrl).toBe('https://renopath.test/v1/oauth/token');
    expect(Object.keys(oauth.flows.clientCredentials.scopes).sort()).toEqual([...contracts.Scope.options].sort());
    expect(doc['paths']['/v1/estates'].post.security).toEqual([{ oauth2: ['estates'] }]);
    const token = doc['paths']['/v1/oauth/token'].post;
    expect(token.parameters.map((p: Json) => p.name)).toEqual(['x-service-client-id', 'x-service-client-secret']);
    expect(token.requestBody.required).toBe(false);
  });

  it('declares Idempotency-Key on keyed writes, Retry-After on 429 and 503, and the rate-limit headers on answers', () => {
    const keyed = operations().filter(({ method, op }) => method === 'post' && op['security']?.[0]?.oauth2);
    expect(keyed.length).toBeGreaterThan(10);
    expect(keyed.filter(({ op }) => !op['parameters']?.some((p: Json) => p.name === 'Idempotency-Key')).map(({ path }) => path)).toEqual(
      [],
    );
    const create = doc['paths']['/v1/estates'].post.responses;
    expect(create['429'].headers).toHaveProperty(['Retry-After']);
    expect(create['503'].headers).toHaveProperty(['Retry-After']);
    expect(Object.keys(create['201'].headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    expect(create['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  it('describes the job webhooks with the Standard Webhooks headers and the payload', () => {
    expect(Object.keys(doc['webhooks'])).toEqual([
      ...contracts.JOB_WEBHOOK_EVENTS.map((e) => e.type),
      ...contracts.PASSPORT_WEBHOOK_EVENTS.map((e) => e.type),
    ]);
    const finished = doc['webhooks']['calculation_job.finished'].post;
    expect(finished.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const payload = deref(finished.requestBody.content['application/json'].schema);
    expect(payload.properties.data).toEqual({ $ref: '#/components/schemas/CalculationJob' });
  });

  it('describes the renovation_passport.signed webhook: the same headers, the signed passport named with its hash', () => {
    const signed = doc['webhooks']['renovation_passport.signed'].post;
    expect(signed.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const payload = deref(signed.requestBody.content['application/json'].schema);
    const data = deref(payload.properties.data);
    expect(data.required).toEqual(
      expect.arrayContaining(['id', 'version', 'estate_id', 'calculation_job_id', 'signed_at', 'content_sha256', 'verification_url']),
    );
  });

  it('serves the bare paths as aliases of the /v1 operations, with the same statuses and schemas', () => {
    const v1 = doc['paths']['/v1/renovations/{renovation_id}/government-grants'].get;
    const bare = doc['paths']['/renovations/{renovation_id}/government-grants'].get;
    expect(bare.tags).toEqual(['unversioned aliases']);
    expect(bare.responses).toEqual(v1.responses);
  });
});
