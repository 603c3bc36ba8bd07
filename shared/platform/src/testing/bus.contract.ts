import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusUnavailableError, DomainError, type Bus, type Closeable, type EventEnvelope } from '../ports/bus.ts';
import { rejection, uniqueName } from './contract-helpers.ts';

/**
 * Opens a bus. Every call may share one server (and one event stream) with the others: the suite
 * uses subjects and consumer names of its own in each test. Redelivery delays should be short.
 */
export type BusFactory = () => Promise<Bus>;

const DELIVERY = { timeout: 10_000, interval: 10 };

function envelope(subject: string, data: Record<string, unknown> = {}): EventEnvelope {
  return {
    context: 'estates',
    event_id: randomUUID(),
    type: subject.split('.').at(-1)!,
    stream: 'estate-1',
    revision: 0,
    position: 1,
    occurred_at: '2026-01-01T00:00:00.000Z',
    data,
    metadata: { actor: { user_id: 'user-1', client_id: null }, correlation_id: randomUUID(), causation_id: null },
  };
}

const eventIds = (events: EventEnvelope[]): string[] => events.map((e) => e.event_id);

/** What an adapter does beyond what every one must: `inFlight`, it hands a consumer several events at once when asked. */
export interface BusCapabilities {
  inFlight?: boolean;
}

