import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z, ZodType } from 'zod';
import { formatIssues } from '@renopath/contracts';
import { isImmutable } from '@renopath/platform/internal/reply.ts';
import { HttpError } from './errors.ts';

/**
 * The zod type provider's compilers, with the contract's messages: a body or query that does not
 * parse is a 400 whose `message[]` lists every problem as `formatIssues` words it (docs/http-contract.md "Errors"), not
 * Fastify's own validation error. Path parameters are documentation only: the route hooks answer an
 * id that is not a UUID with 404 (an unknown id), before validation.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = validatorWithStatus(400);

/** The same compiler with another status for an invalid body (406 on job creation, docs/http-contract.md "Trajectory jobs"); queries stay 400. */
export function validatorWithStatus(bodyStatus: 400 | 406): FastifySchemaCompiler<z.ZodType> {
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body' && httpPart !== 'querystring') return (value) => ({ value });
    const where = httpPart === 'body' ? 'body' : 'query';
    const status = httpPart === 'body' ? bodyStatus : 400;
    // Most reads carry no query string: when the schema turns `{}` into `{}`, those skip the parse.
    const none = httpPart === 'querystring' ? schema.safeParse({}) : null;
    const noneIsEmpty = none?.success === true && isEmptyObject(none.data);
    return (value) => {
      if (noneIsEmpty && isEmptyObject(value)) return { value: {} };
      // reportInput: a wrong type reads "must be a number", not "is required".
      const result = schema.safeParse(value, { reportInput: true });
      return result.success ? { value: result.data } : { error: new HttpError(status, formatIssues(result.error.issues, where)) };
    };
  };
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/**
 * Replies are written from their route's reply schema (fast-json-stringify on the zod schema's JSON
 * form) where that is exact: only the documented fields leave, none is lost, no value is coerced.
 * A schema with shapes fast-json-stringify would have to guess between (unions, references) or round
 * (integers) is written with JSON.stringify instead, as are error bodies.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, httpStatus }) => {
  const status = Number(httpStatus);
  if (!(status >= 200 && status < 300) || !(schema instanceof ZodType)) return JSON.stringify;
  let compiled = compiledReplies.get(schema);
  if (compiled === undefined) {
    const json = exactSchema(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }));
    compiled = keepingBytes(
      json ? (fastJson(json as unknown as Parameters<typeof fastJson>[0]) as (data: unknown) => string) : JSON.stringify,
    );
    compiledReplies.set(schema, compiled);
  }
  return compiled;
};

const compiledReplies = new WeakMap<object, (data: unknown) => string>();

/**
 * A reply the service froze (`freezeImmutable`; in one process it arrives by reference) is the same
 * bytes every time it is written: they are kept with it, and a read repeated before the document
 * changes is not serialized again (issue 9). Replies from the wire are new objects and always written.
 */
function keepingBytes(serialize: (data: unknown) => string): (data: unknown) => string {
  const written = new WeakMap<object, string>();
  return (data) => {
    if (!isImmutable(data)) return serialize(data);
    let text = written.get(data);
    if (text === undefined) {
      text = serialize(data);
      written.set(data, text);
    }
    return text;
  };
}
const PRIMITIVES = new Set(['string', 'number', 'boolean', 'null']);
/** Keywords that only constrain values: serializing does not need them. */
const CONSTRAINTS = new Set([
  '$schema',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'description',
  'readOnly',
  'default',
  'examples',
  'title',
  'uniqueItems',
  'enum',
  'const',
]);

/** The schema with what fast-json-stringify writes exactly; null when some part of it is not. */
function exactSchema(node: unknown): Record<string, unknown> | null {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return null;
  const source = node as Record<string, unknown>;
  // `T | null` of one primitive: a type list, which needs no guessing.
  const anyOf = source['anyOf'];
  if (Array.isArray(anyOf)) {
    const types = anyOf.map((branch) => (branch as Record<string, unknown>)['type']);
    if (anyOf.length === 2 && types.includes('null') && types.every((t) => typeof t === 'string' && PRIMITIVES.has(t))) {
      return { type: types };
    }
    return null;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (CONSTRAINTS.has(key)) continue;
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (types.includes('integer')) return null; // fast-json-stringify would round a non-integer
      out[key] = value;
    } else if (key === 'properties') {
      const properties: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
        const exact = exactSchema(child);
        if (!exact) return null;
        properties[name] = exact;
      }
      out[key] = properties;
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      const exact = exactSchema(value);
      if (!exact) return null;
      out[key] = exact;
    } else if (key === 'required' || key === 'additionalProperties') {
      out[key] = value;
    } else {
      return null; // allOf, oneOf, $ref, patternProperties, prefixItems...: not written exactly
    }
  }
  // An untyped node (z.unknown(), a transform) is any value: JSON.stringify writes it.
  if (out['type'] === undefined && (out['properties'] !== undefined || out['items'] !== undefined)) return null;
  return out;
}
