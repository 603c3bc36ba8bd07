import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AckPolicy, type ConsumerConfig, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { EventEnvelope } from '@renopath/contracts';

/**
 * How a service outside Renopath follows its domain events (docs/events.md): a durable JetStream
 * consumer of its own on the events stream, starting where it chooses, acknowledging each event
 * once handled, and deduplicating by `event_id`. It needs the NATS client (`@nats-io/transport-node`
 * and `@nats-io/jetstream`) and the event contracts, nothing of Renopath's platform. Run it with
 *
 *     npx tsx services/gateway/src/asyncapi/subscriber-example.ts nats://127.0.0.1:4222 my-service 'evt.estates.>'
 *
 * `subscriber-example.int.spec.ts` runs it against a real NATS server.
 */
export interface SubscribeOptions {
  servers: string;
  /** The stream (RENOPATH_NATS_STREAM of the deployment). */
  stream?: string;
  /** The deployment's subject namespace (RENOPATH_NATS_PREFIX), if it has one. */
  prefix?: string | null;
  /**
   * The consumer's name: the server remembers, under it, which events were acknowledged, so a
   * restart resumes after the last one. One name per subscribing service (its replicas share it).
   */
  durable: string;
  /** Which events, e.g. `evt.estates.>` or `evt.calculations.CalculationJobFinished` (default: all). */
  subject?: string;
  /**
   * Where a new consumer starts (an existing one resumes where it stopped): the whole history
   * (`all`, an auditor replaying it), only what comes next (`new`), or from a moment or a stream
   * sequence number.
   */
  startAt?: 'all' | 'new' | { time: Date } | { sequence: number };
  /** The event ids handled already (a table of the subscriber's own database in real use). */
  seen: { has(eventId: string): boolean | Promise<boolean>; add(eventId: string): void | Promise<void> };
  handle(event: EventEnvelope): Promise<void>;
  /** An event whose envelope does not parse (another version, a foreign message): skipped by default. */
  onInvalid?(subject: string, error: unknown): void;
}

export async function subscribe(options: SubscribeOptions): Promise<{ close(): Promise<void> }> {
  const stream = options.stream ?? 'RENOPATH_EVENTS';
  const wire = (subject: string) => (options.prefix ? `${options.prefix}.${subject}` : subject);
  const nc = await connect({ servers: options.servers, name: options.durable });
  const jsm = await jetstreamManager(nc);
  const start = options.startAt ?? 'all';
  const config: Partial<ConsumerConfig> = {
    durable_name: options.durable,
    filter_subject: wire(options.subject ?? 'evt.>'),
    // Each event is acknowledged once handled; one at a time keeps a stream's events in order.
    ack_policy: AckPolicy.Explicit,
    max_ack_pending: 1,
    ...(start === 'all'
      ? { deliver_policy: DeliverPolicy.All }
      : start === 'new'
        ? { deliver_policy: DeliverPolicy.New }
        : 'time' in start
          ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: start.time.toISOString() }
          : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: start.sequence }),
  };
  // Created once; afterwards the server keeps its position (the start option no longer applies).
  await jsm.consumers.info(stream, options.durable).catch(() => jsm.consumers.add(stream, config));
  const messages = await (await jetstream(nc).consumers.get(stream, options.durable)).consume();

  const running = (async () => {
    for await (const msg of messages) {
      const parsed = EventEnvelope.safeParse(msg.json());
      if (!parsed.success) {
        options.onInvalid?.(msg.subject, parsed.error);
        msg.ack();
        continue;
      }
      const event = parsed.data;
      try {
        // Delivery is at least once (a crash between handling and ack sends it again): the id decides.
        if (!(await options.seen.has(event.event_id))) {
          await options.handle(event);
          await options.seen.add(event.event_id);
        }
        msg.ack();
      } catch {
        msg.nak(5_000); // tried again in 5 s, still in order
      }
    }
  })();

  return {
    async close() {
      await messages.close();
      await running;
      // Drain, not close: the last acknowledgements reach the server, and the server has dropped this
      // connection's pull requests before close resolves. After a bare close, an event published at once
      // can still go to the old request, and wait out the acknowledgement timeout (30 s) before a
      // restarted subscriber gets it.
      await nc.drain();
    },
  };
}

// Run as a script: print every event of the subject, from the start of the stream.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [servers = 'nats://127.0.0.1:4222', durable = 'example-subscriber', subject = 'evt.>'] = positionals;
  const seen = new Set<string>();
  const subscription = await subscribe({
    servers,
    durable,
    subject,
    seen: { has: (id) => seen.has(id), add: (id) => void seen.add(id) },
    handle: async (event) => console.log(`${event.occurred_at} ${event.context} ${event.type} ${event.stream}#${event.revision}`),
  });
  process.once('SIGINT', () => void subscription.close());
}
