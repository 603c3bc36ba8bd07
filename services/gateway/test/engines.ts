import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { tcpListening } from '@renopath/platform/testing/listening.ts';
import { freePort } from './distributed-stack.ts';

/**
 * A NATS server and a PostgreSQL cluster of a test's own, in a temporary folder on free ports, so the
 * test can stop and start them (the machine's servers are shared with other suites). Each `stop()`
 * takes its engine down as an operator or a crash would, and `start()` brings it back on the same
 * port with the same data.
 */
export interface OwnEngine {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

/** Starts an engine the first time, and hands out its controls. */
async function started(engine: { url: string; dir: string; start(): Promise<void>; stop(): Promise<void> }): Promise<OwnEngine> {
  await engine.start();
  return {
    url: engine.url,
    start: engine.start,
    stop: engine.stop,
    async close() {
      await engine.stop();
      rmSync(engine.dir, { recursive: true, force: true });
    },
  };
}

export const natsServerBinary = ['nats-server', '/usr/sbin/nats-server', '/usr/local/bin/nats-server'].find(
  (bin) => !spawnSync(bin, ['--version']).error,
);

/** The folder of initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/<version>/bin (the newest). */
export const postgresBinDir: string | undefined = (() => {
  const onPath = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (!onPath.error && onPath.status === 0 && existsSync(join(onPath.stdout.trim(), 'initdb'))) return onPath.stdout.trim();
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
})();

export async function startOwnNats(): Promise<OwnEngine> {
  if (!natsServerBinary) throw new Error('no nats-server binary');
  const dir = mkdtempSync(join(tmpdir(), 'renopath-faults-nats-'));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const start = async () => {
    server = spawn(natsServerBinary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'js')], { stdio: 'ignore' });
    await until(`nats-server on ${port}`, () => tcpListening(url, port), 30_000);
  };
  const stop = async () => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  return started({ url, dir, start, stop });
}

/** The uid/gid initdb and postgres run as: they refuse to run as root, so under root the `postgres` user's. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root, and there is no postgres user for initdb');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(bin: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
      env: { PATH: process.env['PATH'] ?? '', LANG: 'C', LC_ALL: 'C' },
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} ${args.join(' ')} exited with ${code}: ${out}`))));
  });
}

/** A PostgreSQL cluster (trust authentication, user postgres) with room for a stack's pools. */
export async function startOwnPostgres(): Promise<OwnEngine> {
  if (!postgresBinDir) throw new Error('no initdb/pg_ctl on this machine');
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'renopath-faults-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await run(join(postgresBinDir, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], user);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c max_connections=200',
    '-c fsync=off',
    '-c shared_buffers=32MB',
  ].join(' ');
  const pgCtl = join(postgresBinDir, 'pg_ctl');
  const start = async () => {
    await run(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'], user);
    await until(
      `PostgreSQL on ${port}`,
      async () => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      60_000,
    );
  };
  // Fast: every session is ended with an error, as a restart for maintenance or a failover does.
  const stop = async () => {
    await run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'], user).catch((error: Error) => {
      if (!/not running|No such file|does not exist/i.test(error.message)) throw error;
    });
  };
  return started({ url, dir, start, stop });
}
