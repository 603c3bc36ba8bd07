import { z } from 'zod';
import {
  ErrorBody,
  JobWebhookPayload,
  Messages,
  JOB_WEBHOOK_EVENTS,
  PASSPORT_SCHEMA_PATH,
  PASSPORT_WEBHOOK_EVENTS,
  PassportWebhookPayload,
  Scope,
  STATUS_TEXT,
  TokenReply,
  TokenRequestBody,
} from '@renopath/contracts';
import { RECOGNISED_MEDIA_TYPES } from '../plugins/uploads.ts';
import type { RouteDef } from '../routes/route.ts';
import { COMPONENT_DESCRIPTIONS, INFO, SCOPE_DESCRIPTIONS, TAGS } from './descriptions.ts';
import { REQUEST_EXAMPLES } from './examples.ts';
import { plainInputNames, SchemaSet, type Io, type Json } from './schemas.ts';
import { statusesOf } from './statuses.ts';

export interface DocumentOptions {
  routes: readonly RouteDef[];
  publicUrl: string;
  /** Whether the admin API is served (RENOPATH_ADMIN_TOKEN set): its operations are documented only then. */
  adminEnabled: boolean;
  /** Whether the request rate limit is on (then every operation may answer 429). */
  rateLimited: boolean;
}

export const TOKEN_PATH = '/v1/oauth/token';
const HTML_HEADERS_NOTE = 'An HTML page (`text/html; charset=utf-8`).';

/** Headers every reply may carry, declared once under `components.headers`. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: "The client's own `x-request-id` when it is one we can echo (1-128 of `A-Za-z0-9._:@-`), otherwise the request's id.",
    schema: { type: 'string' },
  },
  'X-Correlation-Id': {
    description: 'The id the service gave the request; its events and log lines carry it. Quote it when reporting a problem.',
    schema: { type: 'string', format: 'uuid' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window (RENOPATH_RATE_LIMIT_BURST), per API client on bearer routes and per address elsewhere.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts over.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  'X-Renopath-Settled': {
    description:
      'Present (`false`) when a write was answered before every effect of it was readable (past RENOPATH_SETTLE_TIMEOUT_MS): the write stands, a read right after may not show it yet.',
    schema: { type: 'string', enum: ['false'] },
  },
};
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and the same request is answered with the first answer and changes nothing; ' +
    'the same key with another request is a 422, and while the first is still running a 409. Keys are kept per API client for 24 hours. ' +
    'See docs/http-contract.md.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/**
 * The OpenAPI 3.1 document of the gateway, generated from its route table (`routes/index.ts`,
 * each route with its zod contracts) and the few operations the gateway answers itself (token, downloads,
 * health). Served at `/openapi.json`; `docs/http-contract.md` explains the conventions it states.
 */
