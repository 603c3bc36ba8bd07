import fc from 'fast-check';

type Json = Record<string, any>;

/**
 * Values a JSON Schema (as `/openapi.json` writes it: OpenAPI 3.1, JSON Schema 2020-12) allows, as
 * fast-check arbitraries: what a client generated from the document may send. Every keyword the
 * document uses is honoured (types, enums, lengths, patterns, formats, bounds, items and their count,
 * `uniqueItems`, required and optional properties, `anyOf`/`oneOf`, `$ref`); a keyword it does not
 * know makes the sampler throw, so a new rule in the document cannot be silently ignored here.
 */
export function arbitraryOf(schema: Json, root: Json, depth = 0): fc.Arbitrary<unknown> {
  if (schema['$ref']) return arbitraryOf(resolveRef(root, schema['$ref']), root, depth);
  if ('const' in schema) return fc.constant(schema['const']);
  if (schema['enum']) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Json[] | undefined;
  if (branches) {
    // Past a few levels, the branch without nesting (null, a string): recursive shapes end.
    const usable = depth > 4 ? branches.filter((b) => b['type'] === 'null' || b['type'] === 'string') : branches;
    return fc.oneof(...(usable.length ? usable : branches).map((b) => arbitraryOf({ ...withoutBranches(schema), ...b }, root, depth + 1)));
  }
  if (schema['allOf']) throw new Error('allOf is not sampled');
  const type = schema['type'];
  if (Array.isArray(type)) return fc.oneof(...type.map((t: string) => arbitraryOf({ ...schema, type: t }, root, depth)));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return numberOf(schema, type === 'integer');
    case 'string':
      return stringOf(schema);
    case 'array':
      return arrayOf(schema, root, depth);
    case 'object':
      return objectOf(schema, root, depth);
    case undefined:
      // An unconstrained value (z.unknown(), a free-form record).
      return fc.constantFrom({}, 'x', 1, true, null);
  }
  throw new Error(`type ${String(type)} is not sampled`);
}

function withoutBranches(schema: Json): Json {
  const { anyOf: _a, oneOf: _o, ...rest } = schema;
  return rest;
}

export function resolveRef(root: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`);
  let node: any = root;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (!node) throw new Error(`unresolved $ref ${ref}`);
  return node;
}

function numberOf(schema: Json, integer: boolean): fc.Arbitrary<number> {
  let min: number = schema['minimum'] ?? -1e6;
  let max: number = schema['maximum'] ?? 1e6;
  if (schema['exclusiveMinimum'] !== undefined) min = Math.max(min, schema['exclusiveMinimum'] + (integer ? 1 : 1e-6));
  if (schema['exclusiveMaximum'] !== undefined) max = Math.min(max, schema['exclusiveMaximum'] - (integer ? 1 : 1e-6));
  if (integer)
    return fc.integer({ min: Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER)), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) });
  // Round figures, as a form or a CRM sends them (a sampled 1e-300 says nothing about the service).
  return fc
    .oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: Math.ceil(min), max: Math.floor(max) }))
    .map((n) => (Number.isInteger(n) ? n : Math.round(n * 100) / 100))
    .filter((n) => n >= min && n <= max);
}

const DATE_TIME = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringOf(schema: Json): fc.Arbitrary<string> {
  const minLength: number = schema['minLength'] ?? 0;
  const maxLength: number = schema['maxLength'] ?? Math.max(minLength, 40);
  const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  let base: fc.Arbitrary<string>;
  switch (schema['format']) {
    case 'uuid':
      base = fc.uuid({ version: 4 });
      break;
    case 'email':
      base = fc.emailAddress();
      break;
    case 'date-time':
      base = DATE_TIME;
      break;
    case 'date':
      base = DATE_TIME.map((s) => s.slice(0, 10));
      break;
    case 'uri':
      base = fc.webUrl({ validSchemes: ['https'] });
      break;
    case 'binary':
      base = fc.string({ minLength: Math.max(minLength, 1), maxLength: 40 });
      break;
    case undefined:
      base = schema['pattern']
        ? patterned(schema['pattern'], minLength, Math.min(maxLength, minLength + 40))
        : fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40), unit: 'grapheme' });
      break;
    default:
      throw new Error(`format ${schema['format']} is not sampled`);
  }
  const pattern = schema['pattern'] && schema['format'] ? new RegExp(schema['pattern'], 'u') : null;
  return base.filter((s) => fits(s) && (!pattern || pattern.test(s)));
}

/**
 * Strings of a pattern within lengths: a repeated character class (`^[A-Za-z0-9._-]+$`) is drawn
 * character by character to the lengths asked, which the pattern's own sampler rarely reaches.
 */
function patterned(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  const repeated = /^\^(\[[^\]]+\])[+*]\$$/.exec(pattern);
  if (repeated)
    return fc.string({ unit: fc.stringMatching(new RegExp(`^${repeated[1]}$`, 'u')), minLength: Math.max(minLength, 1), maxLength });
  return fc.stringMatching(new RegExp(pattern, 'u'), { size: minLength > 8 ? 'large' : 'small' });
}

function arrayOf(schema: Json, root: Json, depth: number): fc.Arbitrary<unknown[]> {
  const items = (schema['items'] as Json | undefined) ?? {};
  const minLength: number = schema['minItems'] ?? 0;
  const maxLength: number = Math.min(schema['maxItems'] ?? 4, minLength + 4);
  const item = arbitraryOf(items, root, depth + 1);
  return schema['uniqueItems']
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength });
}

function objectOf(schema: Json, root: Json, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, Json>;
  const required = new Set<string>(schema['required'] ?? []);
  // Read-only fields are the server's; a client does not send them.
  const names = Object.keys(properties).filter((name) => !properties[name]!['readOnly'] || required.has(name));
  if (names.length === 0 && schema['additionalProperties'] && typeof schema['additionalProperties'] === 'object') {
    const key = schema['propertyNames']
      ? (stringOf(schema['propertyNames']) as fc.Arbitrary<string>)
      : fc.string({ minLength: 1, maxLength: 8 });
    return fc.dictionary(key, arbitraryOf(schema['additionalProperties'], root, depth + 1), {
      minKeys: schema['minProperties'] ?? 0,
      maxKeys: Math.max(schema['minProperties'] ?? 0, 3),
    });
  }
  const record = fc.record(Object.fromEntries(names.map((name) => [name, arbitraryOf(properties[name]!, root, depth + 1)])), {
    requiredKeys: names.filter((name) => required.has(name)),
  });
  const minProperties: number = schema['minProperties'] ?? 0;
  return minProperties > 0 ? record.filter((value) => Object.keys(value).length >= minProperties) : record;
}
