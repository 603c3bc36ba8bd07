import type { z } from 'zod';
import type { Scope } from '@renopath/contracts';

/**
 * One HTTP endpoint, declared once: the gateway registers it, validates with its zod schemas,
 * forwards it to its service's subject, and describes it in the OpenAPI document.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path without the `/v1` prefix, e.g. `/users/{user_id}`. */
  path: string;
  /** `both`: bare and `/v1` (docs/http-contract.md "General rules"); `v1`: only under `/v1`; `bare`: only as written. */
  prefix: 'both' | 'v1' | 'bare';
  subject: string;
  auth: 'bearer' | 'admin' | 'none';
  /** Needed scope; none means any valid token. */
  scope?: Scope;
  body?: z.ZodType;
  /**
   * The body as the OpenAPI document shows it, under this name, where the service checks more than
   * `body` can say: a scope's renovation items take only the catalogue's component types of that
   * scope (the service refuses the others with 400, naming the scope).
   */
  documentedBody?: { name: string; schema: z.ZodType };
  query?: z.ZodType;
  /** Path parameters that must be UUIDs (anything else is an unknown id: 404). */
  ids?: string[];
  status: number;
  /** The reply's schema; for `stream`, the schema of one record (a CSV line, a JSON line). */
  reply?: z.ZodType;
  /**
   * The operation's name in the OpenAPI document and in generated clients (`createEstate`), chosen by
   * hand: a client's code calls it, so it does not change with the path. A bare alias of a `/v1`
   * path is documented as `<operationId>Unversioned`.
   */
  operationId: string;
  /** What the operation does, in a sentence or two: the document's summary (its first clause) and description. */
  summary: string;
  tag: string;
  /**
   * What the service refuses beyond what the schemas can state (rules across fields, or on what exists),
   * as the messages it answers, `{name}` standing for a value. The document lists them under the
   * operation; the generated-requests suite accepts a refusal of a schema-valid request only when its
   * message is one of them.
   */
  rules?: readonly string[];
  /** Documented error statuses besides the ones every route has. */
  errors: number[];
  /**
   * How the request and reply travel (default `json`):
   * - `upload`: `multipart/form-data` with one part `file` (and an optional `name`); the gateway
   *   checks size and type, stores the bytes in the blob store and sends the service an UploadedFile
   *   (`blob_key`, `name`, `mimetype`, `size`) as the body: bytes never cross the bus;
   * - `html`: the service's reply is rendered to an HTML page by `render` (which escapes);
   * - `file`: the service stores the file and answers `{ blob_key, name, mimetype }`; the gateway
   *   sends the blob's bytes as the answer (a PDF rendered on request), bytes never crossing the bus.
   */
  kind?: 'json' | 'upload' | 'html' | 'file' | 'stream';
  /** For `file`: the media type the answer has (documented in OpenAPI). */
  fileType?: string;
  /** For `upload`: the media types accepted, decided from the bytes (415 otherwise). */
  accept?: readonly string[];
  /**
   * For `upload`: a limit other than the general 25 MiB, and form fields besides `file` and `name`
   * that travel to the service in the body beside the stored file.
   */
  upload?: {
    maxBytes?: number;
    fields?: readonly string[];
    /** Stream the file into the blob store as it arrives instead of holding it (a large file: portfolio runs). */
    stream?: boolean;
  };
  /**
   * For `stream`: the reply is streamed page by page, the subject asked for `batch` 0, 1, ... until
   * `batches`, each page's `text` written as it comes, in the first of these formats the Accept header
   * takes (the first one by default; 406 when it takes none). Its service reply is
   * `{ batch, batches, text }` for the query `{ batch, format }`.
   */
  stream?: ReadonlyArray<{ media: string; format: string }>;
  /** For `html`: reply (and the request's query) -> page; its `Content-Language` is the reply's `language`. */
  render?: (reply: unknown, query: Record<string, unknown>) => string;
  /** For `html`: the page for a 404 of the service (a visitor gets a page, not a JSON error), from the request's query. */
  renderNotFound?: (query: Record<string, unknown>) => string;
  /** Every `blob_key` in the reply becomes a signed download `url` valid for an hour. */
  signLinks?: boolean;
  /**
   * The path's `client_id` is an API client this request revokes: on success the gateway refuses its
   * tokens at once (plugins/auth.ts), before identity's revocation event reaches it.
   */
  revokesClient?: boolean;
  /**
   * A write's read-your-writes settle (declared.ts) in these contexts only: those whose read models the
   * answer and the reads it names depend on, where the other contexts the write reaches (copies kept
   * for their own purposes) are not read on its behalf. By default every context the write can reach.
   */
  settles?: readonly string[];
  /**
   * The status of a body that does not match `body` (default 400). Job creation answers 406 for
   * per-property violations (docs/http-contract.md "Trajectory jobs").
   */
  invalidBodyStatus?: 400 | 406;
  /**
   * How the request becomes the subject's message (its contract in `Messages`); by default the path
   * parameters, the query and the body as they are. A mapped message is checked against the contract
   * before it is sent.
   */
  toMessage?: (input: MessageInput) => MessageInput;
  /**
   * Steps before the subject is asked, for a request that another context writes for first (a
   * trajectory job's estate, described by estates): `ask` sends a subject the request's actor,
   * correlation id and Idempotency-Key, checked against its contract. Answers the subject's message,
   * checked against its contract before it is sent. Refusals (422) are thrown before any `ask`.
   */
  prepare?: (input: MessageInput, ask: (subject: string, input: MessageInput) => Promise<unknown>) => Promise<MessageInput>;
}

/** The inputs of a message: path parameters, query, body. */
export interface MessageInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}