export function buildOpenApiDocument(options: DocumentOptions): Json {
  const set = new SchemaSet();
  const errorKey = set.use(ErrorBody, 'Error');
  const pending = routeOperations(options, set, errorKey);

  const tokenKeys = { body: set.use(TokenRequestBody, 'TokenRequestBody'), reply: set.use(TokenReply, 'TokenReply') };
  const webhookKey = set.use(JobWebhookPayload, 'JobWebhookPayload');
  const passportWebhookKey = set.use(PassportWebhookPayload, 'PassportWebhookPayload');
  const convert = set.convert();
  const { components, schemaOf } = convert;

  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: string, op: Json) => ((paths[path] ??= {})[method] = op);
  for (const { path, method, build } of pending) add(path, method, build(convert));
  add(TOKEN_PATH, 'post', tokenOperation(schemaOf(tokenKeys.body, 'input'), schemaOf(tokenKeys.reply, 'output'), options));
  add('/v1/downloads/{blob}/{name}', 'get', downloadOperation(options));
  for (const [path, op] of Object.entries(gatewayOperations(errorKey, schemaOf))) add(path, 'get', op);

  const webhooks = Object.fromEntries([
    ...JOB_WEBHOOK_EVENTS.map(({ type, status, description }) => [
      type,
      webhookOperation(
        type,
        { tag: 'calculation-jobs', summary: `A job is ${status}`, to: "the job's" },
        description,
        schemaOf(webhookKey, 'output'),
      ),
    ]),
    ...PASSPORT_WEBHOOK_EVENTS.map(({ type, description }) => [
      type,
      webhookOperation(
        type,
        {
          tag: 'renovation passports',
          summary: 'A renovation passport is signed',
          to: "the passport's (given on `POST /v1/renovation-passports`)",
        },
        description,
        schemaOf(passportWebhookKey, 'output'),
      ),
    ]),
  ]);
  const responses = sharedResponses(schemaOf(errorKey, 'output'));
  for (const [name, schema] of Object.entries(components)) {
    const description = COMPONENT_DESCRIPTIONS[name] ?? COMPONENT_DESCRIPTIONS[name.replace(/Input$/, '')];
    if (description && !schema['description'])
      schema['description'] = name.endsWith('Input') ? `${description} (as sent in a request)` : description;
  }

  return plainInputNames({
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: options.publicUrl }],
    tags: TAGS,
    paths: sortPaths(paths),
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
      responses,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials (RFC 6749 4.4). The token endpoint also takes the headers `x-service-client-id` and `x-service-client-secret`, or a JSON body.',
          flows: {
            clientCredentials: {
              tokenUrl: `${options.publicUrl}${TOKEN_PATH}`,
              scopes: Object.fromEntries(Scope.options.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
            },
          },
        },
        ...(options.adminEnabled
          ? { admin: { type: 'http', scheme: 'bearer', description: 'The operator token (RENOPATH_ADMIN_TOKEN) of the admin API.' } }
          : {}),
      },
    },
  });
}

type Convert = { schemaOf: (key: string, io: Io) => Json; inlineOf: (key: string, io: Io) => Json };

/**
 * Each route's operation, at its `/v1` path and at its unversioned alias, to be built once every
 * schema is known: the schemas are named as the routes use them, then converted together.
 */
function routeOperations(options: DocumentOptions, set: SchemaSet, errorKey: string) {
  const pending: Array<{ path: string; method: string; build: (convert: Convert) => Json }> = [];

  for (const route of options.routes) {
    if (route.auth === 'admin' && !options.adminEnabled) continue;
    const keys = {
      body: route.documentedBody
        ? set.use(route.documentedBody.schema, `${route.operationId}Body`, route.documentedBody.name)
        : route.body && route.kind !== 'upload'
          ? set.use(route.body, `${route.operationId}Body`)
          : null,
      query: route.query ? set.use(route.query, `${route.operationId}Query`) : null,
      reply: route.reply && route.kind !== 'html' && route.kind !== 'file' ? set.use(route.reply, `${route.operationId}Reply`) : null,
    };
    const main = route.prefix === 'bare' ? route.path : `/v1${route.path}`;
    const paths = route.prefix === 'both' ? [main, route.path] : [main];
    for (const path of paths) {
      const alias = path !== main;
      pending.push({
        path,
        method: route.method.toLowerCase(),
        build: (convert) => operation(route, keys, convert, { alias, main, errorKey, options }),
      });
    }
  }
  return pending;
}

