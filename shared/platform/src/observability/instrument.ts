import { performance } from 'node:perf_hooks';
import { BusUnavailableError, DomainError, type Bus, type RequestOptions } from '../ports/bus.ts';
import { WrongExpectedRevisionError, type EventStore } from '../ports/event-store.ts';
import { busRequestDuration, eventStoreAppendDuration, reactorLag } from './metrics.ts';
import { wrapBus } from '../internal/wrap-bus.ts';
import { currentTraceparent, inSpan, SpanKind, tracingRecords } from './tracing.ts';

/** The header of a bus request that carries the sender's trace (W3C trace context). */
const TRACEPARENT = 'traceparent';

/** How a bus request ended, for its duration's label. */
function requestOutcome(error: unknown): string {
  if (error instanceof DomainError) return 'domain_error';
  if (error instanceof BusUnavailableError) return 'unavailable';
  return 'error';
}

/**
 * The bus as this process uses it, observed: every request it sends is timed
 * (renopath_bus_request_duration_seconds). When spans are recorded, every request it sends is a client
 * span whose `traceparent` travels in the request's headers (NATS message headers on the wire), and
 * every request it serves runs in a server span, the command's, continuing the sender's trace. When
 * nothing records, the sender's own `traceparent` header goes as it was given (see tracing.ts's
 * `Trace`). A wrapper rather than a change in each adapter (memory, thread, NATS): they stay as the
 * contract suites test them, and the trace crosses every one of them the same way.
 */
export function observedBus<B extends Bus>(bus: B): Bus {
  const timed = async (subject: string, payload: unknown, options: RequestOptions | undefined) => {
    const started = performance.now();
    try {
      const answer = await bus.request(subject, payload, options);
      busRequestDuration.observe({ subject, outcome: 'ok' }, (performance.now() - started) / 1000);
      return answer as never;
    } catch (error) {
      busRequestDuration.observe({ subject, outcome: requestOutcome(error) }, (performance.now() - started) / 1000);
      throw error;
    }
  };
  return wrapBus(bus, {
    request(subject, payload, options) {
      if (!tracingRecords()) return timed(subject, payload, options);
      return inSpan(`bus ${subject}`, { kind: SpanKind.CLIENT, attributes: { 'messaging.destination.name': subject } }, () => {
        const traceparent = currentTraceparent();
        const sent = traceparent ? { ...options, headers: { ...options?.headers, [TRACEPARENT]: traceparent } } : options;
        return timed(subject, payload, sent);
      });
    },
    handle: (subject, handler) =>
      bus.handle(subject, (payload, received, headers) => {
        if (!tracingRecords()) return handler(payload, received, headers);
        const parent = { traceparent: headers?.[TRACEPARENT], tracestate: headers?.['tracestate'] };
        return inSpan(subject, { kind: SpanKind.SERVER, ...parent }, () => handler(payload, received, headers));
      }),
  });
}

/**
 * The bus a context's reactors consume on: each durable consumer's lag is recorded as the age of the
 * event it takes (renopath_reactor_lag_seconds{context, consumer}), and, when spans are recorded, it
 * handles the event in a span of the trace that appended it. Without spans the follower continues the
 * trace its event carries in its metadata (`reactionContext`).
 */
export function reactorLagBus(bus: Bus, context: string): Bus {
  return wrapBus(bus, {
    consume: (consumer, options, handler) =>
      bus.consume(consumer, options, (event) => {
        const age = (Date.now() - Date.parse(event.occurred_at)) / 1000;
        if (Number.isFinite(age)) reactorLag.set({ context, consumer }, Math.max(0, age));
        if (!tracingRecords()) return handler(event);
        const { metadata } = event;
        return inSpan(
          `consume ${consumer}`,
          { kind: SpanKind.CONSUMER, traceparent: metadata.traceparent, attributes: { 'renopath.event_type': event.type } },
          () => handler(event),
        );
      }),
  });
}

/** Which context each opened event store belongs to (the lag gauges label followers with it). */
const contexts = new WeakMap<EventStore, string>();
export const contextOfStore = (store: EventStore): string => contexts.get(store) ?? 'unknown';

/**
 * Times the store's appends (renopath_event_store_append_duration_seconds{context, outcome}) and
 * remembers its context. The method is replaced on the instance, so the store keeps its class and
 * every other method as the adapter made them.
 */
export function instrumentEventStore<S extends EventStore>(store: S, context: string): S {
  contexts.set(store, context);
  const append = store.append.bind(store);
  const timedAppend: typeof append = async (stream, events, expected, options) => {
    const started = performance.now();
    try {
      const result = await append(stream, events, expected, options);
      eventStoreAppendDuration.observe({ context, outcome: 'ok' }, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      eventStoreAppendDuration.observe(
        { context, outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' },
        (performance.now() - started) / 1000,
      );
      throw error;
    }
  };
  store.append = (stream, events, expected, options) => {
    // Without spans the events carry the trace their command or cause gave their metadata.
    if (!tracingRecords()) return timedAppend(stream, events, expected, options);
    return inSpan(`append ${context}`, { attributes: { 'renopath.stream': stream } }, () => {
      // The span that appends the events goes with them (their metadata), to the projections and reactors that follow.
      const traceparent = currentTraceparent();
      const traced = traceparent ? events.map((e) => ({ ...e, metadata: { ...e.metadata, traceparent } })) : events;
      return timedAppend(stream, traced, expected, options);
    });
  };
  return store;
}
