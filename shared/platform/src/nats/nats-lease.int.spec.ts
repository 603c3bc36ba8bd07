import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect as connectTcp, createServer, type AddressInfo, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Lease } from '../ports/lease.ts';
import { leaseStoreContract } from '../testing/lease.contract.ts';
import { rejection, uniqueName } from '../testing/contract-helpers.ts';
import { natsLeaseKey, openNatsLeaseStore, type NatsLeaseStore } from './nats-lease.ts';
import { natsListening, testNatsUrl } from '../testing/listening.ts';
import { findTsx } from '../testing/tsx.ts';

const url = testNatsUrl;

const reachable = await natsListening(url);
if (!reachable) console.warn(`[skip] LeaseStore contract: nats — nothing listens on ${url} (set RENOPATH_TEST_NATS_URL)`);

// Buckets of this run only (one per TTL), deleted after it, so runs sharing a server never meet.
const run = randomUUID().replaceAll('-', '').slice(0, 12);
const buckets = new Set<string>();
const bucket = (ttlMs: number) => {
  const name = `renopath_test_leases_${run}_${ttlMs}`;
  buckets.add(name);
  return name;
};
const opened: NatsLeaseStore[] = [];
async function open(ttlMs: number, heartbeatMs: number, servers = url): Promise<NatsLeaseStore> {
  const store = await openNatsLeaseStore({ servers, bucket: bucket(ttlMs), ttlMs, heartbeatMs });
  opened.push(store);
  return store;
}

/** A TCP relay to the server that can stop passing bytes without closing: a holder cut off, not told. */
async function freezableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connectTcp({ host: hostname, port: Number(port || 4222) });
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    const end = () => (client.destroy(), upstream.destroy());
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `nats://127.0.0.1:${(server.address() as AddressInfo).port}`,
    freeze: () => void (frozen = true),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const here = dirname(fileURLToPath(import.meta.url));

describe.skipIf(!reachable)('NatsLeaseStore', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children)
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    await Promise.all(opened.splice(0).map((s) => s.close()));
    const nc = await connect({ servers: url });
    const jsm = await jetstreamManager(nc);
    for (const name of buckets) await jsm.streams.delete(`KV_${name}`).catch(() => false);
    await nc.close();
  });

  leaseStoreContract('nats', () => openNatsLeaseStore({ servers: url, bucket: bucket(2000), ttlMs: 2000, heartbeatMs: 200 }));

  it('keeps the lease well past its TTL by renewing it', async () => {
    const [a, b] = [await open(1000, 100), await open(1000, 100)];
    const name = uniqueName('lease');
    const held = (await a.tryAcquire(name))!;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(held.held).toBe(true);
    expect(held.lost.aborted).toBe(false);
    expect(await b.tryAcquire(name)).toBeNull();
  });

  it('takes any visible ASCII name, keeping names that differ apart', async () => {
    const [a, b] = [await open(2000, 200), await open(2000, 200)];
    const run = uniqueName('n');
    const names = [`renopath_${run}:background`, `${run}.a.b`, `${run}_a_b`, `${run}..*>`, `$KV.${run}`, `${run}/"{}"`];
    expect(new Set(names.map(natsLeaseKey)).size).toBe(names.length);
    for (const name of names) expect((await a.tryAcquire(name))?.name).toBe(name);
    for (const name of names) expect(await b.tryAcquire(name)).toBeNull();
  });

  it('hands over from a holder whose connection closed without a release once the key ages out, and tells it at once', async () => {
    const nc = await connect({ servers: url });
    const a = await openNatsLeaseStore({ connection: nc, bucket: bucket(3000), ttlMs: 3000, heartbeatMs: 300 });
    opened.push(a);
    const b = await open(3000, 300);
    const name = uniqueName('lease');
    const held = (await a.tryAcquire(name))!;
    await nc.close();
    expect(held.lost.aborted).toBe(true);
    expect(held.held).toBe(false);
    expect(String(held.lost.reason)).toMatch(/connection closed/);
    // The server still keeps its key: a crash releases nothing, the TTL does.
    expect(await b.tryAcquire(name)).toBeNull();
    let taken: Lease | null = null;
    await vi.waitFor(async () => expect((taken = await b.tryAcquire(name))).not.toBeNull(), { timeout: 15_000, interval: 100 });
    expect(taken!.held).toBe(true);
  });

  it('hands over from a holder SIGKILLed while holding it, once the key ages out', { timeout: 60_000 }, async () => {
    const b = await open(3000, 300);
    const name = uniqueName('lease');
    const child = spawn(findTsx(here), [join(here, 'nats-lease.child.ts'), url, bucket(3000), '3000', '300', name], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    await vi.waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`child exited ${child.exitCode}: ${err}`);
        expect(out).toBe('held\n');
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(await b.tryAcquire(name)).toBeNull();
    const exited = new Promise((resolve) => child.once('close', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    expect(await b.tryAcquire(name)).toBeNull();
    await vi.waitFor(async () => expect((await b.tryAcquire(name))?.held).toBe(true), { timeout: 15_000, interval: 100 });
  });

  it('tells a holder cut off from the server (no close) that it lost the lease before anyone else can take it', async () => {
    const proxy = await freezableProxy(url);
    try {
      const a = await open(1000, 100, proxy.url);
      const b = await open(1000, 100);
      const name = uniqueName('lease');
      const held = (await a.tryAcquire(name))!;
      expect(await b.tryAcquire(name)).toBeNull();
      proxy.freeze();
      let heldWhenTaken: boolean | null = null;
      await vi.waitFor(
        async () => {
          const taken = await b.tryAcquire(name);
          // Read in the same turn as the competitor's success: no window where both believe they hold it.
          if (taken) heldWhenTaken = held.held;
          expect(taken).not.toBeNull();
        },
        { timeout: 15_000, interval: 20 },
      );
      expect(heldWhenTaken).toBe(false);
      expect(held.lost.aborted).toBe(true);
      expect(String(held.lost.reason)).toMatch(/not renewed within 800 ms/);
    } finally {
      await proxy.close();
    }
  });

  it('tells the holder at its next renewal when its key was overwritten behind its back', async () => {
    const a = await open(2000, 200);
    const name = uniqueName('lease');
    const held = (await a.tryAcquire(name))!;
    const nc = await connect({ servers: url });
    try {
      const kv = await new Kvm(nc).open(bucket(2000));
      await kv.put(natsLeaseKey(name), 'an operator or a stray client');
      await vi.waitFor(() => expect(held.lost.aborted).toBe(true), { timeout: 5000, interval: 20 });
      expect(String(held.lost.reason)).toMatch(/taken over or expired/);
      // The key that is not its own stays: giving up never deletes another holder's key.
      expect((await kv.get(natsLeaseKey(name)))?.string()).toBe('an operator or a stray client');
    } finally {
      await nc.close();
    }
  });

  it('refuses to open a bucket made with another TTL, saying how to fix it', async () => {
    await open(1000, 100);
    const error = await rejection(openNatsLeaseStore({ servers: url, bucket: bucket(1000), ttlMs: 2000 }));
    expect(String(error)).toMatch(/keeps keys 1000 ms, this process expects 2000 ms.*same TTL/);
  });
});