/** What every Bus adapter must do; run it from the adapter's `*.int.spec.ts`. */
export function busContract(name: string, open: BusFactory, capabilities: BusCapabilities = {}): void {
  describe(`Bus contract: ${name}`, () => {
    const buses: Bus[] = [];
    const closeables: Closeable[] = [];
    const openBus = async (): Promise<Bus> => {
      const bus = await open();
      buses.push(bus);
      return bus;
    };
    const track = async <C extends Closeable>(closeable: Promise<C>): Promise<C> => {
      const c = await closeable;
      closeables.push(c);
      return c;
    };
    afterEach(async () => {
      for (const c of closeables.splice(0)) await c.close();
      await Promise.all(buses.splice(0).map((b) => b.close()));
    });

    describe('request/reply', () => {
      it('delivers a copy of the payload and returns the reply', async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.CreateEstate`;
        await track(
          bus.handle(subject, async (payload, s) => {
            (payload as { name: string }).name = 'changed by the handler';
            return { received: payload, subject: s };
          }),
        );
        const payload = { name: 'Home', rooms: [1, 2], owner: { id: 'u1' } };
        const reply = await bus.request<{ received: unknown; subject: string }>(subject, payload);
        expect(reply).toEqual({ received: { ...payload, name: 'changed by the handler' }, subject });
        expect(payload.name).toBe('Home');
      });

      it("hands the request's headers to the handler beside its payload, and none when it has none", async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.Traced`;
        await track(bus.handle(subject, async (payload, _s, headers) => ({ payload, headers: headers ?? null })));
        const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
        expect(await bus.request(subject, { a: 1 }, { headers: { traceparent } })).toEqual({ payload: { a: 1 }, headers: { traceparent } });
        expect(await bus.request(subject, { a: 2 })).toEqual({ payload: { a: 2 }, headers: null });
      });

      it('rethrows a DomainError with its status, messages and code', async () => {
        const bus = await openBus();
        const subject = `qry.${uniqueName('ctx')}.GetEstate`;
        await track(
          bus.handle(subject, async () => {
            throw new DomainError(404, ['estate e1 not found'], 'ESTATE_NOT_FOUND');
          }),
        );
        const error = await rejection(bus.request(subject, { id: 'e1' }));
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ status: 404, messages: ['estate e1 not found'], code: 'ESTATE_NOT_FOUND' });
      });

      it('turns any other handler error into a plain error that does not leak its message', async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.Crash`;
        await track(
          bus.handle(subject, async () => {
            throw new Error('secret connection string');
          }),
        );
        const error = await rejection(bus.request(subject, {}));
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(DomainError);
        expect(error).not.toBeInstanceOf(BusUnavailableError);
        expect((error as Error).message).not.toContain('secret connection string');
      });

      it('answers a store that cannot be reached with a 503 DomainError, which the client is told to retry', async () => {
        const bus = await openBus();
        const subject = `qry.${uniqueName('ctx')}.StoreDown`;
        await track(
          bus.handle(subject, async () => {
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }),
        );
        const error = await rejection(bus.request(subject, {}));
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ status: 503 });
        expect((error as Error).message).not.toContain('5432');
      });

      // NATS carries at most 1 MiB in a message; an organization's list of estates is several times that.
      for (const [what, count, make] of [
        [
          '5,000 estates',
          5_000,
          (i: number) => ({
            id: randomUUID(),
            name: `Estate ${i}`,
            address: { street: 'Kerkstraat', number: String(i), zip_code: '9000', city: 'Gent', country: 'BE' },
            habitable_space_m2: 100 + (i % 90),
            notes: 'x'.repeat(600),
          }),
        ],
        [
          '3,000 renovation items',
          3_000,
          (i: number) => ({
            id: randomUUID(),
            renovation_component_type: 'HEAT_PUMP_AIR_WATER',
            count: 1 + (i % 3),
            price: { excl_vat: 12_000 + i, vat: 0.06 },
            description: 'y'.repeat(900),
          }),
        ],
      ] as const) {
        it(`returns a reply far over 1 MiB whole: ${what}`, { timeout: 30_000 }, async () => {
          const bus = await openBus();
          const subject = `qry.${uniqueName('ctx')}.List`;
          const list = Array.from({ length: count }, (_, i) => make(i));
          expect(JSON.stringify(list).length).toBeGreaterThan(3 * 1024 * 1024);
          await track(bus.handle(subject, async () => list));
          const [first, second] = await Promise.all([bus.request<unknown[]>(subject, {}), bus.request<unknown[]>(subject, {})]);
          expect(first).toEqual(list);
          expect(second).toEqual(list);
          // The handler still serves afterwards: a large reply took nothing down.
          await track(bus.handle(`${subject}.small`, async () => 'ok'));
          expect(await bus.request(`${subject}.small`, {})).toBe('ok');
        });
      }

      // The request timeout is far longer than the test's: only a fast failure passes.
      it('fails fast with BusUnavailableError when nobody handles the subject', { timeout: 5_000 }, async () => {
        const bus = await openBus();
        const error = await rejection(bus.request(`cmd.${uniqueName('ctx')}.Nobody`, {}, { timeoutMs: 60_000 }));
        expect(error).toBeInstanceOf(BusUnavailableError);
      });

      it('fails with BusUnavailableError when the handler does not answer in time', async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.Slow`;
        let finish!: () => void;
        const never = new Promise<void>((resolve) => (finish = resolve));
        await track(bus.handle(subject, () => never));
        const error = await rejection(bus.request(subject, {}, { timeoutMs: 200 }));
        finish();
        expect(error).toBeInstanceOf(BusUnavailableError);
      });

      it('shares requests among the handlers of one subject, each request served once', async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.Work`;
        const served = { a: 0, b: 0 };
        for (const tag of ['a', 'b'] as const) {
          await track(
            bus.handle(subject, async () => {
              served[tag] += 1;
              return tag;
            }),
          );
        }
        const replies = [];
        for (let i = 0; i < 30; i++) replies.push(await bus.request<string>(subject, { i }));
        expect(served.a + served.b).toBe(30);
        expect(served.a).toBeGreaterThan(0);
        expect(served.b).toBeGreaterThan(0);
        expect(replies.filter((r) => r === 'a')).toHaveLength(served.a);
      });

      it('stops serving once the handler is closed', async () => {
        const bus = await openBus();
        const subject = `cmd.${uniqueName('ctx')}.Once`;
        const handler = await bus.handle(subject, async () => 'ok');
        expect(await bus.request(subject, {})).toBe('ok');
        await handler.close();
        expect(await rejection(bus.request(subject, {}, { timeoutMs: 1000 }))).toBeInstanceOf(BusUnavailableError);
      });
    });

    describe('durable consumers', () => {
      it('delivers events published before the consumer first subscribed, in order', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const published = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.B`), envelope(`evt.${ctx}.A`)];
        for (const e of published) await bus.publish(`evt.${ctx}.${e.type}`, e);
        const received: EventEnvelope[] = [];
        await track(bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.>`] }, async (e) => void received.push(e)));
        await vi.waitFor(() => expect(received).toHaveLength(3), DELIVERY);
        expect(received).toEqual(published);
      });

      it('starts a transient consumer at the end of the log: it sees only what comes after it', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const [before, after] = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`)];
        await bus.publish(`evt.${ctx}.A`, before);
        const received: EventEnvelope[] = [];
        const follow = { subjects: [`evt.${ctx}.>`], transient: { idleExpiryMs: 60_000 } };
        await track(bus.consume(uniqueName('listener'), follow, async (e) => void received.push(e)));
        await bus.publish(`evt.${ctx}.A`, after);
        await vi.waitFor(() => expect(received).toHaveLength(1), DELIVERY);
        expect(eventIds(received)).toEqual([after.event_id]);
      });

      it('tells whether a consumer has handled everything published on its subjects', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const name = uniqueName('consumer');
        expect(await bus.isCaughtUp(name)).toBe(false);
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const handled: EventEnvelope[] = [];
        await track(
          bus.consume(name, { subjects: [`evt.${ctx}.A`] }, async (e) => {
            await gate;
            handled.push(e);
          }),
        );
        await bus.publish(`evt.${ctx}.B`, envelope(`evt.${ctx}.B`));
        await vi.waitFor(async () => expect(await bus.isCaughtUp(name)).toBe(true), DELIVERY);
        await bus.publish(`evt.${ctx}.A`, envelope(`evt.${ctx}.A`));
        expect(await bus.isCaughtUp(name)).toBe(false);
        release();
        await vi.waitFor(() => expect(handled).toHaveLength(1), DELIVERY);
        await vi.waitFor(async () => expect(await bus.isCaughtUp(name)).toBe(true), DELIVERY);
      });

      it('matches subjects with * and > wildcards and skips the rest', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const received: EventEnvelope[] = [];
        await track(
          bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.a.*`, `evt.${ctx}.b.>`] }, async (e) => void received.push(e)),
        );
        const subjects = [`evt.${ctx}.a.X`, `evt.${ctx}.a.X.Y`, `evt.${ctx}.b.X.Y`, `evt.${ctx}.c.X`, `evt.${ctx}.b`, `evt.${ctx}.a.Last`];
        const events = subjects.map((s) => envelope(s, { subject: s }));
        for (const [i, e] of events.entries()) await bus.publish(subjects[i]!, e);
        await vi.waitFor(() => expect(eventIds(received)).toContain(events.at(-1)!.event_id), DELIVERY);
        expect(received.map((e) => e.data.subject)).toEqual([`evt.${ctx}.a.X`, `evt.${ctx}.b.X.Y`, `evt.${ctx}.a.Last`]);
      });

      it('gives every consumer its own copy of each event', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const first: EventEnvelope[] = [];
        const second: EventEnvelope[] = [];
        await track(bus.consume(uniqueName('reporting'), { subjects: [`evt.${ctx}.>`] }, async (e) => void first.push(e)));
        await track(bus.consume(uniqueName('webhooks'), { subjects: [`evt.${ctx}.>`] }, async (e) => void second.push(e)));
        const events = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.B`)];
        for (const e of events) await bus.publish(`evt.${ctx}.${e.type}`, e);
        await vi.waitFor(() => expect([first.length, second.length]).toEqual([2, 2]), DELIVERY);
        expect(eventIds(first)).toEqual(eventIds(events));
        expect(eventIds(second)).toEqual(eventIds(events));
      });

      it('redelivers an event whose handler threw, before any later event', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const events = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`)];
        const attempts: string[] = [];
        const handled: string[] = [];
        let failed = false;
        await track(
          bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.A`] }, async (e) => {
            attempts.push(e.event_id);
            if (e.event_id === events[1]!.event_id && !failed) {
              failed = true;
              throw new Error('transient failure');
            }
            handled.push(e.event_id);
          }),
        );
        for (const e of events) await bus.publish(`evt.${ctx}.A`, e);
        await vi.waitFor(() => expect(handled).toHaveLength(3), DELIVERY);
        expect(handled).toEqual(eventIds(events));
        expect(attempts.filter((id) => id === events[1]!.event_id)).toHaveLength(2);
        expect(attempts.indexOf(events[2]!.event_id)).toBeGreaterThan(attempts.lastIndexOf(events[1]!.event_id));
      });

      it('hands events to a handler one at a time', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        let active = 0;
        let mostActive = 0;
        const handled: string[] = [];
        await track(
          bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.>`] }, async (e) => {
            active += 1;
            mostActive = Math.max(mostActive, active);
            await new Promise((resolve) => setTimeout(resolve, 5));
            active -= 1;
            handled.push(e.event_id);
          }),
        );
        const events = Array.from({ length: 5 }, () => envelope(`evt.${ctx}.A`));
        await Promise.all(events.map((e) => bus.publish(`evt.${ctx}.A`, e)));
        await vi.waitFor(() => expect(handled).toHaveLength(5), DELIVERY);
        expect(mostActive).toBe(1);
      });

      it('with inFlight, hands events over in publish order and never more at once than it allows', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        let active = 0;
        let mostActive = 0;
        const called: string[] = [];
        const handled: string[] = [];
        await track(
          bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.>`], inFlight: 3 }, async (e) => {
            called.push(e.event_id);
            active += 1;
            mostActive = Math.max(mostActive, active);
            await new Promise((resolve) => setTimeout(resolve, 5));
            active -= 1;
            handled.push(e.event_id);
          }),
        );
        const events = Array.from({ length: 7 }, () => envelope(`evt.${ctx}.A`));
        for (const e of events) await bus.publish(`evt.${ctx}.A`, e);
        await vi.waitFor(() => expect(handled).toHaveLength(7), DELIVERY);
        expect(called).toEqual(eventIds(events));
        expect(mostActive).toBeLessThanOrEqual(3);
        // So one that waits does not hold up the others, where the adapter takes several at once.
        if (capabilities.inFlight) expect(mostActive).toBe(3);
      });

      it('with inFlight, delivers the failed event again and every one after it, none before it', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const events = Array.from({ length: 4 }, () => envelope(`evt.${ctx}.A`));
        const attempts: string[] = [];
        const handled = new Set<string>();
        let failed = false;
        await track(
          bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.A`], inFlight: 4 }, async (e) => {
            attempts.push(e.event_id);
            if (e.event_id === events[1]!.event_id && !failed) {
              failed = true;
              throw new Error('transient failure');
            }
            handled.add(e.event_id);
          }),
        );
        for (const e of events) await bus.publish(`evt.${ctx}.A`, e);
        await vi.waitFor(() => expect(handled.size).toBe(4), DELIVERY);
        const [first, second, ...rest] = eventIds(events);
        expect(attempts.filter((id) => id === first)).toHaveLength(1);
        expect(attempts.filter((id) => id === second)).toHaveLength(2);
        // Each later event's last attempt follows the failed event's second: none is left handled only before it.
        for (const id of rest) expect(attempts.lastIndexOf(id)).toBeGreaterThan(attempts.lastIndexOf(second!));
      });

      it('drops a re-published event id', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const [first, second] = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`)];
        const received: string[] = [];
        await track(bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.A`] }, async (e) => void received.push(e.event_id)));
        await bus.publish(`evt.${ctx}.A`, first);
        await bus.publish(`evt.${ctx}.A`, first);
        await bus.publish(`evt.${ctx}.A`, second);
        await vi.waitFor(() => expect(received).toContain(second.event_id), DELIVERY);
        expect(received).toEqual([first.event_id, second.event_id]);
      });

      it('delivers an event far over 1 MiB whole, and drops its re-publish', { timeout: 30_000 }, async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const large = envelope(`evt.${ctx}.A`, {
          items: Array.from({ length: 3_000 }, (_, i) => ({ id: randomUUID(), note: 'z'.repeat(900), i })),
        });
        const small = envelope(`evt.${ctx}.A`, { n: 1 });
        const received: EventEnvelope[] = [];
        await track(bus.consume(uniqueName('consumer'), { subjects: [`evt.${ctx}.A`] }, async (e) => void received.push(e)));
        await bus.publish(`evt.${ctx}.A`, large);
        await bus.publish(`evt.${ctx}.A`, large);
        await bus.publish(`evt.${ctx}.A`, small);
        await vi.waitFor(() => expect(received.map((e) => e.event_id)).toContain(small.event_id), DELIVERY);
        expect(received).toEqual([large, small]);
      });

      it('resumes after close without replaying acknowledged events', async () => {
        const bus = await openBus();
        const ctx = uniqueName('ctx');
        const consumer = uniqueName('consumer');
        const subjects = [`evt.${ctx}.A`];
        const before = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`)];
        for (const e of before) await bus.publish(`evt.${ctx}.A`, e);

        const firstRun: string[] = [];
        const first = await bus.consume(consumer, { subjects }, async (e) => void firstRun.push(e.event_id));
        await vi.waitFor(() => expect(firstRun).toHaveLength(3), DELIVERY);
        await first.close();

        const after = [envelope(`evt.${ctx}.A`), envelope(`evt.${ctx}.A`)];
        for (const e of after) await bus.publish(`evt.${ctx}.A`, e);
        const secondRun: string[] = [];
        await track(bus.consume(consumer, { subjects }, async (e) => void secondRun.push(e.event_id)));
        await vi.waitFor(() => expect(secondRun).toContain(after[1]!.event_id), DELIVERY);
        expect(firstRun).toEqual(eventIds(before));
        expect(secondRun).toEqual(eventIds(after));
      });
    });
  });
}