/** The operations the gateway answers itself besides the token and downloads: its probes and the passport's schema. */
function gatewayOperations(errorKey: string, schemaOf: (key: string, io: Io) => Json): Record<string, Json> {
  const ops: Record<string, Json> = {};
  ops['/health'] = {
    operationId: 'getHealth',
    tags: ['operations'],
    summary: 'The process runs',
    description: 'Answers 200 while the gateway process runs, whatever its peers do (a liveness probe).',
    security: [],
    responses: { 200: jsonReply('The process runs.', { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }) },
  };
  ops[PASSPORT_SCHEMA_PATH] = {
    operationId: 'getRenovationPassportSchema',
    tags: ['renovation passports'],
    summary: "The renovation passport's JSON Schema",
    description:
      'The JSON Schema (draft 2020-12) of a renovation passport as `GET /v1/renovation-passports/{passport_id}` answers it (the same contract as `getRenovationPassportReply`), for validators outside Renopath.',
    security: [],
    responses: { 200: { description: 'The schema.', content: { 'application/schema+json': { schema: { type: 'object' } } } } },
  };
  ops['/ready'] = {
    operationId: 'getReadiness',
    tags: ['operations'],
    summary: 'The gateway can serve',
    description:
      "Ready once identity's key set and every context of RENOPATH_CONTEXTS answer on the bus; until then 503 with Retry-After (a readiness probe). Processes start in any order.",
    security: [],
    responses: {
      200: jsonReply('Ready.', { type: 'object', properties: { status: { const: 'ready' } }, required: ['status'] }),
      503: errorReply(503, errorKey, schemaOf),
    },
  };
  return ops;
}

function operation(
  route: RouteDef,
  keys: { body: string | null; query: string | null; reply: string | null },
  { schemaOf, inlineOf }: { schemaOf: (key: string, io: Io) => Json; inlineOf: (key: string, io: Io) => Json },
  ctx: { alias: boolean; main: string; errorKey: string; options: DocumentOptions },
): Json {
  const kind = route.kind ?? 'json';
  const parameters = parametersOf(route, keys.query ? inlineOf(keys.query, 'input') : null);
  const responses = responsesOf(route, keys.reply, schemaOf, ctx);

  const summary = firstSentence(route.summary);
  const op: Json = {
    operationId: ctx.alias ? `${route.operationId}Unversioned` : route.operationId,
    tags: ctx.alias ? ['unversioned aliases'] : [route.tag],
    summary,
    description: [
      ctx.alias ? `Alias of \`${route.method} ${ctx.main}\`: the same operation under its older path.\n\n` : '',
      route.summary.endsWith('.') ? route.summary : `${route.summary}.`,
      route.scope ? `\n\nNeeds the scope \`${route.scope}\`.` : '',
      route.rules?.length ? `\n\n${RULES_HEADING}\n\n${route.rules.map((rule) => `- \`${rule}\``).join('\n')}` : '',
    ].join(''),
    security: route.auth === 'bearer' ? [{ oauth2: route.scope ? [route.scope] : [] }] : route.auth === 'admin' ? [{ admin: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
  };
  if (kind === 'upload') {
    op['requestBody'] = uploadRequestBody(route);
  } else if (keys.body) {
    const schema = schemaOf(keys.body, 'input');
    const example = REQUEST_EXAMPLES[keys.body];
    op['requestBody'] = {
      required: route.method !== 'POST' || keys.body !== 'EmptyBody',
      content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } },
    };
  }
  return op;
}

/** The path parameters, the query's and the Idempotency-Key header a keyed POST takes. */
function parametersOf(route: RouteDef, query: Json | null): Json[] {
  const parameters: Json[] = [];
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
    const isId = route.ids?.includes(name!);
    parameters.push({
      name,
      in: 'path',
      required: true,
      description: isId
        ? `The ${name!.replace(/_id$/, '').replace(/_/g, ' ')}'s id; any other value is an unknown id (404).`
        : name === 'token'
          ? 'The link token from a referral link.'
          : `The ${name!.replace(/_id$/, '').replace(/_/g, ' ')}'s id.`,
      // A path segment is never empty: an empty one is another path.
      schema: isId ? { type: 'string', format: 'uuid' } : { type: 'string', minLength: 1 },
    });
  }
  if (query) parameters.push(...queryParameters(query));
  if (route.method === 'POST' && route.auth === 'bearer') parameters.push(IDEMPOTENCY_KEY);
  return parameters;
}

