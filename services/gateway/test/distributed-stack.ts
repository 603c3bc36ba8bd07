import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { tcpListening } from '@renopath/platform/testing/listening.ts';

/**
 * The distributed deployment as test processes: the gateway, identity, estates, renovations,
 * calculations (and an optional worker) and reporting, each `node --import tsx` of its own main.ts,
 * talking over the local NATS server in a JetStream stream and subject prefix of their own.
 *
 * `nats-sqlite`: every process keeps SQLite files in its own data dir. `nats-postgres`: every context
 * keeps its event and read stores in one fresh database (schema `renopath_<context>`), created for the
 * stack and dropped by `close()`. The gateway, estates and reporting share one data dir: it stands for
 * the shared volume of the blob store (and of the gateway replicas' idempotency records and signing key).
 */

/**
 * The suite's load-shedding settings (vitest.config.ts `env`: off, since a process's loop lags past the
 * limit while it starts on a busy machine) for a stack whose environment is built rather than inherited;
 * without them its processes shed with the defaults and a test sees 503 where it expects a reply.
 */
export function overloadEnvOfSuite(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('RENOPATH_OVERLOAD_') && e[1] !== undefined),
  );
}

export const NATS_URL = process.env['RENOPATH_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const POSTGRES_URL = process.env['RENOPATH_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The admin token every stack's gateway accepts (the embedded stack's too). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export type DistributedMode = 'nats-sqlite' | 'nats-postgres';
export type Service = 'gateway' | 'identity' | 'estates' | 'renovations' | 'calculations' | 'reporting' | 'worker';
export const SERVICES: readonly Service[] = ['identity', 'estates', 'renovations', 'calculations', 'reporting', 'gateway'];
/** The bounded contexts whose stores `renopath replay` can check. */
export const CONTEXTS = ['identity', 'estates', 'renovations', 'calculations', 'reporting'] as const;

const SCRIPTS: Record<Service, string> = {
  gateway: 'services/gateway/src/main.ts',
  identity: 'services/identity/src/main.ts',
  estates: 'services/estates/src/main.ts',
  renovations: 'services/renovations/src/main.ts',
  calculations: 'services/calculations/src/main.ts',
  reporting: 'services/reporting/src/main.ts',
  worker: 'services/calculations/src/main.ts',
};

/** What each non-HTTP service logs once it serves the bus (its main.ts): its readiness signal. */
const STARTED: Record<Exclude<Service, 'gateway'>, string> = {
  identity: 'identity service started',
  estates: 'estates service started',
  renovations: 'renovations service started',
  calculations: 'calculations service started',
  reporting: 'reporting service started',
  worker: 'calculations service started',
};

/** Why a mode cannot run here (its server is not listening), or null when it can. */
export async function modeUnavailable(mode: DistributedMode): Promise<string | null> {
  if (!(await tcpListening(NATS_URL, 4222))) return `nothing listens on ${NATS_URL}`;
  if (mode === 'nats-postgres' && !(await tcpListening(POSTGRES_URL, 5432))) return `nothing listens on ${POSTGRES_URL}`;
  return null;
}

/**
 * A port free now, for a gateway that listens on it seconds later, once the contexts are up. Taken
 * below the kernel's ephemeral range: a port the kernel hands out (`listen(0)` here, but also any
 * outgoing connection of the tests running beside this one) could be taken again in those seconds,
 * and a gateway once failed to start with EADDRINUSE that way.
 */
