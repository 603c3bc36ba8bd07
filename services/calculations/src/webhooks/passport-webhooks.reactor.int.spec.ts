import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus, type Closeable, type EventEnvelope } from '@renopath/platform';
import { eventSubject } from '@renopath/contracts';
import { startPassportWebhooksReactor, type OnPassportSigned } from './passport-webhooks.reactor.ts';

const log = pino({ level: 'silent' });
const PASSPORT = '00000000-0000-4000-8000-0000000000a1';
const signedData = (extra: Record<string, unknown>) => ({
  passport_id: PASSPORT,
  estate_id: '00000000-0000-4000-8000-000000000001',
  signed_at: '2026-12-01T12:00:00.000Z',
  signed_by: { advisor_name: 'An Advisor', accreditation_number: 'EP-1' },
  content_sha256: 'a'.repeat(64),
  signature: 'x.y.z',
  ...extra,
});
let position = 0;
const envelope = (data: Record<string, unknown>, type = 'RenovationPassportSigned'): EventEnvelope =>
  ({
    context: 'reporting',
    event_id: randomUUID(),
    type,
    stream: 'renovation-passports-00000000-0000-4000-8000-000000000001',
    revision: position,
    position: ++position,
    occurred_at: '2026-12-01T12:00:00.000Z',
    data,
    metadata: { actor: { user_id: null, client_id: 'client-1' }, correlation_id: 'corr-1', causation_id: null },
  }) as EventEnvelope;

const open: Closeable[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function start() {
  const bus = createMemoryBus();
  const calls: Parameters<OnPassportSigned>[] = [];
  const reactor = await startPassportWebhooksReactor({ bus, log, onSigned: async (...args) => void calls.push(args) });
  open.push(reactor, bus);
  const caughtUp = async () => {
    for (let i = 0; i < 200 && !(await bus.isCaughtUp('calculations-passports')); i++) await new Promise((r) => setTimeout(r, 5));
  };
  return { bus, calls, caughtUp };
}

describe("the dispatcher's follower of signed passports", () => {
  it("asks for one renovation_passport.signed delivery with the event's facts, to the drafter's URL for the drafter's client", async () => {
    const { bus, calls, caughtUp } = await start();
    const event = envelope(
      signedData({
        version: 2,
        calculation_job_id: '00000000-0000-4000-8000-000000000003',
        verification_url: `https://renopath.example/renovation-passports/${PASSPORT}/verification`,
        webhook: { url: 'https://bank.example/hooks', client_id: 'drafter' },
      }),
    );
    await bus.publish(eventSubject('reporting', 'RenovationPassportSigned'), event);
    await caughtUp();
    expect(calls).toEqual([
      [
        {
          id: PASSPORT,
          version: 2,
          estate_id: '00000000-0000-4000-8000-000000000001',
          calculation_job_id: '00000000-0000-4000-8000-000000000003',
          signed_at: '2026-12-01T12:00:00.000Z',
          content_sha256: 'a'.repeat(64),
          verification_url: `https://renopath.example/renovation-passports/${PASSPORT}/verification`,
        },
        { url: 'https://bank.example/hooks', client_id: 'drafter' },
        // The signing event as the delivery's cause: its correlation id, and the event itself.
        expect.objectContaining({ correlation_id: 'corr-1', causation_id: event.event_id }),
      ],
    ]);
  });

  it('asks nothing for a passport drafted without a webhook_url, or signed before passports carried one', async () => {
    const { bus, calls, caughtUp } = await start();
    const subject = eventSubject('reporting', 'RenovationPassportSigned');
    await bus.publish(
      subject,
      envelope(
        signedData({
          version: 1,
          calculation_job_id: '00000000-0000-4000-8000-000000000003',
          verification_url: 'https://x',
          webhook: null,
        }),
      ),
    );
    await bus.publish(subject, envelope(signedData({})));
    await caughtUp();
    expect(calls).toEqual([]);
  });
});
