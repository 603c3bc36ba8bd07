import { trace } from '@opentelemetry/api';
import { message, type ServiceRequest } from '@renopath/contracts';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../memory/memory-bus.ts';
import { observedBus } from './instrument.ts';
import { commandContext, reactionMetadata, serveMessages } from '../service/handler-kit.ts';
import { currentTraceparent, inSpan, logContext, requestTraceparent, traceFields, tracingRecords } from './tracing.ts';

/**
 * With nowhere to send spans (no exporter: this project's processes by default), no span is made and
 * no async context is kept, yet an operator still finds a request's trace: its ids are on the log
 * lines and the `traceparent` goes on, as data, to the contexts and the events it leads to.
 */
const CLIENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
/** A query without ids, query or body. */
const ECHO = message();

describe('tracing with nothing recording', () => {
  it('is the default: no provider records a span', () => {
    expect(tracingRecords()).toBe(false);
  });

  it("gives a request a span id of its own in the client's trace, and a new trace when the client sent none or a malformed one", () => {
    const own = requestTraceparent(CLIENT);
    expect(own).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(own.slice(36, 52)).not.toBe('00f067aa0ba902b7');
    for (const header of [undefined, 'not-a-trace', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`]) {
      const fresh = requestTraceparent(header);
      expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      expect(fresh.slice(3, 35)).not.toBe('0'.repeat(32));
    }
    expect(requestTraceparent(undefined).slice(3, 35)).not.toBe(requestTraceparent(undefined).slice(3, 35));
  });

  it("sends a request's trace beside it on the bus, into the handler's request and the events it appends, without a span object", async () => {
    const bus = observedBus(createMemoryBus());
    let seen: { req: ServiceRequest; span: unknown } | undefined;
    await serveMessages(
      bus,
      { 'qry.test.echo': async (req) => ((seen = { req, span: trace.getActiveSpan() }), {}) },
      { 'qry.test.echo': ECHO },
    );
    const request = requestTraceparent(CLIENT);
    await bus.request(
      'qry.test.echo',
      { actor: null, correlation_id: 'c-1', params: {}, query: {} },
      { headers: { traceparent: request } },
    );
    expect(seen?.req.traceparent).toBe(request);
    expect(seen?.span).toBeUndefined();
    expect(commandContext(seen!.req, new Date()).metadata).toMatchObject({ correlation_id: 'c-1', traceparent: request });
    expect(traceFields(seen!.req)).toEqual({
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: request.slice(36, 52),
      correlation_id: 'c-1',
    });
  });

  it("carries an event's trace on to what its follower appends, and names nothing for work outside any trace", async () => {
    const event = {
      event_id: 'e-1',
      metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c-2', causation_id: null, traceparent: CLIENT },
    };
    expect(reactionMetadata(event)).toMatchObject({ correlation_id: 'c-2', causation_id: 'e-1', traceparent: CLIENT });
    expect(traceFields(event.metadata)).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' });
    expect(traceFields({ correlation_id: 'c-3' })).toEqual({ correlation_id: 'c-3' });
    // No span and no async context: the work runs as it is, and the log mixin adds nothing.
    expect(
      await inSpan('process test', { traceparent: CLIENT }, async () => ({ log: logContext(), active: currentTraceparent() })),
    ).toEqual({
      log: {},
      active: undefined,
    });
  });

  it('answers what the work throws before its first await as a rejection, as a recorded span does', async () => {
    const work = (() => {
      throw new Error('refused');
    }) as () => Promise<never>;
    const running = inSpan('process test', { traceparent: CLIENT }, work);
    await expect(running).rejects.toThrow('refused');
  });
});
