/** How a batch of events went: how many of its first events were handled, and why the next one was not. */
export interface BatchOutcome {
  handled: number;
  error?: unknown;
}

/**
 * Handles `events` in order, up to `inFlight` of them at once: each group of `inFlight` is started in
 * publish order, and the next group starts when the whole group has settled. The outcome counts the
 * events handled before the first failure; those after it are handled again on redelivery, handled
 * or not now (a consumer that asks for more than one at a time is idempotent: `ConsumeOptions.inFlight`).
 */
export async function handleInFlight<E>(events: E[], inFlight: number, handler: (event: E) => Promise<void>): Promise<BatchOutcome> {
  const size = Math.max(1, inFlight);
  let handled = 0;
  if (size === 1) {
    // One at a time, the usual case: no grouping, each event a hop shorter.
    try {
      for (const event of events) {
        await handler(event);
        handled += 1;
      }
    } catch (error) {
      return { handled, error };
    }
    return { handled };
  }
  for (let from = 0; from < events.length; from += size) {
    const group = events.slice(from, from + size);
    // Called one after another, here, so the handler sees them in publish order.
    const outcomes = await Promise.allSettled(group.map(async (event) => handler(event)));
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') return { handled, error: outcome.reason };
      handled += 1;
    }
  }
  return { handled };
}
