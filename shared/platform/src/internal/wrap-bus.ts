import type { Bus } from '../ports/bus.ts';

/** `bus` with some of its methods replaced; the others go to it as they are. */
export function wrapBus(bus: Bus, replaced: Partial<Omit<Bus, 'retainsEvents'>>): Bus {
  return {
    get retainsEvents() {
      return bus.retainsEvents;
    },
    request: (subject, payload, options) => bus.request(subject, payload, options),
    handle: (subject, handler) => bus.handle(subject, handler),
    publish: (subject, event) => bus.publish(subject, event),
    isCaughtUp: (consumer) => bus.isCaughtUp(consumer),
    consume: (consumer, options, handler) => bus.consume(consumer, options, handler),
    close: () => bus.close(),
    ...replaced,
  };
}