export async function freePort(): Promise<number> {
  let ephemeralLow = 32_768; // Linux's default, and where the file is missing (macOS starts at 49152)
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // not Linux
  }
  const high = Math.min(ephemeralLow - 1, 32_767);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (high - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found below the ephemeral range');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

export interface DistributedStackOptions {
  mode: DistributedMode;
  /** Processes per service (default 1 each); `worker` defaults to 0 (calculations then runs its own workers). */
  replicas?: Partial<Record<Service, number>>;
  /** Start order; each is given `startGapMs` to come up without the ones after it. Default: SERVICES. */
  order?: Service[];
  startGapMs?: number;
  /** Environment for every process (a service ignores what it does not read). */
  env?: Record<string, string>;
  /** Environment for one service's processes, over `env`. */
  serviceEnv?: Partial<Record<Service, Record<string, string>>>;
  /** Bootstrap API client identity creates on its first start; random when absent. */
  bootstrap?: { client_id: string; client_secret: string };
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  /** RENOPATH_PUBLIC_URL of every process (links in answers and mails); default: the first gateway's URL. */
  publicUrl?: string;
  /** Resolve once every process serves (default true). */
  waitReady?: boolean;
  readyTimeoutMs?: number;
  /** The NATS server and PostgreSQL server (admin URL) of this stack; default the machine's (NATS_URL, POSTGRES_URL). */
  natsUrl?: string;
  postgresUrl?: string;
}

export interface StackProcess {
  service: Service;
  replica: number;
  child: ChildProcess;
  /** The last 64 KiB of what it wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** Whether it has said it serves (gateway: /ready answered 200 on its port). */
  started: boolean;
}

export interface DistributedStack {
  mode: DistributedMode;
  /** Base URL of each gateway replica. */
  gateways: string[];
  /** The first gateway's URL. */
  url: string;
  /** The data dir of the gateways, estates, reporting and calculations (with its workers): the shared volume of the blob store. */
  sharedDir: string;
  /** Where a context's process keeps its files (`<its data dir>/<context>`). */
  contextDir(context: string): string;
  bootstrap: { client_id: string; client_secret: string };
  adminToken: string;
  /** nats-postgres: the stack's own database. */
  databaseUrl: string | null;
  stream: string;
  prefix: string;
  processes(): StackProcess[];
  /** Stops one process (SIGKILL: a crash) and waits until it is gone. */
  kill(service: Service, replica?: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped process again on its own data dir (and port), resolving once it serves. */
  start(service: Service, replica?: number): Promise<void>;
  restart(
    service: Service,
    options?: { replica?: number; signal?: NodeJS.Signals; beforeStart?: () => void | Promise<void> },
  ): Promise<void>;
  /** Every process serves and every gateway answers /ready. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** The environment `renopath replay` / `export` need to open `context`'s stores. */
  storeEnv(context: string): Record<string, string>;
  /** SIGTERM to every process, waiting for each (SIGKILL after 10 s); the stores stay, for offline checks. */
  stopProcesses(): Promise<void>;
  /** Stops the processes and removes the data dirs, the JetStream stream and the database. */
  close(): Promise<void>;
  /** A token of the bootstrap client, asked for until identity answers (60 s at most). */
  token(): Promise<string>;
  /** The last lines each process logged at level error or above (pino level >= 50), for a failure's message. */
  errorLines(): string;
}

interface Slot {
  service: Service;
  replica: number;
  env: Record<string, string>;
  process: StackProcess | null;
  port?: number;
}

const OUTPUT_LIMIT = 64 * 1024;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exited = (child: ChildProcess) => new Promise<void>((r) => (alive(child) ? child.once('exit', () => r()) : r()));

async function adminQuery(sql: string, url = POSTGRES_URL) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the processes of one distributed stack; `close()` stops them and removes everything it made. */
export async function startDistributedStack(options: DistributedStackOptions): Promise<DistributedStack> {
  const { mode } = options;
  const natsUrl = options.natsUrl ?? NATS_URL;
  const postgresUrl = options.postgresUrl ?? POSTGRES_URL;
  const run = randomUUID().replace(/-/g, '').slice(0, 12);
  const stream = `RENOPATH_TEST_${run}`;
  const prefix = `t${run}`;
  const replicas = (service: Service) => options.replicas?.[service] ?? (service === 'worker' ? 0 : 1);
  if (mode === 'nats-sqlite') {
    for (const service of ['identity', 'estates', 'renovations', 'calculations', 'reporting'] as Service[]) {
      // Each SQLite data dir is one process's: two replicas would be two diverging copies of the context.
      if (replicas(service) > 1)
        throw new Error(`nats-sqlite: ${service} cannot have replicas (its SQLite files are one process's); use nats-postgres`);
    }
  }
  const bootstrap = options.bootstrap ?? { client_id: randomUUID(), client_secret: randomUUID().replace(/-/g, '').repeat(2) };
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'renopath-dist-'));
    dirs.push(dir);
    return dir;
  };
  let databaseUrl: string | null = null;
  let database: string | null = null;
  if (mode === 'nats-postgres') {
    database = `renopath_e2e_${run}`;
    await adminQuery(`CREATE DATABASE "${database}"`, postgresUrl);
    const url = new URL(postgresUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }

  const gatewayPorts: number[] = [];
  for (let i = 0; i < replicas('gateway'); i++) gatewayPorts.push(await freePort());
  const gateways = gatewayPorts.map((port) => `http://127.0.0.1:${port}`);
  if (gateways.length === 0) throw new Error('a stack needs at least one gateway');
  const url = gateways[0]!;
  const shared = newDir();
  const logLevel = options.logLevel ?? 'info';
  const stores: Record<string, string> = databaseUrl ? { RENOPATH_EVENT_STORE: databaseUrl, RENOPATH_READ_STORE: databaseUrl } : {};
  const base: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    RENOPATH_BUS: natsUrl,
    RENOPATH_NATS_STREAM: stream,
    RENOPATH_NATS_PREFIX: prefix,
    RENOPATH_PUBLIC_URL: options.publicUrl ?? url,
    RENOPATH_ADMIN_TOKEN: ADMIN_TOKEN,
    RENOPATH_RATE_LIMIT_PER_SECOND: '0',
    ...overloadEnvOfSuite(),
    ...stores,
    ...options.env,
  };

  const secretsKey = randomBytes(32).toString('hex');
  const slots: Slot[] = [];
  const order = options.order ?? [...SERVICES, ...(replicas('worker') > 0 ? (['worker'] as Service[]) : [])];
  // One data dir per context, shared by its replicas (PostgreSQL holds their stores; the dir keeps e.g. identity's keys).
  const contextDirs = new Map<Service, string>();
  const dirOf = (service: Service) => {
    // The blob store's volume: calculations and its workers read the portfolio uploads the gateway stored.
    if (['gateway', 'estates', 'reporting', 'calculations', 'worker'].includes(service)) return shared;
    const key = service;
    if (!contextDirs.has(key)) contextDirs.set(key, newDir());
    return contextDirs.get(key)!;
  };
  for (const service of order) {
    for (let replica = 0; replica < replicas(service); replica++) {
      const env: Record<string, string> = {
        ...base,
        RENOPATH_DATA_DIR: dirOf(service),
        LOG_LEVEL: service === 'gateway' ? 'warn' : logLevel,
      };
      // One secrets key for every identity replica, as a deployment gives them: it seals the webhook secrets and the signing keys.
      if (service === 'identity')
        Object.assign(env, {
          RENOPATH_BOOTSTRAP_CLIENT_ID: bootstrap.client_id,
          RENOPATH_BOOTSTRAP_CLIENT_SECRET: bootstrap.client_secret,
          RENOPATH_SECRETS_KEY: secretsKey,
        });
      if (service === 'calculations' && replicas('worker') > 0) env['RENOPATH_CALCULATION_WORKERS'] = '0';
      if (service === 'worker') env['RENOPATH_CALCULATIONS_ROLE'] = 'worker';
      if (service === 'gateway') Object.assign(env, { PORT: String(gatewayPorts[replica]), HOST: '127.0.0.1' });
      Object.assign(env, options.serviceEnv?.[service] ?? {});
      // Which process a log line came from, for failure messages and stray-process hunts.
      env['RENOPATH_TEST_PROCESS'] = `${service}-${replica}-${run}`;
      slots.push({ service, replica, env, process: null, ...(service === 'gateway' ? { port: gatewayPorts[replica]! } : {}) });
    }
  }

  const spawnSlot = (slot: Slot) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, SCRIPTS[slot.service])], {
      cwd: ROOT,
      env: slot.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const proc: StackProcess = { service: slot.service, replica: slot.replica, child, output: () => output, started: false };
    const marker = slot.service === 'gateway' ? null : `"msg":"${STARTED[slot.service]}"`;
    const echo = process.env['RENOPATH_E2E_LOGS'] === '1';
    const take = (chunk: string) => {
      output = (output + chunk).slice(-OUTPUT_LIMIT);
      if (marker && !proc.started && output.includes(marker)) proc.started = true;
      if (echo)
        process.stderr.write(
          chunk
            .split('\n')
            .filter(Boolean)
            .map((l) => `[${slot.service}-${slot.replica}] ${l}\n`)
            .join(''),
        );
    };
    child.stdout!.setEncoding('utf8').on('data', take);
    child.stderr!.setEncoding('utf8').on('data', take);
    slot.process = proc;
    return proc;
  };

  const gatewayReady = async (port: number) => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) });
      // Ready means it can serve; the stack is up once it also sees every context.
      if (res.status !== 200) return false;
      const { contexts } = (await res.json()) as { contexts: Record<string, string> };
      return Object.values(contexts).every((state) => state === 'reachable');
    } catch {
      return false;
    }
  };

  const describeFailure = (slot: Slot) => {
    const p = slot.process!;
    return `${slot.service}#${slot.replica} exited (code ${p.child.exitCode}, signal ${p.child.signalCode}):\n${p.output().slice(-4000)}`;
  };

  const waitSlots = async (wanted: Slot[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let pending = 0;
      for (const slot of wanted) {
        const p = slot.process!;
        if (!alive(p.child)) throw new Error(describeFailure(slot));
        if (!p.started && slot.port !== undefined && (await gatewayReady(slot.port))) p.started = true;
        if (!p.started) pending++;
      }
      if (pending === 0) return;
      if (Date.now() > deadline) {
        const waiting = wanted
          .filter((s) => !s.process!.started)
          .map((s) => `${s.service}#${s.replica}: ${s.process!.output().slice(-1500)}`);
        throw new Error(`the distributed stack did not become ready in ${timeoutMs} ms; still waiting for:\n${waiting.join('\n')}`);
      }
      await delay(200);
    }
  };

  const slotOf = (service: Service, replica: number) => {
    const slot = slots.find((s) => s.service === service && s.replica === replica);
    if (!slot) throw new Error(`no ${service} #${replica} in this stack`);
    return slot;
  };

  const readyTimeout = options.readyTimeoutMs ?? 120_000;
  const stack: DistributedStack = {
    mode,
    gateways,
    url,
    sharedDir: shared,
    contextDir: (context) => join(dirOf(context === 'worker' ? 'calculations' : (context as Service)), context),
    bootstrap,
    adminToken: ADMIN_TOKEN,
    databaseUrl,
    stream,
    prefix,
    processes: () => slots.flatMap((s) => (s.process ? [s.process] : [])),
    async kill(service, replica = 0, signal = 'SIGKILL') {
      const { child } = slotOf(service, replica).process!;
      if (alive(child)) child.kill(signal);
      await exited(child);
    },
    async start(service, replica = 0) {
      const slot = slotOf(service, replica);
      if (slot.process && alive(slot.process.child)) throw new Error(`${service} #${replica} is still running`);
      spawnSlot(slot);
      await waitSlots([slot], readyTimeout);
    },
    async restart(service, { replica = 0, signal = 'SIGTERM', beforeStart } = {}) {
      await stack.kill(service, replica, signal);
      await beforeStart?.();
      await stack.start(service, replica);
    },
    async waitReady(timeoutMs = readyTimeout) {
      await waitSlots(slots, timeoutMs);
      // /ready of a gateway that started early may have been answered before every context was up.
      const deadline = Date.now() + timeoutMs;
      for (const port of gatewayPorts) {
        while (!(await gatewayReady(port))) {
          if (Date.now() > deadline) throw new Error(`gateway on ${port} never answered /ready`);
          await delay(200);
        }
      }
    },
    storeEnv(context) {
      const dir = mode === 'nats-sqlite' ? dirOf(context as Service) : newDirOnce();
      return { RENOPATH_DATA_DIR: dir, ...stores, LOG_LEVEL: 'silent' };
    },
    async stopProcesses() {
      await Promise.all(
        slots.map(async (slot) => {
          const child = slot.process?.child;
          if (!child) return;
          if (alive(child)) child.kill('SIGTERM');
          let timer: NodeJS.Timeout | undefined;
          const stopped = await Promise.race([
            exited(child).then(() => true),
            new Promise<false>((r) => (timer = setTimeout(() => r(false), 10_000))),
          ]);
          clearTimeout(timer);
          if (!stopped) {
            child.kill('SIGKILL');
            await exited(child);
          }
        }),
      );
    },
    async token() {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await fetch(`${url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'x-service-client-id': bootstrap.client_id, 'x-service-client-secret': bootstrap.client_secret },
        }).catch(() => null);
        if (res?.status === 200) return ((await res.json()) as { access_token: string }).access_token;
        if (Date.now() > deadline) throw new Error(`no token: ${res?.status}`);
        await delay(250);
      }
    },
    errorLines() {
      return slots
        .flatMap((slot) => (slot.process ? [slot.process] : []))
        .flatMap((p) =>
          p
            .output()
            .split('\n')
            .filter((line) => /"level":(5|6)0/.test(line))
            .slice(-5)
            .map((line) => `[${p.service}#${p.replica}] ${line.slice(0, 600)}`),
        )
        .join('\n');
    },
    async close() {
      await stack.stopProcesses();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      try {
        const { connect } = await import('@nats-io/transport-node');
        const { jetstreamManager } = await import('@nats-io/jetstream');
        const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 2000 });
        const jsm = await jetstreamManager(nc);
        await jsm.streams.delete(stream).catch(() => undefined);
        // Where events over NATS's max_payload are kept, when there were any.
        await jsm.streams.delete(`OBJ_${stream}_large`).catch(() => undefined);
        await nc.close();
      } catch {
        // the server is gone: nothing of ours is left on it either
      }
      if (database) await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`, postgresUrl).catch(() => undefined);
    },
  };
  let scratchDir: string | null = null;
  function newDirOnce() {
    scratchDir ??= newDir();
    return scratchDir;
  }

  try {
    const gap = options.startGapMs ?? 0;
    for (const [i, service] of order.entries()) {
      for (const slot of slots.filter((s) => s.service === service)) spawnSlot(slot);
      if (gap > 0 && i < order.length - 1) await delay(gap);
    }
    if (options.waitReady !== false) await stack.waitReady();
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}
