import { randomBytes } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NO_STREAM, exact, type RecordedEvent } from '../ports/event-store.ts';
import { eventStoreContract } from '../testing/event-store.contract.ts';
import { newEvent, uniqueName } from '../testing/contract-helpers.ts';
import { openEsdbEventStore, type EsdbEventStore, type EsdbEventStoreOptions } from './esdb-event-store.ts';

/**
 * The adapter against a real KurrentDB/EventStoreDB: the one at RENOPATH_TEST_ESDB_URL, else a
 * container started through testcontainers when a Docker engine answers, else the suite skips and
 * says so. Each storage name gets its own namespace on the shared server.
 */
const IMAGE = process.env['RENOPATH_TEST_ESDB_IMAGE'] ?? 'kurrentplatform/kurrentdb:26.1.1';

interface TestServer {
  url: string;
  stop(): Promise<void>;
}

async function testServer(): Promise<TestServer | string> {
  const configured = process.env['RENOPATH_TEST_ESDB_URL'];
  if (configured) return { url: configured, stop: async () => undefined };
  // Loaded only here: a machine without Docker never pays for it.
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    return `no Docker engine answers (${(error as Error).message})`;
  }
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({
      KURRENTDB_CLUSTER_SIZE: '1',
      KURRENTDB_RUN_PROJECTIONS: 'All',
      KURRENTDB_START_STANDARD_PROJECTIONS: 'true',
      KURRENTDB_INSECURE: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000)
    .start();
  return {
    url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => void (await container.stop()),
  };
}

const server = await testServer();
if (typeof server === 'string') {
  console.warn(
    `[skip] EventStore contract: esdb — ${server}; set RENOPATH_TEST_ESDB_URL=kurrentdb://127.0.0.1:2113?tls=false, or run where Docker answers (testcontainers starts ${IMAGE})`,
  );
}
const url = typeof server === 'string' ? '' : server.url;

/** One namespace per storage name and run, so runs and tests on one server never meet. */
const run = randomBytes(3).toString('hex');
const namespaceOf = (storage: string) => `t${run}_${storage.replace(/[^A-Za-z0-9_]/g, '_')}`;
const open = (storage: string, options: Partial<EsdbEventStoreOptions> = {}) =>
  openEsdbEventStore({ connectionString: url, namespace: namespaceOf(storage), ...options });

