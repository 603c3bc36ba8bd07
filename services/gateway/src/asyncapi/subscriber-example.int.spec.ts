import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@renopath/contracts';
import { connectNatsBus, type NatsBus } from '@renopath/platform';
import { natsListening, testNatsUrl } from '@renopath/platform/testing/listening.ts';
import { subscribe } from './subscriber-example.ts';

/**
 * docs/events.md's subscriber against a real NATS server, with the events published as Renopath's
 * relay publishes them (the platform's NATS bus): a durable consumer gets each event once, in
 * order, resumes after the last acknowledged one when restarted, and can start from a stream
 * sequence. One stream and subject namespace per run, so other runs on the server never meet it.
 */
const reachable = await natsListening();
if (!reachable) console.warn(`[skip] subscriber example: nothing listens on ${testNatsUrl} (set RENOPATH_TEST_NATS_URL)`);

const run = randomUUID().replaceAll('-', '').slice(0, 12);
const stream = `RENOPATH_EXAMPLE_${run}`;
const prefix = `example${run}`;
let bus: NatsBus;

const event = (type: string, revision: number, stream_ = 'estate-1'): EventEnvelope => ({
  context: 'estates',
  event_id: randomUUID(),
  type,
  stream: stream_,
  revision,
  position: revision + 1,
  occurred_at: new Date().toISOString(),
  data: { estate_id: randomUUID() },
  metadata: { actor: { user_id: null, client_id: null }, correlation_id: randomUUID(), causation_id: null },
});

async function until(condition: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!reachable)('subscribing to the domain events from outside (docs/events.md)', () => {
  beforeAll(async () => {
    bus = await connectNatsBus({ servers: testNatsUrl, streamName: stream, subjectPrefix: prefix, name: 'renopath-subscriber-example' });
  });
  afterAll(async () => {
    await bus?.close();
    const nc = await connect({ servers: testNatsUrl });
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
    await nc.close();
  });

  it('gets each event once and in order, resumes after a restart, and starts where it is told', async () => {
    const first = [event('EstateCreated', 0), event('EstateUpdated', 1), event('RoofAdded', 2)];
    for (const e of first) await bus.publish(`evt.estates.${e.type}`, e);
    // A relay that crashed after publishing publishes again: the server drops the repeat (same event id).
    await bus.publish(`evt.estates.${first[1]!.type}`, first[1]!);
    await bus.publish('evt.calculations.CalculationJobCreated', {
      ...event('CalculationJobCreated', 0, 'calculation-job-1'),
      context: 'calculations',
    });

    const seen = new Set<string>();
    const received: string[] = [];
    const options = {
      servers: testNatsUrl,
      stream,
      prefix,
      durable: `auditor-${run}`,
      subject: 'evt.estates.>',
      seen: { has: (id: string) => seen.has(id), add: (id: string) => void seen.add(id) },
      handle: async (e: EventEnvelope) => void received.push(`${e.type}#${e.revision}`),
    };
    let subscription = await subscribe(options);
    await until(() => received.length === 3);
    await subscription.close();
    expect(received).toEqual(['EstateCreated#0', 'EstateUpdated#1', 'RoofAdded#2']);

    // Stopped, then restarted under the same name: only what came in the meantime.
    const later = event('RoofUpdated', 3);
    await bus.publish(`evt.estates.${later.type}`, later);
    // The same event once more, past the server's duplicate window (no message id): the subscriber drops it by event_id.
    const nc = await connect({ servers: testNatsUrl });
    await jetstream(nc).publish(`${prefix}.evt.estates.${later.type}`, new TextEncoder().encode(JSON.stringify(later)));
    await nc.close();
    subscription = await subscribe(options);
    await until(() => received.length === 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await subscription.close();
    expect(received).toEqual(['EstateCreated#0', 'EstateUpdated#1', 'RoofAdded#2', 'RoofUpdated#3']);

    // Another service, new, starting at the stream's third message (the first two estate events skipped).
    const replay: string[] = [];
    const fromThird = await subscribe({
      ...options,
      durable: `warehouse-${run}`,
      subject: 'evt.>',
      startAt: { sequence: 3 },
      seen: { has: () => false, add: () => undefined },
      handle: async (e) => void replay.push(e.type),
    });
    await until(() => replay.length === 4);
    await fromThird.close();
    expect(replay).toEqual(['RoofAdded', 'CalculationJobCreated', 'RoofUpdated', 'RoofUpdated']);
  }, 60_000);
});