/** Each status the route answers: its success in the route's media type, errors in the error shape. */
function responsesOf(
  route: RouteDef,
  replyKey: string | null,
  schemaOf: (key: string, io: Io) => Json,
  ctx: { errorKey: string; options: DocumentOptions },
): Record<string, Json> {
  const kind = route.kind ?? 'json';
  const responses: Record<string, Json> = {};
  for (const status of statusesOf(route, { rateLimited: ctx.options.rateLimited })) {
    if (status === route.status) {
      const headers = {
        'X-Request-Id': headerRef('X-Request-Id'),
        'X-Correlation-Id': headerRef('X-Correlation-Id'),
        ...rateHeaders(ctx.options),
        ...(route.method !== 'GET' ? { 'X-Renopath-Settled': headerRef('X-Renopath-Settled') } : {}),
      };
      responses[status] =
        kind === 'html'
          ? { description: HTML_HEADERS_NOTE, headers, content: { 'text/html': { schema: { type: 'string' } } } }
          : kind === 'file'
            ? {
                description: firstSentence(route.summary),
                headers,
                content: { [route.fileType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } } },
              }
            : kind === 'stream'
              ? {
                  description: `${firstSentence(route.summary)} Streamed; each record (a CSV line after the header line, or a JSON line) is the schema below.`,
                  headers,
                  content: Object.fromEntries(
                    (route.stream ?? []).map((f) => [
                      f.media,
                      f.media === 'text/csv'
                        ? {
                            schema: {
                              type: 'string',
                              description:
                                'A header line naming the columns, then one line per record with the fields of the record schema in that order.',
                            },
                          }
                        : { schema: replyKey ? schemaOf(replyKey, 'output') : {} },
                    ]),
                  ),
                }
              : {
                  description: firstSentence(route.summary),
                  headers,
                  content: { 'application/json': { schema: replyKey ? schemaOf(replyKey, 'output') : {} } },
                };
    } else if (status === 404 && kind === 'html') {
      responses[status] = {
        description: 'No such page: an HTML page saying so, in the asked language.',
        content: { 'text/html': { schema: { type: 'string' } } },
      };
    } else {
      responses[status] = errorReply(status, ctx.errorKey, schemaOf);
    }
  }
  return responses;
}

