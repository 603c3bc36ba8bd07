import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../src/routes/route.ts';
import { ADMIN_TOKEN, startStack, type Stack } from './stack.ts';

/**
 * Generated malformed requests (fast-check, built from each route's zod schemas): bodies with the
 * schema's own field names holding the wrong things, unknown fields, broken JSON, hostile strings,
 * odd ids and query strings. Not one may be a 5xx, and every refusal is in the error shape.
 * RENOPATH_ATTACK_RUNS raises the count (`npm run attack`: 8000). `npm test`'s 1200, from a fixed seed,
 * give every route of the table many attempts; the long run is for new shapes, not for every commit.
 */
const RUNS = Number(process.env['RENOPATH_ATTACK_RUNS'] ?? 1200);

let stack: Stack;
let bearer: string;
let estateId: string;

beforeAll(async () => {
  stack = await startStack();
  bearer = await stack.clientToken(stack.bootstrap.user_id, ['estates', 'renovations', 'calculations', 'reports', 'organization', 'audit']);
  estateId = (await stack.as(bearer).post('/estates', { name: 'Fuzzed' })).json().id;
});
afterAll(async () => stack?.close());

/** The field names a schema declares (objects, refined objects, and their optional/nullable wrappers). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  let current: unknown = schema;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof z.ZodObject) return Object.keys(current.shape);
    const def = (current as { def?: { innerType?: unknown; in?: unknown; schema?: unknown } }).def;
    current = def?.innerType ?? def?.in ?? def?.schema;
  }
  return [];
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '\u001b[2J',
    '\ud800',
    '\udfff\ud800',
    '\u202e',
    '\u2066x\u2069',
    '../../etc/passwd',
    '%00',
    '<script>',
    '{"$gt":""}',
    "'; DROP TABLE estates;--",
    'x'.repeat(5000),
    '1e309',
    '-0',
    'NaN',
    '__proto__',
    'constructor',
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A JSON body for `route`: its own fields with hostile values, sometimes unknown ones, sometimes not an object. */
function bodyFor(route: RouteDef): fc.Arbitrary<unknown> {
  const fields = fieldsOf(route.body);
  const own = fields.length
    ? fc.dictionary(fc.constantFrom(...fields), hostileValue, { maxKeys: Math.min(fields.length, 6) })
    : fc.constant({});
  const withUnknown = fc
    .tuple(own, fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), hostileValue, { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }));
  const proto = own.map((o) => JSON.parse(`{"__proto__":{"admin":true},${JSON.stringify(o).slice(1)}`.replace(/,}$/, '}')) as unknown);
  return fc.oneof(
    { weight: 5, arbitrary: own },
    { weight: 2, arbitrary: withUnknown },
    { weight: 1, arbitrary: proto },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

const idValue = fc.oneof(
  fc.uuid({ version: 4 }),
  fc.constantFrom(
    '',
    '..',
    '%2e%2e',
    'null',
    '0',
    '00000000-0000-0000-0000-000000000000',
    'ZZZZZZZZ-0000-4000-8000-000000000000',
    '%00',
    '%E0%A4%A',
  ),
  fc.string({ maxLength: 50 }).map(encodeURIComponent),
);

interface Attempt {
  route: RouteDef;
  ids: string[];
  query: Record<string, unknown>;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string } | { kind: 'none' };
}

function attemptFor(route: RouteDef): fc.Arbitrary<Attempt> {
  const names = route.path.match(/\{(\w+)\}/g) ?? [];
  // Mostly a real estate id, so the request reaches the service; sometimes a random one.
  const ids = fc.tuple(...names.map((n) => (n === '{estate_id}' ? fc.oneof(fc.constant(estateId), idValue) : idValue)));
  const queryFields = fieldsOf(route.query);
  const query = fc.dictionary(
    fc.oneof(queryFields.length ? fc.constantFrom(...queryFields) : fc.constant('as_of'), fc.string({ minLength: 1, maxLength: 10 })),
    fc.oneof(hostileString, fc.integer().map(String)),
    { maxKeys: 3 },
  );
  const raw = fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"a":', '[1,2', '{"a":1}}', 'null', '"x"', '\u0000', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}'),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
    ),
  });
  const json = bodyFor(route).map((value) => ({ kind: 'json' as const, value }));
  if (route.kind === 'upload') {
    // Broken multipart: no boundary, a wrong one, unterminated parts, several files, fields only.
    const part = fc
      .tuple(fc.constantFrom('file', 'name', 'other', ''), fc.option(fc.string({ maxLength: 20 })), fc.string({ maxLength: 60 }))
      .map(
        ([name, filename, content]) =>
          `--x\r\nContent-Disposition: form-data; name="${name}"${filename !== null ? `; filename="${filename}"` : ''}\r\n\r\n${content}\r\n`,
      );
    const multipartBody = fc.record({
      kind: fc.constant('raw' as const),
      text: fc
        .tuple(fc.array(part, { maxLength: 3 }), fc.constantFrom('--x--\r\n', '', '--y--\r\n', '--x'))
        .map(([parts, end]) => parts.join('') + end),
      contentType: fc.constantFrom(
        'multipart/form-data; boundary=x',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/mixed; boundary=x',
      ),
    });
    return fc.record({
      route: fc.constant(route),
      ids,
      query,
      body: fc.oneof({ weight: 4, arbitrary: multipartBody }, { weight: 1, arbitrary: raw }),
    });
  }
  const body =
    route.method === 'GET' || route.method === 'DELETE'
      ? fc.oneof({ weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) }, { weight: 1, arbitrary: json })
      : fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: raw });
  return fc.record({ route: fc.constant(route), ids, query, body });
}

