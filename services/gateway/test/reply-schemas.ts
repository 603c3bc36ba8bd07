import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

/** What the tests read of an answer (inject's and the distributed client's alike). */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Answers against `/openapi.json`, as a generated client reads them: the status must be declared for
 * the operation, with the media type it came in, and a JSON body must match the declared schema
 * (closed objects included: a field the server sends and the schema lacks is a violation, since a
 * generated client would not have it). Each check returns the violations in words; none is a pass.
 */
export class ReplySchemas {
  private readonly ajv: Ajv2020;
  private readonly templates: Array<{ template: string; pattern: RegExp; params: number }>;
  private readonly validators = new Map<string, ((data: unknown) => boolean) & { errors?: unknown }>();

  constructor(readonly doc: Json) {
    // strict off: the document carries OpenAPI's own keywords (example, readOnly on refs) beside JSON Schema's.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi' });
    this.templates = Object.keys(doc['paths'])
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}/?$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      // The router's precedence: a literal segment before a parameter.
      .sort((a, b) => a.params - b.params);
  }

  /** The document's path template of a URL (`/v1/estates/{estate_id}`), or null. */
  templateOf(method: string, url: string): string | null {
    // The path as it is sent: dot segments (`..`, `%2e%2e`) resolved, as the URL parser of any client
    // (and of inject) does, so the reply is checked against the route that served it.
    const path = new URL(url, 'http://localhost').pathname;
    const matching = this.templates.filter(({ pattern }) => pattern.test(path));
    return matching.find(({ template }) => this.doc['paths'][template]?.[method.toLowerCase()])?.template ?? matching[0]?.template ?? null;
  }

  /** The violations of one answer to `method template`. */
  check(method: string, template: string, res: Answer): string[] {
    const operation = this.doc['paths'][template]?.[method.toLowerCase()];
    const where = `${method} ${template} ${res.statusCode}`;
    if (!operation) return [`${where}: no such operation in the document`];
    let response = operation.responses?.[String(res.statusCode)] ?? operation.responses?.['default'];
    if (!response) return [`${where}: status not declared`];
    if (response.$ref) response = this.resolve(response.$ref);
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (!response.content) return res.body.length > 0 && method !== 'HEAD' ? [`${where}: a body (${type}) where none is declared`] : [];
    if (method === 'HEAD') return [];
    const media = response.content[type];
    if (!media) return [`${where}: served as ${type || 'nothing'}, declared as ${Object.keys(response.content).join(', ')}`];
    if (!type.endsWith('json') || !media.schema) return [];
    const validate = this.validatorFor(template, method, String(res.statusCode), type, media.schema);
    // JSON lines (a streamed reply): the document's schema is each record's, one JSON value per line.
    const ndjson = type === 'application/x-ndjson';
    const records = ndjson ? res.body.split('\n').filter((line) => line.trim() !== '') : [res.body];
    const problems: string[] = [];
    for (const [i, text] of records.entries()) {
      const at = ndjson ? `${where} line ${i + 1}` : where;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${at}: declared ${ndjson ? 'JSON lines, the line' : 'JSON, the body'} does not parse`);
        continue;
      }
      if (!validate(body))
        problems.push(
          `${at}: the ${ndjson ? 'record' : 'body'} does not match its schema: ${this.ajv.errorsText(validate.errors as never, { separator: '; ' })}`,
        );
    }
    return problems;
  }

  /** Whether the document's request body schema of `method template` (of `type`) allows `body`. */
  allowsBody(method: string, template: string, body: unknown, type = 'application/json'): boolean {
    const schema = this.doc['paths'][template]?.[method.toLowerCase()]?.requestBody?.content?.[type]?.schema;
    if (!schema) throw new Error(`${method} ${template} has no ${type} body in the document`);
    return this.validatorFor(template, method, 'request', type, schema)(body);
  }

  private resolve(ref: string): Json {
    let node: any = this.doc;
    for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node;
  }

  private validatorFor(template: string, method: string, status: string, type: string, schema: Json) {
    const key = `${method} ${template} ${status} ${type}`;
    let validate = this.validators.get(key);
    if (!validate) {
      // The schema in place (its $refs resolve against the whole document, added as `openapi`).
      const pointer = schema.$ref ? schema.$ref : null;
      const compiled = this.ajv.compile(pointer ? { $ref: `openapi${pointer}` } : { ...rebase(schema) });
      validate = compiled as unknown as NonNullable<typeof validate>;
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** Local `#/...` references of an inline schema, pointed at the document added as `openapi`. */
function rebase(node: unknown): any {
  if (Array.isArray(node)) return node.map(rebase);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? `openapi${value}` : rebase(value)]),
  );
}
