import { z } from 'zod';
import { DomainError, type BusHeaders, type RequestHandler } from '../ports/bus.ts';
import { ENGINE_UNAVAILABLE_MESSAGE, isEngineUnavailable } from '../ports/engine.ts';

/** The reply envelope both buses use, so a DomainError crosses the wire (or the in-process copy) intact. */
const ReplySchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown().optional() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ status: z.number().int(), messages: z.array(z.string()).optional(), code: z.string().optional() }),
  }),
]);
export type Reply = z.infer<typeof ReplySchema>;

const DOMAIN_STATUSES = new Set([400, 401, 403, 404, 406, 409, 413, 415, 422, 429, 503]);

/**
 * JSON values known to be deeply frozen. In one process (the embedded bus, no copy) a read model's
 * document and a reply built from it travel by reference: whoever holds one that is registered here
 * may cache what it derives from it (a serialized reply, say), since nothing can change under it.
 */
const immutables = new WeakSet<object>();

/**
 * Freezes a JSON value deeply and registers every object in it as immutable (`isImmutable`). A part
 * already registered is not walked again, so a reply made of a frozen document's parts costs only
 * its own new objects. Mutating it afterwards throws (ES modules run in strict mode).
 */
export function freezeImmutable<T>(value: T): Readonly<T> {
  if (value === null || typeof value !== 'object' || immutables.has(value)) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeImmutable(value[i]);
  } else {
    for (const key in value) freezeImmutable((value as Record<string, unknown>)[key]);
  }
  Object.freeze(value);
  immutables.add(value);
  return value;
}

/** Whether `value` is an object `freezeImmutable` froze: it and everything in it can never change. */
export function isImmutable(value: unknown): value is object {
  return value !== null && typeof value === 'object' && immutables.has(value);
}

/**
 * Runs a handler and turns its outcome into a reply. A store or peer that cannot be reached becomes a
 * 503 (the requester retries); anything else but a DomainError becomes a bare 500.
 */
export async function serveRequest(
  handler: RequestHandler,
  payload: unknown,
  subject: string,
  onHandlerError?: (error: unknown, subject: string) => void,
  headers?: BusHeaders,
): Promise<Reply> {
  try {
    return { ok: true, value: await handler(payload, subject, headers) };
  } catch (error) {
    if (error instanceof DomainError) {
      return {
        ok: false,
        error: { status: error.status, messages: error.messages, ...(error.code === undefined ? {} : { code: error.code }) },
      };
    }
    onHandlerError?.(error, subject);
    if (isEngineUnavailable(error)) return { ok: false, error: { status: 503, messages: [ENGINE_UNAVAILABLE_MESSAGE] } };
    return { ok: false, error: { status: 500 } };
  }
}

/** The requester's side: the value, a rebuilt DomainError, or a plain Error for a failed handler. */
export function unwrapReply<T>(raw: unknown, subject: string, cause?: unknown): T {
  const parsed = ReplySchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${subject}: malformed reply`);
  const reply = parsed.data;
  if (reply.ok) return reply.value as T;
  const { status, messages = [], code } = reply.error;
  if (DOMAIN_STATUSES.has(status)) {
    throw new DomainError(status as DomainError['status'], messages, code);
  }
  throw new Error(`${subject}: handler failed with status ${status}`, cause === undefined ? undefined : { cause });
}