/** An upload's body: one multipart part `file`, its display name and the route's other fields. */
function uploadRequestBody(route: RouteDef): Json {
  return {
    required: true,
    description: `The file as a multipart part \`file\` (${(route.accept ?? []).join(', ')}; decided from its bytes), and optionally its display \`name\`${(route.upload?.fields ?? []).map((f) => ` and \`${f}\``).join('')}. At most ${(route.upload?.maxBytes ?? 25 * 1024 * 1024) / 1024 / 1024} MiB.`,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              minLength: 1,
              description: 'The bytes: at least one (an empty file is refused with 400).',
            },
            name: { type: 'string', maxLength: 255, description: 'The name shown for the file (default: the uploaded file name).' },
            ...Object.fromEntries((route.upload?.fields ?? []).map((f) => [f, uploadFieldSchema(route, f)])),
          },
          required: ['file'],
        },
        // The file part's types, where a client reads them (OpenAPI's encoding of a multipart part).
        ...(route.accept?.length ? { encoding: { file: { contentType: route.accept.join(', ') } } } : {}),
      },
    },
  };
}

function rateHeaders(options: DocumentOptions): Record<string, Json> {
  if (!options.rateLimited) return {};
  return {
    'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
    'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
    'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
  };
}

function errorReply(status: number, errorKey: string, schemaOf: (key: string, io: Io) => Json): Json {
  const text = STATUS_TEXT[status] ?? 'Error';
  const retry = status === 429 || status === 503 ? { 'Retry-After': headerRef('Retry-After') } : {};
  return {
    description: ERROR_DESCRIPTIONS[status] ?? text,
    headers: { 'X-Request-Id': headerRef('X-Request-Id'), 'X-Correlation-Id': headerRef('X-Correlation-Id'), ...retry },
    content: { 'application/json': { schema: schemaOf(errorKey, 'output') } },
  };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed or invalid: unknown query parameters, a body that is not JSON or breaks the schema (every problem is listed in `message`), a malformed Idempotency-Key.',
  401: 'No valid access token (missing, expired, revoked, or for another audience).',
  403: "The token's client lacks the scope this operation needs, or the caller may not act on this resource.",
  404: 'No such resource for this caller (an id that is not a UUID is unknown too).',
  406: 'The request breaks the rules of one or more property fields; `message` lists each.',
  409: 'The request conflicts with the current state (see `message`), or a request with the same Idempotency-Key is still running.',
  413: 'The body is larger than allowed (1 MiB for JSON, 25 MiB for an upload).',
  415: 'The content type is not accepted here (JSON endpoints take `application/json`; uploads take `multipart/form-data`).',
  422: 'The data is consistent with the schema but not with itself, or the Idempotency-Key was already used with another request.',
  429: 'Too many requests: wait the `Retry-After` seconds.',
  500: 'An unexpected failure; the correlation id names it in the logs.',
  503: 'A backing service does not answer right now: retry after `Retry-After` seconds.',
};

function queryParameters(schema: Json): Json[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((schema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(property['description'] ? { description: property['description'] } : {}),
    schema: property,
  }));
}

function tokenOperation(body: Json, reply: Json, options: DocumentOptions): Json {
  const header = (name: string, description: string): Json => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  });
  return {
    operationId: 'issueToken',
    tags: ['auth'],
    summary: 'Get an access token for an API client',
    description: [
      'Client credentials in one of three forms: the headers `x-service-client-id` and `x-service-client-secret` (no body);',
      'a JSON body `{ client_id, client_secret }`; or the RFC 6749 form `grant_type=client_credentials` with the credentials in HTTP Basic or in the form.',
      'The token is an EdDSA JWT valid `expires_in` seconds; its public keys are at `/.well-known/jwks.json`.',
      'Wrong secrets are limited: 10 per client id, then one a minute (429 with Retry-After).',
    ].join(' '),
    security: [],
    parameters: [
      header('x-service-client-id', 'The API client id (instead of a body).'),
      header('x-service-client-secret', 'The API client secret (instead of a body).'),
    ],
    requestBody: {
      required: false,
      content: {
        'application/json': {
          schema: body,
          example: { client_id: 'c0a8012e-7d1b-4c55-9a38-2f5d7e0b9c11', client_secret: 'the-secret-printed-once' },
        },
        'application/x-www-form-urlencoded': { schema: body },
      },
    },
    responses: {
      200: {
        description: 'An access token.',
        headers: { 'X-Correlation-Id': headerRef('X-Correlation-Id') },
        content: { 'application/json': { schema: reply } },
      },
      400: { $ref: '#/components/responses/TokenRefused' },
      ...(options.rateLimited ? { 429: { $ref: '#/components/responses/TooManyRequests' } } : {}),
      503: { $ref: '#/components/responses/Unavailable' },
    },
  };
}

/** The heading of an operation's rules beyond its schemas (RouteDef.rules): a client, and the tests, find them under it. */
export const RULES_HEADING = 'Refused beyond the schema (the message answered, `{name}` a value):';

function downloadOperation(options: DocumentOptions): Json {
  return {
    operationId: 'downloadFile',
    tags: ['files'],
    summary: 'Download a file, medium or report through a signed link',
    description:
      'The `url` of a file, medium or report in a reply: no bearer token, the signature is the credential, valid for one hour. A forged or expired link is a bare 403.',
    security: [],
    parameters: [
      { name: 'blob', in: 'path', required: true, description: 'Part of the signed link.', schema: { type: 'string', minLength: 1 } },
      {
        name: 'name',
        in: 'path',
        required: true,
        description: 'The file name the bytes are served under.',
        schema: { type: 'string', minLength: 1 },
      },
      {
        name: 'expires',
        in: 'query',
        required: true,
        description: 'When the link stops working (Unix seconds).',
        schema: { type: 'string' },
      },
      { name: 'signature', in: 'query', required: true, description: 'The link signature.', schema: { type: 'string' } },
    ],
    responses: {
      200: {
        description: 'The bytes, with the media type decided from them at upload (a report is `application/pdf`).',
        // Every type an upload is accepted as (and reports' PDF): the one served is among them.
        content: Object.fromEntries(
          [...RECOGNISED_MEDIA_TYPES].sort().map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
        ),
      },
      403: { $ref: '#/components/responses/Forbidden' },
      404: { $ref: '#/components/responses/NotFound' },
      ...(options.rateLimited ? { 429: { $ref: '#/components/responses/TooManyRequests' } } : {}),
    },
  };
}

function webhookOperation(
  type: string,
  about: { tag: string; summary: string /** Whose `webhook_url` it is sent to. */; to: string },
  description: string,
  payload: Json,
): Json {
  const header = (name: string, text: string, example: string): Json => ({
    name,
    in: 'header',
    required: true,
    description: text,
    schema: { type: 'string' },
    example,
  });
  return {
    post: {
      operationId: `on${type
        .split(/[._]/)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('')}`,
      tags: [about.tag],
      summary: about.summary,
      description: `${description} Sent to ${about.to} \`webhook_url\` as a Standard Webhooks message signed with the API client's webhook secret; verify it (for example with the \`standardwebhooks\` package) before trusting it. Answer 2xx within 10 seconds; other answers are retried on RENOPATH_WEBHOOK_RETRY_SCHEDULE. See docs/webhooks.md.`,
      parameters: [
        header(
          'webhook-id',
          'The message id: the same on every attempt, so a repeat can be dropped.',
          'msg_2b4c6d8e-0000-4000-8000-000000000000',
        ),
        header('webhook-timestamp', 'When this attempt was signed (Unix seconds); refuse old ones.', '1767225600'),
        header(
          'webhook-signature',
          'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>` signatures.',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      // The receiver checks the signature, not a token of ours.
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: payload } } },
      responses: { '2XX': { description: 'Received; no further attempts.' } },
    },
  };
}

