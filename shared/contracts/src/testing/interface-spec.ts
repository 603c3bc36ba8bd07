import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/**
 * The interface as data (`shared/contracts/conformance/interface.json`) and the walkers that hold a
 * zod schema or a JSON schema to it. Used by the contracts' conformance spec and the gateway's
 * OpenAPI conformance spec, so both read the one list.
 */

export interface FieldSpec {
  type?: 'number' | 'string' | 'boolean' | 'string[]' | 'uuid';
  enum?: string;
  min?: number;
  required?: boolean;
  example?: unknown;
}
export interface RequestSpec {
  title: string;
  fields: Record<string, FieldSpec>;
}
export interface EndpointSpec {
  method: string;
  path: string;
  status: number;
  body?: string;
  reply?: string;
}
export interface InterfaceSpec {
  enums: Record<string, string[]>;
  requests: Record<string, RequestSpec>;
  replies: Record<string, string[]>;
  list_omits: Record<string, string[]>;
  endpoints: EndpointSpec[];
}

export const INTERFACE_SPEC: InterfaceSpec = JSON.parse(
  readFileSync(new URL('../../conformance/interface.json', import.meta.url), 'utf8'),
) as InterfaceSpec;

const EXAMPLE_UUID = '6f1c2a9e-4b7d-4c1e-9a3f-2d5e8b7c6a10';

/** A value the interface allows for the field: its example, else the first enum value, else a plain one. */
export function exampleValue(spec: FieldSpec, enums: Record<string, string[]>): unknown {
  if (spec.example !== undefined) return spec.example;
  const values = spec.enum ? enums[spec.enum] : undefined;
  if (spec.type === 'string[]') return values ? [values[0]] : ['text'];
  if (values) return values[0];
  switch (spec.type) {
    case 'number':
      return Math.max(spec.min ?? 0, 2);
    case 'boolean':
      return true;
    case 'uuid':
      return EXAMPLE_UUID;
    default:
      return 'Text';
  }
}

/** Sets `a.b.c` in a nested object. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
  return target;
}

/** A body with the given fields set to the interface values (and the required ones always). */
export function bodyOf(request: RequestSpec, enums: Record<string, string[]>, only?: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, spec] of Object.entries(request.fields)) {
    if (only && !only.includes(path) && !spec.required) continue;
    setPath(body, path, exampleValue(spec, enums));
  }
  return body;
}

// ---- zod introspection ----

type AnyDef = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: AnyDef } })._zod.def;

/** Strips optional, nullable, default, pipes and lazies down to the shape that holds fields. */
function candidates(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.innerType) return candidates(def.innerType);
  if (def.type === 'pipe' && def.in) return candidates(def.in);
  if (def.type === 'lazy' && def.getter) return candidates(def.getter());
  if (def.type === 'union' && def.options) return def.options.flatMap(candidates);
  if (def.type === 'intersection' && def.left && def.right) return [...candidates(def.left), ...candidates(def.right)];
  return [schema];
}

/** Whether a zod schema declares the field path (`a.b`, `list[].c`). */
export function zodHasPath(schema: z.ZodType, path: string): boolean {
  const [head, ...rest] = path.split('.');
  const isArray = head!.endsWith('[]');
  const name = isArray ? head!.slice(0, -2) : head!;
  return candidates(schema).some((candidate) => {
    const def = defOf(candidate);
    if (def.type !== 'object' || !def.shape || !(name in def.shape)) return false;
    let field = def.shape[name]!;
    if (isArray) {
      const array = candidates(field).find((c) => defOf(c).type === 'array');
      if (!array) return false;
      field = defOf(array).element!;
    }
    return rest.length === 0 || zodHasPath(field, rest.join('.'));
  });
}

// ---- JSON schema (OpenAPI) ----

type Json = Record<string, unknown>;

function jsonCandidates(schema: Json, root: Json): Json[] {
  if (typeof schema['$ref'] === 'string') {
    const ref = (schema['$ref'] as string).replace(/^#\//, '').split('/');
    let node: unknown = root;
    for (const key of ref) node = (node as Json)?.[key];
    return node ? jsonCandidates(node as Json, root) : [];
  }
  const nested = ['anyOf', 'oneOf', 'allOf'].flatMap((k) =>
    ((schema[k] as Json[] | undefined) ?? []).flatMap((s) => jsonCandidates(s, root)),
  );
  return [schema, ...nested];
}

/** Whether a JSON schema declares the field path; `root` resolves `$ref`s. */
export function jsonSchemaHasPath(schema: Json, path: string, root: Json = schema): boolean {
  const [head, ...rest] = path.split('.');
  const isArray = head!.endsWith('[]');
  const name = isArray ? head!.slice(0, -2) : head!;
  if (head === '[]') {
    // A reply that is an array of the resource: look inside its items.
    const array = jsonCandidates(schema, root).find((c) => c['items']);
    return !!array && jsonSchemaHasPath(array['items'] as Json, rest.join('.'), root);
  }
  return jsonCandidates(schema, root).some((candidate) => {
    const properties = candidate['properties'] as Record<string, Json> | undefined;
    if (!properties || !(name in properties)) return false;
    let field = properties[name]!;
    if (isArray) {
      const array = jsonCandidates(field, root).find((c) => c['items']);
      if (!array) return false;
      field = array['items'] as Json;
    }
    return rest.length === 0 || jsonSchemaHasPath(field, rest.join('.'), root);
  });
}