async function send(attempt: Attempt) {
  let i = 0;
  const path = attempt.route.path.replace(/\{\w+\}/g, () => attempt.ids[i++] ?? 'x');
  const qs = new URLSearchParams(Object.entries(attempt.query).map(([k, v]) => [k, String(v)])).toString();
  const url = `${attempt.route.prefix === 'v1' ? '/v1' : ''}${path}${qs ? `?${qs}` : ''}`;
  const auth = attempt.route.auth === 'admin' ? ADMIN_TOKEN : attempt.route.auth === 'bearer' ? bearer : null;
  const headers: Record<string, string> = auth ? { authorization: `Bearer ${auth}` } : {};
  const b = attempt.body;
  if (b.kind === 'json') {
    return stack.app.inject({
      method: attempt.route.method,
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(b.value) ?? 'null',
    });
  }
  if (b.kind === 'raw') {
    return stack.app.inject({
      method: attempt.route.method,
      url,
      headers: { ...headers, ...(b.contentType ? { 'content-type': b.contentType } : {}) },
      payload: b.text,
    });
  }
  return stack.app.inject({ method: attempt.route.method, url, headers });
}

function checkAnswer(attempt: Attempt, res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  const where = `${attempt.route.method} ${attempt.route.path}`;
  expect(res.statusCode, `${where} answered ${res.statusCode}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body['statusCode'], where).toBe(res.statusCode);
  expect(typeof body['error'], where).toBe('string');
  if ([401, 403].includes(res.statusCode)) expect(body['message'], where).toBeUndefined();
  else {
    expect(Array.isArray(body['message']) && (body['message'] as unknown[]).every((m) => typeof m === 'string'), where).toBe(true);
    expect((body['message'] as string[]).length, where).toBeLessThanOrEqual(21);
  }
  expect(res.body.length, where).toBeLessThan(16_384);
}

describe('generated malformed requests', () => {
  it(`answers ${RUNS} of them without a 5xx, every refusal in the error shape`, { timeout: 600_000 }, async () => {
    // Every route of the table but the HTML referral page (not an API answer; its own suite holds it).
    const routes = stack.running.gateway.routes.filter((r) => r.kind !== 'html');
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes).chain(attemptFor), async (attempt) => {
        const res = await send(attempt);
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        checkAnswer(attempt, res);
      }),
      { numRuns: RUNS, seed: Number(process.env['RENOPATH_ATTACK_SEED'] ?? 20260801), endOnFailure: true },
    );
    expect(sent).toBe(RUNS);
    // Most are refused, and the refusals are validation (400), not crashes or silence.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
  });

  it('answers malformed token requests without a 5xx', async () => {
    const bodies = fc.oneof(
      fc.dictionary(fc.constantFrom('client_id', 'client_secret', 'grant_type', 'scope'), hostileValue, { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.option(fc.string({ maxLength: 60 })), async (body, basic) => {
        const res = await stack.app.inject({
          method: 'POST',
          url: '/v1/oauth/token',
          headers: {
            'content-type': 'application/json',
            ...(basic !== null ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {}),
          },
          payload: JSON.stringify(body) ?? 'null',
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(res.json()).toMatchObject({ statusCode: res.statusCode });
      }),
      // Well-formed credentials cost a scrypt hash each: a smaller sample here, more under `npm run attack`.
      { numRuns: Math.ceil(RUNS / 100), seed: 7 },
    );
  });
});
