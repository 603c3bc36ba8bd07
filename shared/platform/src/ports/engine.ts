import { BusUnavailableError } from './bus.ts';

/**
 * Whether `error` says an engine (PostgreSQL, NATS, a peer context behind the bus) cannot be reached
 * right now, rather than that the request or the data is wrong. Such a failure passes when the engine
 * is back: callers answer it as 503 with Retry-After (the gateway, a bus handler's reply) and
 * background work retries it, where anything else is a bug worth a 500 and a log line.
 */
export function isEngineUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BusUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isPostgresOutage(code) || NATS_CODES.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && OUTAGE_MESSAGES.some((m) => message.includes(m))) return true;
    // An AggregateError (a host name with several addresses, all refused) carries its causes in `errors`.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isEngineUnavailable(inner))) return true;
  }
  return false;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
/** SQLSTATE class 08 (connection exception), the server shutting down or starting (57P01-57P03), too many connections. */
const isPostgresOutage = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
/** nats.js error codes of a connection that is closed, draining, lost or not answering. */
const NATS_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'DISCONNECT', 'TIMEOUT', '503']);
/** node-postgres raises these as plain Errors, without a code. */
const OUTAGE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Connection closed',
];

/** What a client is told when an engine is out: the cause passes, so retrying is the right move. */
export const ENGINE_UNAVAILABLE_MESSAGE = 'a backing service is unavailable; try again shortly';
