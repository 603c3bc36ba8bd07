import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '@renopath/platform';
import { HttpError } from '../plugins/errors.ts';
import type { RouteDef } from './route.ts';

/**
 * A `stream` route's reply: its pages asked one after the other and written as they come, so neither
 * the gateway nor the service holds more than a page. The first page is asked before anything is
 * written: an unknown id or a refusal is still answered with its status and error body.
 */
export async function streamPages(request: FastifyRequest, reply: FastifyReply, route: RouteDef, bus: Bus, timeoutMs: number) {
  const chosen = negotiate(request.headers.accept, route.stream ?? []);
  if (!chosen) {
    throw new HttpError(406, [`this endpoint answers ${(route.stream ?? []).map((f) => f.media).join(' or ')}`]);
  }
  const params = request.params as Record<string, string>;
  type Page = { batch: number; batches: number; text?: string };
  const ask = (batch: number) =>
    bus.request<Page>(
      route.subject,
      { params, query: { batch, format: chosen.format }, body: undefined, actor: request.actor, correlation_id: request.id },
      { timeoutMs },
    );
  const first = await ask(0);
  async function* pages() {
    yield first.text ?? '';
    for (let batch = 1; batch < first.batches; batch++) yield (await ask(batch)).text ?? '';
  }
  return reply.code(route.status).type(`${chosen.media}; charset=utf-8`).send(Readable.from(pages()));
}

/** The first of `formats` the Accept header takes, in the header's order; the first format when it takes anything. */
function negotiate(accept: string | undefined, formats: ReadonlyArray<{ media: string; format: string }>) {
  if (!accept || accept.trim() === '') return formats[0] ?? null;
  for (const entry of accept.split(',')) {
    const media = entry.split(';')[0]!.trim().toLowerCase();
    if (media === '*/*') return formats[0] ?? null;
    const found = formats.find((f) => f.media === media || (media.endsWith('/*') && f.media.startsWith(media.slice(0, -1))));
    if (found) return found;
  }
  return null;
}
