import { performance } from 'node:perf_hooks';
import { BusUnavailableError, DomainError, type Bus } from '../ports/bus.ts';
import { WrongExpectedRevisionError, type EventStore } from '../ports/event-store.ts';
import { busRequestDuration, eventStoreAppendDuration, reactorLag } from './metrics.ts';

/** How a bus request ended, for its duration's label. */
function requestOutcome(error: unknown): string {
  if (error instanceof DomainError) return 'domain_error';
  if (error instanceof BusUnavailableError) return 'unavailable';
  return 'error';
}

/**
 * The bus with every request this process sends timed (renopath_bus_request_duration_seconds). A
 * wrapper rather than a change in each adapter (memory, thread, NATS): they stay as the contract
 * suites test them.
 */
export function timedBus<B extends Bus>(bus: B): Bus {
  return {
    get retainsEvents() {
      return bus.retainsEvents;
    },
    async request(subject, payload, options) {
      const started = performance.now();
      try {
        const answer = await bus.request(subject, payload, options);
        busRequestDuration.observe({ subject, outcome: 'ok' }, (performance.now() - started) / 1000);
        return answer as never;
      } catch (error) {
        busRequestDuration.observe({ subject, outcome: requestOutcome(error) }, (performance.now() - started) / 1000);
        throw error;
      }
    },
    handle: (subject, handler) => bus.handle(subject, handler),
    publish: (subject, event) => bus.publish(subject, event),
    isCaughtUp: (consumer) => bus.isCaughtUp(consumer),
    consume: (consumer, options, handler) => bus.consume(consumer, options, handler),
    close: () => bus.close(),
  };
}

/**
 * The bus a context's reactors consume on, each durable consumer's lag recorded as the age of the
 * event it takes (renopath_reactor_lag_seconds{context, consumer}).
 */
export function reactorLagBus(bus: Bus, context: string): Bus {
  return {
    get retainsEvents() {
      return bus.retainsEvents;
    },
    request: (subject, payload, options) => bus.request(subject, payload, options),
    handle: (subject, handler) => bus.handle(subject, handler),
    publish: (subject, event) => bus.publish(subject, event),
    isCaughtUp: (consumer) => bus.isCaughtUp(consumer),
    consume: (consumer, options, handler) =>
      bus.consume(consumer, options, (event) => {
        const age = (Date.now() - Date.parse(event.occurred_at)) / 1000;
        if (Number.isFinite(age)) reactorLag.set({ context, consumer }, Math.max(0, age));
        return handler(event);
      }),
    close: () => bus.close(),
  };
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
  store.append = async (stream, events, expected, options) => {
    const started = performance.now();
    try {
      const result = await append(stream, events, expected, options);
      eventStoreAppendDuration.observe({ context, outcome: 'ok' }, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      eventStoreAppendDuration.observe({ context, outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' }, (performance.now() - started) / 1000);
      throw error;
    }
  };
  return store;
}
