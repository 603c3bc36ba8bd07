import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../memory/memory-bus.ts';
import type { Bus, Closeable } from '../ports/bus.ts';
import { ANY } from '../ports/event-store.ts';
import { openSqliteEventStore } from '../sqlite/event-store/sqlite-event-store.ts';
import { startRelay, type Relay } from './relay.ts';
import { contextsToSettle, settleAcrossContexts, Settlement } from './settlement.ts';

const log = pino({ level: 'silent' });
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** One bounded context: its event store, its relay to the bus and its settle responder. */
async function context(name: string, bus: Bus) {
  const eventStore = openSqliteEventStore({ file: ':memory:' });
  const settlement = new Settlement({ context: name, bus, eventStore, log });
  const relay: Relay = startRelay({
    context: name,
    eventStore,
    checkpoints: eventStore.checkpoints,
    bus,
    log,
    onPublished: settlement.onPublished,
  });
  settlement.attach(relay);
  const serving: Closeable = await settlement.serve();
  open.push(eventStore, relay, serving);
  const append = (stream: string, type: string, correlation_id: string) =>
    eventStore.append(
      stream,
      [
        {
          event_id: randomUUID(),
          type,
          data: {},
          occurred_at: '2026-11-22T00:00:00.000Z',
          metadata: { actor: { user_id: null, client_id: null }, correlation_id, causation_id: null },
        },
      ],
      ANY,
    );
  return { settlement, eventStore, append };
}

describe('settling a request across contexts', () => {
  it('answers only once a slow reactor in another context has handled the cascade, and learns its own events', async () => {
    const bus = createMemoryBus();
    open.push(bus);
    const identity = await context('identity', bus);
    const estates = await context('estates', bus);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tracked = estates.settlement.reactor('estates-members', ['identity']);
    open.push(
      await bus.consume('estates-members', { subjects: ['evt.identity.>'] }, async (event) => {
        await gate;
        await estates.append('estate-1', 'EstateMemberRemoved', event.metadata.correlation_id);
        tracked.handled(event);
      }),
    );

    const correlation = randomUUID();
    await identity.append('organization-1', 'OrganizationMemberRemoved', correlation);
    let settled: boolean | undefined;
    const settling = settleAcrossContexts({
      bus,
      contexts: ['identity', 'estates', 'reporting'],
      correlationId: correlation,
      timeoutMs: 5000,
    }).then((ok) => (settled = ok));
    await new Promise((r) => setTimeout(r, 150));
    expect(settled).toBeUndefined();
    release();
    await settling;
    expect(settled).toBe(true);
    // the cascade is there, and the estates context reports it for that correlation id
    expect((await estates.eventStore.readStream('estate-1')).map((e) => e.type)).toEqual(['EstateMemberRemoved']);
    expect(await estates.settlement.settle({ correlation_id: correlation, after: {}, timeout_ms: 100 })).toEqual({
      position: 1,
      complete: true,
    });
  });

  it('gives up at the bound and says so, leaving the write in place', async () => {
    const bus = createMemoryBus();
    open.push(bus);
    const identity = await context('identity', bus);
    const estates = await context('estates', bus);
    estates.settlement.reactor('stuck', ['identity']);
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    open.push(await bus.consume('stuck', { subjects: ['evt.identity.>'] }, () => stuck));
    const correlation = randomUUID();
    await identity.append('organization-1', 'OrganizationMemberRemoved', correlation);
    expect(await settleAcrossContexts({ bus, contexts: ['identity', 'estates'], correlationId: correlation, timeoutMs: 300 })).toBe(false);
    expect(await identity.eventStore.readStream('organization-1')).toHaveLength(1);
    release();
  });

  it('settles at once when nothing reacts', async () => {
    const bus = createMemoryBus();
    open.push(bus);
    const identity = await context('identity', bus);
    const correlation = randomUUID();
    await identity.append('user-1', 'UserUpdated', correlation);
    expect(await settleAcrossContexts({ bus, contexts: ['identity'], correlationId: correlation, timeoutMs: 1000 })).toBe(true);
    expect(await identity.settlement.settle({ correlation_id: correlation, after: {}, timeout_ms: 100 })).toEqual({
      position: 1,
      complete: true,
    });
  });

  it('asks only the contexts a write can reach: its own and those consuming it, transitively', async () => {
    const running = ['identity', 'estates', 'renovations'];
    expect(contextsToSettle('cmd.estates.update-estate', running)).toEqual(['estates', 'renovations']);
    expect(contextsToSettle('cmd.renovations.add-item', running)).toEqual(['renovations']);
    expect(contextsToSettle('cmd.identity.update-user', running)).toEqual(['identity', 'estates', 'renovations']);
    // Adding an estate member has identity invite the person: identity's consumers are waited for too.
    expect(contextsToSettle('cmd.estates.add-member', running)).toEqual(['identity', 'estates', 'renovations']);
    // A declared consumer is asked once it runs, never before.
    expect(contextsToSettle('cmd.renovations.add-item', [...running, 'reporting'])).toEqual(['renovations', 'reporting']);
    // A calculation job's workflow writes estates and renovations under the request's correlation id.
    expect(contextsToSettle('cmd.calculations.create-trajectory-job', [...running, 'calculations'])).toEqual([
      'estates',
      'renovations',
      'calculations',
    ]);
    expect(contextsToSettle('cmd.estates.update-estate', [...running, 'calculations'])).toEqual(['estates', 'renovations', 'calculations']);
    // A context the graph does not know rules nothing out.
    expect(contextsToSettle('cmd.planning.plan', running)).toEqual(running);

    const bus = createMemoryBus();
    open.push(bus);
    const asked: string[] = [];
    const request = bus.request.bind(bus);
    bus.request = (subject, payload, options) => (asked.push(subject), request(subject, payload, options));
    await context('identity', bus);
    const estates = await context('estates', bus);
    const correlation = randomUUID();
    await estates.append('estate-1', 'EstateUpdated', correlation);
    expect(
      await settleAcrossContexts({
        bus,
        contexts: contextsToSettle('cmd.estates.update-estate', ['identity', 'estates']),
        correlationId: correlation,
        timeoutMs: 1000,
      }),
    ).toBe(true);
    expect(new Set(asked)).toEqual(new Set(['qry.estates.settle']));
  });
});
