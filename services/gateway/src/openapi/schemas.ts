import { z } from 'zod';
import * as contracts from '@renopath/contracts';
import { DOCUMENTED_AS } from '@renopath/contracts';

/**
 * The JSON schemas of the OpenAPI document, made from the zod contracts of `@renopath/contracts`
 * (the one definition of every name): each exported contract a route reaches becomes a named
 * component under the name it is exported with, and a schema reached only through a route stays
 * inline in its operation. A request body is converted as zod reads input, a reply as zod writes
 * output; where the two differ, the input one is named `<Name>Input`.
 */

export type Json = Record<string, unknown>;
export type Io = 'input' | 'output';

const REF = '#/components/schemas/';
const INPUT_MARK = '~input';
/** `z.number().int()` says ±(2^53 - 1); those bounds are zod's, not ours, and read like real limits in generated clients. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** Zod kinds worth a name: objects, lists, unions, enums (a bare string or number is clearer inline). */
const NAMED_KINDS = new Set(['object', 'array', 'union', 'enum', 'record', 'lazy', 'pipe', 'intersection', 'discriminatedUnion']);

let exportedNames: Map<z.ZodType, string> | null = null;

/** Every zod schema `@renopath/contracts` exports, by the name it is exported with (the first, when one has two). */
export function contractNames(): Map<z.ZodType, string> {
  if (exportedNames) return exportedNames;
  exportedNames = new Map();
  for (const [name, value] of Object.entries(contracts)) {
    if (!(value instanceof z.ZodType) || exportedNames.has(value)) continue;
    if (!NAMED_KINDS.has(kindOf(value))) continue;
    exportedNames.set(value, name);
  }
  return exportedNames;
}

function kindOf(schema: z.ZodType): string {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType };
  // `.refine()` and `.meta()` keep the kind; `.optional()` / `.nullable()` of a named schema are written around its reference.
  while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
    def = def.innerType._zod.def as typeof def;
  return def.type;
}

/**
 * A collection of schemas to convert: the named contracts plus the anonymous ones of operations,
 * which get a temporary key and are inlined where they are used.
 */
export class SchemaSet {
  private readonly anonymous = new Map<z.ZodType, string>();

  private readonly named = new Map<z.ZodType, string>();

  /**
   * A schema an operation uses; returns the key to read its converted form with. `name` names a
   * schema that is not an exported contract (a route's documented body).
   */
  use(schema: z.ZodType, hint: string, name?: string): string {
    const known = contractNames().get(schema) ?? this.named.get(schema);
    if (known) return known;
    if (name) {
      this.named.set(schema, name);
      return name;
    }
    const key = this.anonymous.get(schema) ?? `~${hint}~${this.anonymous.size}`;
    this.anonymous.set(schema, key);
    return key;
  }

  /**
   * Converts everything once per direction and returns the components (only those some root reaches)
   * and a function that gives the schema (a reference, or inline) of a key.
   */
  convert(): { components: Record<string, Json>; schemaOf: (key: string, io: Io) => Json; inlineOf: (key: string, io: Io) => Json } {
    // Input first: the fields it leaves out as read-only are the ones replies mark `readOnly`.
    const readOnly = new Set<string>();
    const input = this.convertAll('input', readOnly);
    const converted: Record<Io, Record<string, Json>> = { input, output: this.convertAll('output', readOnly) };
    // Which input components differ from their output form, also through what they refer to.
    const differs = new Set<string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const [key, input] of Object.entries(converted.input)) {
        if (differs.has(key)) continue;
        const output = converted.output[key];
        const refs = refsOf(input).map((ref) => ref.slice(REF.length).replace(INPUT_MARK, ''));
        if (!output || JSON.stringify(stripInput(input)) !== JSON.stringify(output) || refs.some((ref) => differs.has(ref))) {
          differs.add(key);
          changed = true;
        }
      }
    }
    const nameOf = (key: string, io: Io) => (io === 'input' && differs.has(key) ? `${key}Input` : key);
    const rewrite = (json: Json): Json =>
      mapRefs(json, (ref) => (ref.endsWith(INPUT_MARK) ? REF + nameOf(ref.slice(REF.length, -INPUT_MARK.length), 'input') : ref));

    const components: Record<string, Json> = {};
    const inline: Record<string, Json> = {};
    const pending: Array<{ key: string; io: Io }> = [];
    const seen = new Set<string>();
    const schemaOf = (key: string, io: Io): Json => {
      pending.push({ key, io });
      drain();
      const name = nameOf(key, io);
      return key.startsWith('~') ? inline[name]! : { $ref: REF + name };
    };
    /** The schema itself, never a reference (query parameters are listed one by one); what it refers to is kept. */
    const inlineOf = (key: string, io: Io): Json => {
      const json = rewrite(converted[io][key]!);
      for (const ref of refsOf(json)) pending.push(targetOf(ref));
      drain();
      return json;
    };
    const targetOf = (ref: string): { key: string; io: Io } => {
      const target = ref.slice(REF.length);
      const isInput = target.endsWith('Input') && differs.has(target.slice(0, -'Input'.length));
      return { key: isInput ? target.slice(0, -'Input'.length) : target, io: isInput ? 'input' : 'output' };
    };
    const drain = () => {
      while (pending.length > 0) {
        const { key, io } = pending.pop()!;
        const name = nameOf(key, io);
        if (seen.has(`${io}:${name}`)) continue;
        seen.add(`${io}:${name}`);
        const source = converted[io][key];
        if (!source) throw new Error(`no converted schema for ${key}`);
        const json = rewrite(source);
        if (key.startsWith('~')) inline[name] = json;
        else components[name] = json;
        for (const ref of refsOf(json)) pending.push(targetOf(ref));
      }
    };
    drain();
    return { components, schemaOf, inlineOf };
  }

  private convertAll(io: Io, readOnly: Set<string>): Record<string, Json> {
    const registry = z.registry<{ id: string }>();
    for (const [schema, name] of contractNames()) registry.add(schema, { id: name });
    for (const [schema, key] of [...this.named, ...this.anonymous]) registry.add(schema, { id: key });
    const { schemas } = z.toJSONSchema(registry, {
      io,
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
      uri: (id) => `${REF}${id}${io === 'input' ? INPUT_MARK : ''}`,
      // A loose schema published as a named contract (DOCUMENTED_AS): a reference to that contract.
      override: ({ jsonSchema }) => {
        const name = (jsonSchema as Json)[DOCUMENTED_AS];
        if (typeof name !== 'string') return;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Json)[key];
        (jsonSchema as Json)['$ref'] = `${REF}${name}${io === 'input' ? INPUT_MARK : ''}`;
      },
    }) as unknown as { schemas: Record<string, Json> };
    const out: Record<string, Json> = {};
    for (const [key, schema] of Object.entries(schemas)) {
      if (key === '__shared') throw new Error('a recursive schema without a name: give it an exported name in @renopath/contracts');
      out[key] = tidy(schema, io, readOnly) as Json;
    }
    return out;
  }
}

