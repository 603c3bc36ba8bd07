import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../memory/memory-bus.ts';
import { observedBus } from './instrument.ts';
import { currentTraceparent, inSpan, logContext, requestTraceparent, tracingRecords, withTraceparent } from './tracing.ts';

/**
 * With nowhere to send spans (no exporter: this project's processes by default), no span is made, yet
 * an operator still finds a request's trace: its ids are on the log lines and the `traceparent` goes on
 * to the contexts and the events it leads to.
 */
const CLIENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

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

  it("names the request's trace on its log lines and sends it with its bus requests, without a span object", async () => {
    const bus = observedBus(createMemoryBus());
    let seen: { headers: unknown; log: Record<string, string>; span: unknown } | undefined;
    await bus.handle('cmd.test.echo', async (_payload, _subject, headers) => {
      seen = { headers, log: logContext(), span: trace.getActiveSpan() };
      return {};
    });
    const request = requestTraceparent(CLIENT);
    await withTraceparent(request, () => bus.request('cmd.test.echo', {}));
    expect(seen?.headers).toMatchObject({ traceparent: request });
    expect(seen?.log).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: request.slice(36, 52) });
    expect(seen?.span).toBeUndefined();
  });

  it("runs an event's follower in the trace the event carries, and leaves work outside any trace without ids", async () => {
    expect(logContext()).not.toHaveProperty('trace_id');
    const inside = await inSpan('process test', { traceparent: CLIENT }, async () => ({ log: logContext(), sent: currentTraceparent() }));
    expect(inside.log).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' });
    expect(inside.sent).toBe(CLIENT);
    expect(await inSpan('process test', { traceparent: 'garbage' }, async () => currentTraceparent())).toBeUndefined();
  });

  it('answers what the work throws before its first await as a rejection, as a recorded span does', async () => {
    const work = (() => {
      throw new Error('refused');
    }) as () => Promise<never>;
    const running = inSpan('process test', { traceparent: CLIENT }, work);
    await expect(running).rejects.toThrow('refused');
  });
});
