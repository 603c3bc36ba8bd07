import { randomUUID } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { connect } from 'nats';
import { afterAll, describe } from 'vitest';
import { busContract } from '../testing/bus.contract.ts';
import { connectNatsBus } from './nats-bus.ts';

const url = process.env.RENOPATH_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A plain TCP connect, so a machine without NATS skips the suite instead of failing it. */
function listening(address: string): Promise<boolean> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = connectTcp({ host: hostname, port: Number(port || 4222), timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const reachable = await listening(url);
if (!reachable) console.warn(`[skip] Bus contract: nats — nothing listens on ${url} (set RENOPATH_TEST_NATS_URL)`);

// One stream and one subject namespace per run, so parallel runs on one server never meet.
const run = randomUUID().replaceAll('-', '').slice(0, 12);
const streamName = `RENOPATH_TEST_${run}`;
const subjectPrefix = `test${run}`;

describe.skipIf(!reachable)('NatsBus', () => {
  afterAll(async () => {
    const nc = await connect({ servers: url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(streamName).catch(() => false);
    await nc.close();
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
