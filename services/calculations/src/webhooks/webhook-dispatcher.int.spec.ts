import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBus, openSqliteEventStore, type EventStore } from '@renopath/platform';
import { IdentitySubjects, type CalculationJob, type ServiceRequest } from '@renopath/contracts';
import { parseRetrySchedule } from './retry-schedule.ts';
import { startWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.ts';
import { busWebhookSigner, embeddedWebhookSigner } from './webhook-signer.ts';
import { deliveryStream } from './webhook-delivery.decider.ts';

const CLIENT = '11111111-1111-4111-8111-111111111111';
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const log = pino({ level: 'silent' });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: unknown;
}

/** A receiver answering with the given statuses in turn (the last one repeats), verifying each signature. */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: unknown = null;
      try {
        verified = new Webhook(SECRET).verify(body, req.headers as Record<string, string>);
      } catch (err) {
        verified = err;
      }
      received.push({ headers: req.headers, body, verified });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

function job(status: CalculationJob['calculation_job_status'] = 'FINISHED'): CalculationJob {
  const t = '2026-11-23T10:00:00.000Z';
  return {
    id: randomUUID(),
    created_at: t,
    updated_at: t,
    external_id: 'ext-1',
    deactivated_at: null,
    calculation_job_type: 'SUGGESTED_RENOVATION_TRAJECTORY_CALCULATION',
    calculation_job_status: status,
    metadata: { final_epc_score: 120 },
    estate_id: randomUUID(),
    name: 'Home',
    description: null,
    expires_at: null,
    published_at: t,
  };
}

function store(): EventStore {
  const s = openSqliteEventStore({ file: ':memory:' });
  closers.push(() => s.close());
  return s;
}

async function dispatcher(eventStore: EventStore, overrides: Partial<WebhookDispatcherOptions> = {}): Promise<WebhookDispatcher> {
  const d = await startWebhookDispatcher({
    eventStore,
    sign: embeddedWebhookSigner(async (id) => (id === CLIENT ? SECRET : null)),
    schedule: parseRetrySchedule('0,100ms,100ms'),
    allowPrivateNetwork: true,
    timeoutMs: 2000,
    log,
    pollMs: 50,
    ...overrides,
  });
  closers.push(() => d.close());
  return d;
}

const settled = async (d: WebhookDispatcher, job_id: string) => {
  await vi.waitFor(async () => expect((await d.deliveriesOf(job_id))[0]?.status).toMatch(/DELIVERED|GAVE_UP/), {
    timeout: 5000,
    interval: 20,
  });
  return (await d.deliveriesOf(job_id))[0]!;
};

describe('webhook dispatcher', () => {
  it('sends the job signed with the client secret; a 500 is retried with the same webhook-id, then nothing more after the 200', async () => {
    const r = await receiver([500, 200]);
    const d = await dispatcher(store());
    const j = job();
    await d.schedule(j, CLIENT, r.url, 'calculation_job.finished');
    const delivery = await settled(d, j.id);

    expect(delivery.status).toBe('DELIVERED');
    expect(delivery.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(r.received).toHaveLength(2);
    for (const got of r.received) {
      expect(got.verified).toEqual({ type: 'calculation_job.finished', timestamp: expect.any(String), data: j });
      expect(got.headers['webhook-id']).toBe(delivery.webhook_id);
      expect(got.headers['content-type']).toBe('application/json');
    }
    expect(r.received[0]!.body).toBe(r.received[1]!.body);
    // Scheduling it again (a worker repeating its last step) sends nothing more.
    await d.schedule(j, CLIENT, r.url, 'calculation_job.finished');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(2);
    expect((await d.deliveriesOf(j.id))[0]!.webhook_id).toBe(delivery.webhook_id);
  });

  it('gives up after the last attempt of the schedule, every attempt recorded', async () => {
    const r = await receiver([503]);
    const eventStore = store();
    const d = await dispatcher(eventStore);
    const j = job('FAILED');
    await d.schedule(j, CLIENT, r.url, 'calculation_job.failed');
    const delivery = await settled(d, j.id);

    expect(delivery).toMatchObject({ status: 'GAVE_UP', gave_up_reason: 'ATTEMPTS_EXHAUSTED', next_attempt_at: null });
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([503, 503, 503]);
    expect(delivery.attempts.every((a) => a.error !== null)).toBe(true);
    expect(r.received).toHaveLength(3);
    expect((await eventStore.readStream(deliveryStream(j.id, 'calculation_job.failed'))).map((e) => e.type)).toEqual([
      'DeliveryScheduled',
      'AttemptRecorded',
      'AttemptRecorded',
      'AttemptRecorded',
      'GaveUp',
    ]);
  });

  it('a new dispatcher on the same store resumes a pending retry and never re-sends a delivered one', async () => {
    const failing = await receiver([500, 200]);
    const fine = await receiver([200]);
    const eventStore = store();
    // The retry waits long enough that the first dispatcher is closed before it is due.
    const schedule = parseRetrySchedule('0,1s');
    const first = await dispatcher(eventStore, { schedule });
    const done = job();
    const pending = job('STOPPED');
    await first.schedule(done, CLIENT, fine.url, 'calculation_job.finished');
    await first.schedule(pending, CLIENT, failing.url, 'calculation_job.stopped');
    await vi.waitFor(
      async () => {
        expect((await first.deliveriesOf(done.id))[0]?.status).toBe('DELIVERED');
        expect((await first.deliveriesOf(pending.id))[0]?.attempts).toHaveLength(1);
      },
      { timeout: 5000, interval: 10 },
    );
    await first.close();
    expect((await first.deliveriesOf(pending.id))[0]?.status).toBe('PENDING');

    const second = await dispatcher(eventStore, { schedule });
    const resumed = await settled(second, pending.id);
    expect(resumed.status).toBe('DELIVERED');
    expect(failing.received.map((g) => g.headers['webhook-id'])).toEqual([resumed.webhook_id, resumed.webhook_id]);
    expect(fine.received).toHaveLength(1);
  });

  it('refuses a loopback receiver without the operator allowing private networks, and gives up at once', async () => {
    const r = await receiver([200]);
    const d = await dispatcher(store(), { allowPrivateNetwork: false });
    const j = job();
    await d.schedule(j, CLIENT, r.url, 'calculation_job.finished');
    const delivery = await settled(d, j.id);

    expect(delivery).toMatchObject({ status: 'GAVE_UP', gave_up_reason: 'URL_REFUSED' });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/refused/) });
    expect(r.received).toHaveLength(0);
  });

  it('distributed: identity signs over the bus, the receiver verifies', async () => {
    const bus = createMemoryBus();
    closers.push(() => bus.close());
    // Identity's side of cmd.identity.sign-webhook (its own spec covers the real handler).
    await bus.handle(IdentitySubjects.signWebhook, async (payload) => {
      const { client_id, id, timestamp, body } = (
        payload as ServiceRequest<{ client_id: string; id: string; timestamp: number; body: string }>
      ).body;
      expect(client_id).toBe(CLIENT);
      return { signature: new Webhook(SECRET).sign(id, new Date(timestamp * 1000), body) };
    });
    const r = await receiver([200]);
    const d = await dispatcher(store(), { sign: busWebhookSigner(bus) });
    const j = job();
    await d.schedule(j, CLIENT, r.url, 'calculation_job.finished');
    expect((await settled(d, j.id)).status).toBe('DELIVERED');
    expect(r.received[0]!.verified).toMatchObject({ data: j });
  });
});
