import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The bus probe against a real NATS server with its monitor on, and a real service process: the
 * local NATS has no monitoring port, so this starts its own nats-server on free ports.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const PROBE = join(ROOT, 'deploy', 'probe', 'bus-probe.mjs');
const natsBinary = ['nats-server', '/usr/sbin/nats-server', '/usr/local/bin/nats-server'].find(
  (bin) => !spawnSync(bin, ['--version']).error,
);
if (!natsBinary) console.warn('[skip] bus probe against NATS: no nats-server binary on this machine');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const runProbe = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [PROBE, ...args], { env: { ...process.env, RENOPATH_NATS_PREFIX: '', ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out: out.trim() }));
  });

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!natsBinary)('bus probe against a NATS server', () => {
  let server: ChildProcess;
  let dir: string;
  let clientPort: number;
  let monitor: string;
  const connections: NatsConnection[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'renopath-probe-'));
    clientPort = await freePort();
    const monitorPort = await freePort();
    monitor = `http://127.0.0.1:${monitorPort}`;
    server = spawn(natsBinary!, ['-a', '127.0.0.1', '-p', String(clientPort), '-m', String(monitorPort), '-js', '-sd', join(dir, 'js')], {
      stdio: 'ignore',
    });
    await until('nats-server', async () => (await fetch(`${monitor}/healthz`).catch(() => null))?.ok === true, 15_000);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close().catch(() => {})));
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (server?.exitCode === null) server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails while nothing of that name is connected, passes once it serves its context, fails once it is gone', async () => {
    const args = ['--monitor', monitor, '--name', 'estates', '--serves', 'estates'];
    const before = await runProbe(args, { RENOPATH_NATS_PREFIX: 'itest' });
    expect(before.code).toBe(1);
    expect(before.out).toMatch(/no NATS connection named "estates" from this host/);

    const nc = await connect({ servers: `nats://127.0.0.1:${clientPort}`, name: 'estates' });
    connections.push(nc);
    const connectedOnly = await runProbe(args, { RENOPATH_NATS_PREFIX: 'itest' });
    expect(connectedOnly).toEqual({
      code: 1,
      out: 'connected to NATS as "estates" but not (yet) subscribed to itest.cmd.estates.* or itest.qry.estates.*',
    });

    nc.subscribe('itest.cmd.estates.create-estate', { queue: 'renopath', callback: () => {} });
    await nc.flush();
    expect(await runProbe(args, { RENOPATH_NATS_PREFIX: 'itest' })).toEqual({
      code: 0,
      out: 'connected to NATS as "estates" and serving estates',
    });
    // Another context's subjects are not this one's.
    expect(
      (await runProbe(['--monitor', monitor, '--name', 'estates', '--serves', 'renovations'], { RENOPATH_NATS_PREFIX: 'itest' })).code,
    ).toBe(1);

    await nc.close();
    expect((await runProbe(args, { RENOPATH_NATS_PREFIX: 'itest' })).code).toBe(1);
  });

  it('recognises a real service process (renovations) by the name and subjects it uses, and notices it killed', async () => {
    const service = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/renovations/src/main.ts')], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        ...process.env,
        RENOPATH_DATA_DIR: join(dir, 'data'),
        RENOPATH_BUS: `nats://127.0.0.1:${clientPort}`,
        RENOPATH_NATS_STREAM: 'PROBE_TEST',
        RENOPATH_NATS_PREFIX: 'probe',
        LOG_LEVEL: 'silent',
      },
    });
    children.push(service);
    const args = ['--monitor', monitor, '--name', 'renovations', '--serves', 'renovations'];
    await until(
      'the renovations service to pass its probe',
      async () => (await runProbe(args, { RENOPATH_NATS_PREFIX: 'probe' })).code === 0,
      45_000,
    );
    // The prefix is part of what the probe checks: without it the subjects do not match.
    expect((await runProbe(args)).code).toBe(1);

    service.kill('SIGKILL');
    await until(
      'the probe to notice the killed service',
      async () => (await runProbe(args, { RENOPATH_NATS_PREFIX: 'probe' })).code === 1,
      10_000,
    );
  }, 60_000);

  it("with --live passes while the monitor cannot be reached (not the process's fault); readiness fails", async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const live = await runProbe(['--monitor', unreachable, '--name', 'estates', '--live', '--timeout-ms', '1000']);
    expect(live.code).toBe(0);
    expect(live.out).toMatch(/cannot be reached .*passing/);
    const ready = await runProbe(['--monitor', unreachable, '--name', 'estates', '--timeout-ms', '1000']);
    expect(ready.code).toBe(1);
    expect(ready.out).toMatch(/cannot be reached/);
  });

  it('exits 2 on bad arguments', async () => {
    const bad = await runProbe(['--name', 'estates']);
    expect(bad.code).toBe(2);
    expect(bad.out).toMatch(/--monitor must be/);
  });
});