function stripInput(json: Json): Json {
  return mapRefs(json, (ref) => ref.replace(INPUT_MARK, ''));
}

/** Every `$ref` in a schema. */
export function refsOf(json: unknown, into: string[] = []): string[] {
  if (Array.isArray(json)) for (const item of json) refsOf(item, into);
  else if (json && typeof json === 'object') {
    for (const [key, value] of Object.entries(json)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else refsOf(value, into);
    }
  }
  return into;
}

function mapRefs(json: Json, map: (ref: string) => string): Json {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? map(v) : walk(v)]));
  };
  return walk(json) as Json;
}

/**
 * What zod writes that a document should not carry: `$schema`/`$id` per schema, the safe-integer
 * bounds. A request body leaves out the fields a client may never send (marked `readOnly` in the
 * contracts; the server refuses them by name) and collects their names in `readOnly`; a reply marks
 * the fields of those names `readOnly`, so a generated client knows which it cannot set.
 */
function tidy(value: unknown, io: Io, readOnly: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => tidy(item, io, readOnly));
  if (!value || typeof value !== 'object') return value;
  const json = { ...(value as Json) };
  delete json['$schema'];
  delete json['$id'];
  if (json['minimum'] === -SAFE) delete json['minimum'];
  if (json['maximum'] === SAFE) delete json['maximum'];
  if (json['properties'] && typeof json['properties'] === 'object') {
    const properties = json['properties'] as Record<string, Json>;
    if (io === 'input') {
      const refused = Object.keys(properties).filter((key) => properties[key]?.['readOnly'] === true);
      for (const key of refused) readOnly.add(key);
      if (refused.length > 0) {
        json['properties'] = Object.fromEntries(Object.entries(properties).filter(([key]) => !refused.includes(key)));
        if (Array.isArray(json['required'])) json['required'] = (json['required'] as string[]).filter((key) => !refused.includes(key));
      }
    } else {
      json['properties'] = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, readOnly.has(key) ? { ...property, readOnly: true } : property]),
      );
    }
  }
  for (const [key, child] of Object.entries(json)) json[key] = tidy(child, io, readOnly);
  return json;
}

/**
 * `<Name>Input` only where both forms of a contract are published: a body contract that no reply
 * uses keeps its own name. Run once every operation took its schemas.
 */
export function plainInputNames(document: Json): Json {
  const schemas = ((document['components'] as Json)['schemas'] ?? {}) as Record<string, Json>;
  const renames = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !schemas[name.slice(0, -'Input'.length)]) renames.set(name, name.slice(0, -'Input'.length));
  }
  if (renames.size === 0) return document;
  const renamed = mapRefs(document, (ref) =>
    ref.startsWith(REF) && renames.has(ref.slice(REF.length)) ? REF + renames.get(ref.slice(REF.length))! : ref,
  );
  const components = renamed['components'] as Json;
  components['schemas'] = Object.fromEntries(
    Object.entries(components['schemas'] as Record<string, Json>)
      .map(([name, schema]) => [renames.get(name) ?? name, schema] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return renamed;
}
