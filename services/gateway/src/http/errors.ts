import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '@renopath/contracts';
import { BusUnavailableError, DomainError, ENGINE_UNAVAILABLE_MESSAGE, isEngineUnavailable } from '@renopath/platform';
import { Unauthorized } from './auth.ts';

/** Thrown by the gateway itself for validation and routing failures. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.join('; ') || String(statusCode));
    this.name = 'HttpError';
  }
}

const RETRY_AFTER_S = '5';
/** A body with thousands of problems (40,000 unknown keys) gets a short answer: the first ones and a count. */
const MAX_MESSAGES = 20;
const MAX_MESSAGE_LENGTH = 300;

export function capMessages(messages: string[]): string[] {
  const shown = messages
    .slice(0, MAX_MESSAGES)
    .map((m) => (m.length > MAX_MESSAGE_LENGTH ? `${m.slice(0, MAX_MESSAGE_LENGTH - 3)}...` : m));
  const more = messages.length - shown.length;
  return more > 0 ? [...shown, `... and ${more} more problem${more === 1 ? '' : 's'}`] : shown;
}

/** The one error handler: every failure leaves in the error shape of docs/http-contract.md "Errors". */
export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const send = (status: number, messages: string[] = [], headers: Record<string, string> = {}) =>
    reply
      .code(status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(errorBody(status, capMessages(messages)));

  if (err instanceof HttpError) return send(err.statusCode, err.messages, err.headers);
  if (err instanceof DomainError) return send(err.status, err.messages, err.status === 503 ? { 'retry-after': RETRY_AFTER_S } : {});
  if (err instanceof Unauthorized) {
    request.log.info({ reason: err.message }, 'unauthorized');
    return send(401);
  }
  // A context behind the bus, or a store of the gateway's own (the shared Idempotency-Key records), is out.
  if (err instanceof BusUnavailableError || isEngineUnavailable(err)) {
    request.log.warn({ err }, 'backing service unavailable');
    return send(503, [ENGINE_UNAVAILABLE_MESSAGE], { 'retry-after': RETRY_AFTER_S });
  }
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return send(400, ['body is not valid JSON']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(400, ['body must not be empty when content-type is application/json']);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return send(413, ['body is larger than the 1 MiB limit']);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(415, [`content-type ${String(request.headers['content-type'] ?? '')} is not supported here`]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return send(400, ['content-length does not match the body']);
  }
  if (err instanceof SyntaxError) return send(400, ['body is not valid JSON']);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return send(fe.statusCode, [fe.message]);
  }
  request.log.error({ err }, 'unhandled error');
  return send(500);
}
