import { z } from 'zod';
import * as contracts from '@renopath/contracts';
import { ErrorBody, TokenReply, TokenRequestBody } from '@renopath/contracts';
import { DOWNLOAD_PATH } from './http/signed-links.ts';
import type { RouteDef } from './routes/route.ts';

type Json = Record<string, unknown>;

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

/**
 * The resources of INTERFACE.md by name, published under `components.schemas` also where their
 * endpoints are not served yet (calculation jobs, renovations, reports), so integrators can code
 * against the shapes now.
 */
const RESOURCE_SCHEMAS = [
  'TrajectoryRequest', 'CalculationJob', 'IndicationRequest', 'IndicationRecord',
  'Estate', 'EstateListForm', 'EstateListReply', 'Roof', 'Floor', 'Room', 'Staircase', 'EstateFile', 'EstateMember',
  'Organization', 'OrganizationMember', 'User', 'TokenReply',
  'CreateRenovationBody', 'RenovationCreated', 'Renovation', 'RenovationWithFiles', 'RenovationSearchPage', 'RenovationItemBody', 'RenovationItem',
  'AvailableItem', 'RenovationOverview', 'RenovationOverviewV1', 'GovernmentGrants', 'CreateReportBody', 'Report', 'OldStyleReport',
] as const;
const REQUEST_SCHEMAS = new Set<string>(['TrajectoryRequest', 'IndicationRequest', 'CreateRenovationBody', 'RenovationItemBody', 'CreateReportBody']);

function resourceSchemas(): Record<string, Json> {
  const all = contracts as unknown as Record<string, z.ZodType>;
  return Object.fromEntries(RESOURCE_SCHEMAS.map((name) => [name, schemaOf(all[name]!, REQUEST_SCHEMAS.has(name) ? 'input' : 'output')]));
}

const ALWAYS = [500];
const UPLOAD_SCHEMA = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string', maxLength: 255 } },
  required: ['file'],
};
const errorResponse = { description: 'Error (API.md 2)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** OpenAPI 3.1 generated from the same route table and zod contracts the gateway validates with. */
export function openApiDocument(routes: RouteDef[], serverUrl: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: string, op: Json) => {
    (paths[path] ??= {})[method] = op;
  };

  add('/v1/oauth/token', 'post', {
    tags: ['auth'],
    summary: 'Client-credentials token: headers x-service-client-id/-secret, JSON body, or the RFC 6749 form with HTTP Basic',
    security: [],
    requestBody: {
      required: false,
      content: {
        'application/json': { schema: schemaOf(TokenRequestBody, 'input') },
        'application/x-www-form-urlencoded': { schema: schemaOf(TokenRequestBody, 'input') },
      },
    },
    responses: {
      200: { description: 'Access token', content: { 'application/json': { schema: schemaOf(TokenReply, 'output') } } },
      400: errorResponse,
      429: errorResponse,
    },
  });

  for (const route of routes) {
    const variants = route.prefix === 'both' ? [route.path, `/v1${route.path}`] : route.prefix === 'v1' ? [`/v1${route.path}`] : [route.path];
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: route.ids?.includes(m[1]!) ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
    const query = route.query ? schemaOf(route.query, 'input') : null;
    const queryParams = query
      ? Object.entries((query['properties'] ?? {}) as Record<string, Json>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((query['required'] ?? []) as string[]).includes(name),
          schema,
        }))
      : [];
    const replyType = route.kind === 'html' ? 'text/html' : 'application/json';
    const responses: Record<string, Json> = {
      [route.status]: {
        description: route.summary,
        ...(route.reply && route.kind !== 'html' ? { content: { [replyType]: { schema: schemaOf(route.reply, 'output') } } } : {}),
        ...(route.kind === 'html' ? { content: { 'text/html': { schema: { type: 'string' } } } } : {}),
      },
    };
    const requestBody =
      route.kind === 'upload'
        ? { required: true, content: { 'multipart/form-data': { schema: UPLOAD_SCHEMA, encoding: { file: { contentType: (route.accept ?? []).join(', ') } } } } }
        : route.body
          ? { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } }
          : null;
    for (const status of new Set([...route.errors, ...ALWAYS])) responses[status] = errorResponse;
    if (route.auth !== 'none') responses[429] ??= errorResponse;
    for (const path of variants) {
      add(path, route.method.toLowerCase(), {
        tags: [route.tag],
        summary: route.summary,
        operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        security: route.auth === 'bearer' ? [{ bearer: route.scope ? [route.scope] : [] }] : route.auth === 'admin' ? [{ admin: [] }] : [],
        parameters: [...params, ...queryParams],
        ...(requestBody ? { requestBody } : {}),
        responses,
      });
    }
  }

  add(`${DOWNLOAD_PATH}/{blob}/{name}`, 'get', {
    tags: ['files'],
    summary: 'Download a file or medium through a signed link from a reply (no bearer token; valid for one hour)',
    security: [],
    parameters: [
      { name: 'blob', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'expires', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The bytes, with the type decided at upload', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      403: errorResponse,
      404: errorResponse,
      429: errorResponse,
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Renopath API',
      version: '1.0.0',
      description: 'Renovation trajectories, estates, renovations, grants and reports for homes in Belgium and the Netherlands.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: schemaOf(ErrorBody, 'output'), ...resourceSchemas() },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /v1/oauth/token' },
        admin: { type: 'http', scheme: 'bearer', description: 'RENOPATH_ADMIN_TOKEN (operator admin API)' },
      },
    },
  };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained docs page (no CDN: the service runs offline), rendered from the OpenAPI document. */
export function docsPage(doc: Json): string {
  const paths = doc['paths'] as Record<string, Record<string, Json>>;
  const rows = Object.entries(paths)
    .filter(([path]) => !path.startsWith('/v1/') || !paths[path.slice(3)])
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const responses = Object.keys(op['responses'] as Json).join(', ');
        const body = (op['requestBody'] as Json | undefined)?.['content'] as Record<string, { schema: Json }> | undefined;
        const schema = body ? JSON.stringify(Object.values(body)[0]?.schema, null, 2) : '';
        return `<section><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(String(op['summary'] ?? ''))}</p><p class="r">Responses: ${responses}</p>${schema ? `<details><summary>Body schema</summary><pre>${escape(schema)}</pre></details>` : ''}</section>`;
      }),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Renopath API</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2a33}
h3{font-size:1rem;margin:.2rem 0}section{border-bottom:1px solid #dde;padding:.6rem 0}.m{display:inline-block;width:4.5rem;font-weight:700}
.get{color:#1565c0}.post{color:#2e7d32}.patch{color:#ef6c00}.delete{color:#c62828}.r{color:#567;font-size:.9rem}pre{background:#f4f6f8;padding:.5rem;overflow:auto}</style></head>
<body><h1>Renopath API</h1><p>Paths without <code>/v1</code> are also served under <code>/v1</code>. Errors: <code>{ statusCode, error, message[] }</code>.
Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>${rows}</body></html>`;
}
