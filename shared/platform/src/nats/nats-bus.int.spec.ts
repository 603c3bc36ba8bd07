import { randomUUID } from 'node:crypto';
import { connect, type Msg } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { busContract } from '../testing/bus.contract.ts';
import { observedBus } from '../observability/instrument.ts';
import { contextOf, currentTraceparent, inSpan, startTracing, stopTracing } from '../observability/tracing.ts';
import { connectNatsBus } from './nats-bus.ts';
import { natsListening, testNatsUrl } from '../testing/listening.ts';

const url = testNatsUrl;

const reachable = await natsListening(url);
if (!reachable) console.warn(`[skip] Bus contract: nats — nothing listens on ${url} (set RENOPATH_TEST_NATS_URL)`);

// One stream and one subject namespace per run, so parallel runs on one server never meet.
const run = randomUUID().replaceAll('-', '').slice(0, 12);
const streamName = `RENOPATH_TEST_${run}`;
const subjectPrefix = `test${run}`;

describe.skipIf(!reachable)('NatsBus', () => {
  afterAll(async () => {
    const nc = await connect({ servers: url });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName).catch(() => false);
    // The object store of events over max_payload (nats-bus.ts LargeEvent).
    await jsm.streams.delete(`OBJ_${streamName}_large`).catch(() => false);
    await nc.close();
  });

  it('carries the trace context of a request in its NATS headers, and of an event in its headers and metadata', async () => {
    startTracing('bus-headers', { spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
    const bus = await connectNatsBus({ servers: url, streamName, subjectPrefix, name: 'renopath-bus-headers' });
    const observer = await connect({ servers: url });
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const subject = `cmd.headers${randomUUID().slice(0, 8)}.Traced`;
      // A plain subscriber beside the handler sees the request as it is on the wire.
      const seen = new Promise<Msg>((resolve) =>
        observer.subscribe(`${subjectPrefix}.${subject}`, { max: 1, callback: (_, msg) => resolve(msg) }),
      );
      await observer.flush();
      const observed = observedBus(bus);
      await observed.handle(subject, async (payload) => ({ payload, trace: currentTraceparent() }));
      // As the gateway sends it: inside the span of a client's traceparent.
      const reply = await inSpan('client', { parent: contextOf({ traceparent }) }, () =>
        observed.request(subject, { correlation_id: 'c-1', body: 1 }),
      );
      // The handler gets the payload as sent (the trace is not in it), in a span of the client's trace.
      expect(reply).toEqual({
        payload: { correlation_id: 'c-1', body: 1 },
        trace: expect.stringMatching(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/),
      });
      const wire = await seen;
      expect(JSON.parse(new TextDecoder().decode(wire.data))).toEqual({ correlation_id: 'c-1', body: 1 });
      expect(wire.headers?.get('traceparent')).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);

      const eventSubject = `evt.headers${randomUUID().slice(0, 8)}.Happened`;
      const published = new Promise<Msg>((resolve) =>
        observer.subscribe(`${subjectPrefix}.${eventSubject}`, { max: 1, callback: (_, msg) => resolve(msg) }),
      );
      await observer.flush();
      const event = {
        context: 'estates',
        event_id: randomUUID(),
        type: 'Happened',
        stream: 'estate-1',
        revision: 0,
        position: 1,
        occurred_at: new Date().toISOString(),
        data: {},
        metadata: { actor: { user_id: null, client_id: null }, correlation_id: 'c-2', causation_id: null, traceparent },
      };
      await bus.publish(eventSubject, event);
      const message = await published;
      expect(message.headers?.get('traceparent')).toBe(traceparent);
      expect(JSON.parse(new TextDecoder().decode(message.data)).metadata.traceparent).toBe(traceparent);
    } finally {
      await observer.close();
      await bus.close();
      await stopTracing();
    }
  });

  busContract('nats', () =>
    connectNatsBus({
      servers: url,
      streamName,
      subjectPrefix,
      name: 'renopath-bus-contract',
      redelivery: { initialDelayMs: 20, maxDelayMs: 100 },
    }),
  );
});