function jsonReply(description: string, schema: Json): Json {
  return { description, content: { 'application/json': { schema } } };
}

/** The summary: the description's first clause, without an "Operator:" or "Extension:" label. */
function firstSentence(text: string): string {
  const body = text.replace(/^(Operator|Extension): /, '');
  const cut = body.search(/\. |; | \(|: /);
  const head = (cut > 0 ? body.slice(0, cut) : body).trim();
  return head.length > 0 ? head[0]!.toUpperCase() + head.slice(1) : text;
}

function sortPaths(paths: Record<string, Record<string, Json>>) {
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
}

/** The shared responses the hand-described operations refer to. */
export function sharedResponses(errorSchema: Json): Record<string, Json> {
  const reply = (status: number): Json => ({
    description: ERROR_DESCRIPTIONS[status] ?? STATUS_TEXT[status],
    content: { 'application/json': { schema: errorSchema } },
  });
  return {
    TokenRefused: {
      ...reply(400),
      description: 'The credentials are missing, malformed or wrong (the same answer for an unknown client and a wrong secret).',
    },
    Forbidden: { ...reply(403), description: 'A forged or expired link.' },
    NotFound: { ...reply(404), description: 'The file was deleted.' },
    TooManyRequests: { ...reply(429), headers: { 'Retry-After': headerRef('Retry-After') } },
    Unavailable: { ...reply(503), headers: { 'Retry-After': headerRef('Retry-After') } },
  };
}

/**
 * An upload's form field as its service's message contract states it (a webhook_url is a URL of at most
 * 2048 characters): the document says what the service refuses, rather than "a string".
 */
function uploadFieldSchema(route: RouteDef, field: string): Json {
  const body = Messages[route.subject]?.body;
  const schema = body instanceof z.ZodObject ? (body.shape as Record<string, z.ZodType>)[field] : undefined;
  const stated = schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json) : { type: 'string' };
  const { $schema: _drop, ...rest } = stated;
  return { ...rest, description: `The request's \`${field}\`.` };
}