async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP relay in front of the server whose connections the test can cut, like a network failure would. */
async function relayTo(target: string): Promise<{ url: string; cut(): void; close(): Promise<void> } | null> {
  const match = /^([a-z+]+):\/\/((?:[^@/?]*@)?)([^/?,:]+):(\d+)([/?].*)?$/i.exec(target);
  if (!match || match[1]!.toLowerCase().includes('discover')) return null;
  const [, scheme, credentials, host, port, rest] = match;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(port), host!);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no port');
  return {
    url: `${scheme}://${credentials}127.0.0.1:${address.port}${rest ?? ''}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

describe.skipIf(typeof server === 'string')('EsdbEventStore', () => {
  const opened: EsdbEventStore[] = [];
  const track = async (store: Promise<EsdbEventStore>) => {
    const s = await store;
    opened.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    if (typeof server !== 'string') await server.stop();
  });

  eventStoreContract('esdb', (storage) => open(storage), { sharedLog: true });

  it('keeps two contexts on one server apart, even with the same stream names', async () => {
    const [estates, identity] = await Promise.all([track(open(uniqueName('estates'))), track(open(uniqueName('identity')))]);
    const [a, b] = [newEvent('EstateCreated'), newEvent('UserRegistered')];
    await estates.append('shared-1', [a], NO_STREAM);
    // The same name in the other namespace is another stream: NO_STREAM holds there too.
    await identity.append('shared-1', [b], NO_STREAM);
    expect((await estates.readStream('shared-1')).map((e) => e.event_id)).toEqual([a.event_id]);
    expect((await estates.readAll()).map((e) => e.event_id)).toEqual([a.event_id]);
    expect((await identity.readAll()).map((e) => e.event_id)).toEqual([b.event_id]);
    expect(await estates.headPosition()).toBeLessThan(await identity.headPosition());
    const subscription = estates.subscribeToAll({ after: 0n });
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.event_id).toBe(a.event_id);
    const later = newEvent();
    await identity.append('shared-1', [newEvent()], exact(0n));
    await estates.append('shared-1', [later], exact(0n));
    expect((await within(10_000, 'live event', iterator.next())).value?.event_id).toBe(later.event_id);
    await subscription.close();
  });

  it('keeps consumer checkpoints across reopening, out of the global log', async () => {
    const storage = uniqueName('checkpoints');
    const store = await track(open(storage));
    expect(await store.checkpoints.load('relay')).toBe(0n);
    await store.checkpoints.save('relay', 41n);
    await store.checkpoints.save('relay', 2n ** 60n);
    expect(await store.checkpoints.load('relay')).toBe(2n ** 60n);
    expect(await store.checkpoints.load('other')).toBe(0n);
    expect(await store.readAll()).toEqual([]);
    const reopened = await track(open(storage));
    expect(await reopened.checkpoints.load('relay')).toBe(2n ** 60n);
  });

  it('reports filter progress while only other contexts write, and resumes from it without loss', async () => {
    const quiet = await track(open(uniqueName('quiet'), { checkpointInterval: 1 }));
    const busy = await track(open(uniqueName('busy')));
    const reported: bigint[] = [];
    const start = await quiet.headPosition();
    const subscription = quiet.subscribeToAll({ after: start, onCheckpoint: (position) => void reported.push(position) });
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    // Foreign events: enough for the server's search windows (32 events each) to reach a checkpoint.
    for (let i = 0; i < 4; i++)
      await busy.append(
        `noise-${i}`,
        Array.from({ length: 50 }, () => newEvent()),
        NO_STREAM,
      );
    await within(
      20_000,
      'checkpoint',
      (async () => {
        while (reported.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
    );
    const checkpoint = reported[reported.length - 1]!;
    expect(checkpoint).toBeGreaterThan(start);
    const mine = newEvent();
    const appended = await quiet.append('estate-1', [mine], NO_STREAM);
    expect(appended.position).toBeGreaterThan(checkpoint);
    expect((await within(10_000, 'own event', pending)).value?.event_id).toBe(mine.event_id);
    await subscription.close();
    // A consumer that stored the checkpoint starts there and still gets the event after it.
    const resumed = quiet.subscribeToAll({ after: checkpoint });
    expect((await within(10_000, 'resumed event', resumed[Symbol.asyncIterator]().next())).value?.event_id).toBe(mine.event_id);
    await resumed.close();
  });

  it('resubscribes after its connection is cut and misses nothing', async () => {
    const relay = await relayTo(url);
    if (!relay) {
      console.warn('[skip] esdb resubscription: RENOPATH_TEST_ESDB_URL is not a single host:port the test can relay');
      return;
    }
    try {
      const storage = uniqueName('dropped');
      const drops: unknown[] = [];
      const reader = await track(
        open(storage, {
          connectionString: relay.url,
          retryInitialMs: 50,
          retryMaxMs: 500,
          onSubscriptionDropped: (error) => void drops.push(error),
        }),
      );
      const writer = await track(open(storage));
      const subscription = reader.subscribeToAll();
      const iterator = subscription[Symbol.asyncIterator]();
      const events = [newEvent(), newEvent(), newEvent()];
      await writer.append('estate-1', [events[0]!], NO_STREAM);
      const received: RecordedEvent[] = [(await within(10_000, 'first event', iterator.next())).value!];
      relay.cut();
      await writer.append('estate-1', [events[1]!], exact(0n));
      await writer.append('estate-1', [events[2]!], exact(1n));
      for (let i = 0; i < 2; i++) received.push((await within(30_000, 'event after the cut', iterator.next())).value!);
      expect(received.map((e) => e.event_id)).toEqual(events.map((e) => e.event_id));
      expect(drops.length).toBeGreaterThan(0);
      await subscription.close();
    } finally {
      await relay.close();
    }
  });

  it('refuses a namespace that could overlap another, and a URL of another database', async () => {
    await expect(openEsdbEventStore({ connectionString: url, namespace: 'renopath-estates' })).rejects.toThrow(
      /invalid EventStoreDB namespace/,
    );
    await expect(openEsdbEventStore({ connectionString: 'postgres://localhost/db' })).rejects.toThrow(/must start with kurrentdb:\/\//);
  });
});
