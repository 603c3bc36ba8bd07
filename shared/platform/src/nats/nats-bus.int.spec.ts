import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { afterAll, describe } from 'vitest';
import { busContract } from '../testing/bus.contract.ts';
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
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(streamName).catch(() => false);
    // The object store of events over max_payload (nats-bus.ts LargeEvent).
    await jsm.streams.delete(`OBJ_${streamName}_large`).catch(() => false);
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
