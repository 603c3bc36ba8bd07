import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { startEmbedded } from '../src/embedded.ts';
import { gatewayRoutes } from '../src/routes/index.ts';
import { inject } from 'vitest';
import {
  ADMIN_TOKEN,
  overloadEnvOfSuite,
  startDistributedStack,
  type DistributedMode,
  type DistributedStack,
  type DistributedStackOptions,
} from './distributed-stack.ts';
import { ReplySchemas } from './reply-schemas.ts';
import { PUBLIC_URL, replicaCounts, type SharedStackInfo } from './shared-stack.ts';

export { ADMIN_TOKEN };

/**
 * Which deployment `startStack()` starts (RENOPATH_E2E_STACK): `embedded` (the default: one process,
 * driven through fastify.inject), or `nats-sqlite` / `nats-postgres` (every service its own process
 * over NATS, driven over real HTTP through an inject-compatible client; see distributed-stack.ts).
 */
export type StackMode = 'embedded' | DistributedMode;
export const STACK_MODE: StackMode = parseMode(process.env['RENOPATH_E2E_STACK']);

function parseMode(value: string | undefined): StackMode {
  if (value === undefined || value === '' || value === 'embedded') return 'embedded';
  if (value === 'nats-sqlite' || value === 'nats-postgres') return value;
  throw new Error(`RENOPATH_E2E_STACK=${value}: expected embedded, nats-sqlite or nats-postgres`);
}

const warned = new Set<string>();
/**
 * For `describe.skipIf` / `it.skipIf`: true (and a visible `[skip]` line) when the stack is distributed
 * and the test needs what only the embedded process has (its objects, its bus, its files).
 */
export function embeddedOnly(uses: string): boolean {
  if (STACK_MODE === 'embedded') return false;
  if (!warned.has(uses)) {
    warned.add(uses);
    console.warn(`[skip] embedded-only in ${STACK_MODE}: uses ${uses}`);
  }
  return true;
}

type Embedded = Awaited<ReturnType<typeof startEmbedded>>;
export type Stack = Awaited<ReturnType<typeof startStack>>;

/** What the tests read of an inject answer; the distributed client answers the same. */
export interface InjectReply {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  payload: string;
  rawPayload: Buffer;
  json(): any;
}

/** The part of a fastify instance tests drive; `inject` goes over HTTP in the distributed modes. */
export interface StackApp {
  inject(options: InjectOptions): Promise<InjectReply>;
}

export interface Part {
  name: string;
  content: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** Builds a multipart/form-data body by hand, so tests control every byte (and can break it). */
export function multipart(parts: Part[], boundary = '----renopath-test-boundary-7d1c') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The whole service: embedded (the default) or distributed, per RENOPATH_E2E_STACK. Embedded, it is
 * a process of its own on fresh storage. Distributed, a call without settings of its own is given the
 * project's shared stack (shared-stack.ts, started once by vitest's globalSetup) and, as `bootstrap`,
 * a fresh organization with its owner and API client: the files sharing the stack are apart as two
 * customers are. `own: true` (or any settings) starts a stack for the caller alone.
 * The distributed stack answers the same surface, but `running` (the embedded process's objects)
 * is null there: tests that need it are marked with `embeddedOnly`.
 */
export async function startStack(
  env: Record<string, string> = {},
  options: { mode?: StackMode; own?: boolean; distributed?: Partial<DistributedStackOptions> } = {},
) {
  const mode = options.mode ?? STACK_MODE;
  if (mode === 'embedded') return surface(await embeddedBackend(env));
  const shared = inject('renopathSharedStack');
  const alone =
    options.own || options.distributed !== undefined || Object.entries(env).some(([name, value]) => shared?.env[name] !== value);
  if (shared && shared.mode === mode && !alone) return surface(await sharedBackend(shared));
  return surface(await distributedBackend(mode, env, options.distributed ?? {}));
}

interface Backend {
  app: StackApp;
  /** The embedded process's objects; null when the services run as their own processes. */
  running: Embedded | null;
  /** The distributed stack's processes; null when embedded, or shared by the project's files. */
  distributed: DistributedStack | null;
  mode: StackMode;
  bootstrap: { client_id: string; client_secret: string; organization_id: string; user_id: string; email_address: string };
  /** The data dir of the gateway (and of the blob store it shares with estates and reporting). */
  dataDir: string;
  /** Where a context keeps its files (keys, secrets, SQLite files). */
  contextDir(context: string): string;
  close(): Promise<void>;
}

async function embeddedBackend(env: Record<string, string>): Promise<Backend> {
  const dataDir = mkdtempSync(join(tmpdir(), 'renopath-test-'));
  const running = await startEmbedded(
    {
      RENOPATH_DATA_DIR: dataDir,
      RENOPATH_ADMIN_TOKEN: ADMIN_TOKEN,
      RENOPATH_RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'silent',
      // The contexts on the main thread: threads are what context-threads.e2e (and the Node 22 run) test,
      // and on two shared cores every thread started per file costs start-up time (a test sets it to override).
      RENOPATH_CONTEXT_THREADS: 'none',
      // A service slow to answer on a busy machine is not a dead one: tests wait for the answer (those that
      // test the 503 of a dead service set their own).
      RENOPATH_BUS_TIMEOUT_MS: '60000',
      ...overloadEnvOfSuite(),
      ...env,
    },
    { wireFidelity: true },
  );
  return {
    app: running.gateway.app as unknown as StackApp,
    running,
    distributed: null,
    mode: 'embedded',
    bootstrap: { ...running.bootstrap!, email_address: BOOTSTRAP_OWNER },
    dataDir,
    contextDir: (context) => join(dataDir, context),
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function distributedBackend(
  mode: DistributedMode,
  env: Record<string, string>,
  options: Partial<DistributedStackOptions>,
): Promise<Backend> {
  const replicas = mode === 'nats-postgres' ? replicaCounts() : {};
  const stack = await startDistributedStack({ mode, replicas, publicUrl: PUBLIC_URL, ...options, env: { ...env, ...options.env } });
  try {
    const app = httpApp(stack.gateways);
    const { client_id, client_secret } = stack.bootstrap;
    const token = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': client_id, 'x-service-client-secret': client_secret },
    });
    if (token.statusCode !== 200) throw new Error(`bootstrap token: ${token.statusCode} ${token.body}`);
    const me = await app.inject({ method: 'GET', url: '/v1/users/me', headers: { authorization: `Bearer ${token.json().access_token}` } });
    const user = me.json()[0] as { id: string; organizations: Array<{ organization_id: string }> };
    return {
      app,
      running: null,
      distributed: stack,
      mode,
      bootstrap: {
        client_id,
        client_secret,
        organization_id: user.organizations[0]!.organization_id,
        user_id: user.id,
        email_address: BOOTSTRAP_OWNER,
      },
      dataDir: stack.sharedDir,
      contextDir: (context) => stack.contextDir(context),
      close: () => stack.close(),
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}

/** The owner identity creates on a first start (its bootstrap organization). */
const BOOTSTRAP_OWNER = 'demo@renopath.example';

let tenants = 0;
/** The project's shared stack, seen through a fresh tenant of its own (see `startStack`). */
async function sharedBackend(shared: SharedStackInfo): Promise<Backend> {
  const app = httpApp(shared.gateways);
  const tag = `${process.pid}-${++tenants}-${Date.now().toString(36)}`;
  const email_address = `owner-${tag}@tenants.example`;
  const created = await app.inject({
    method: 'POST',
    url: '/admin/organizations',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: `Test organization ${tag}`, country: 'BE', owner: { email_address, first_name: 'Demo', last_name: 'User' } },
  });
  if (created.statusCode !== 201) throw new Error(`shared stack: the file's tenant: ${created.statusCode} ${created.body}`);
  const body = created.json() as { organization: { id: string }; user: { id: string }; client_id: string; client_secret: string };
  return {
    app,
    running: null,
    distributed: null,
    mode: shared.mode,
    bootstrap: {
      client_id: body.client_id,
      client_secret: body.client_secret,
      organization_id: body.organization.id,
      user_id: body.user.id,
      email_address,
    },
    dataDir: shared.sharedDir,
    contextDir: (context) => shared.contextDirs[context]!,
    // The stack is the project's: globalSetup stops it after the last file.
    close: async () => undefined,
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * `inject` over real HTTP, to the gateways in turn (as a load balancer would): the request goes as
 * given (no header added but host and content-length), the reply comes back in inject's shape.
 * An absolute URL is sent to the stack whatever its origin (the public URL stands for the balancer).
 */
export function httpApp(gateways: string[]): StackApp {
  let next = 0;
  return {
    inject(options: InjectOptions) {
      const base = new URL(gateways[next++ % gateways.length]!);
      const given = typeof options.url === 'string' ? options.url : ((options.url as { pathname?: string })?.pathname ?? '/');
      const target = new URL(given, base);
      let path = target.pathname + target.search;
      if (options.query) {
        const extra = new URLSearchParams(options.query as Record<string, string>).toString();
        if (extra) path += (target.search ? '&' : '?') + extra;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(options.headers ?? {}))
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
      let body: Buffer | undefined;
      const payload = options.payload ?? options.body;
      if (payload !== undefined && payload !== null) {
        if (Buffer.isBuffer(payload)) body = payload;
        else if (typeof payload === 'string') body = Buffer.from(payload);
        else {
          // As light-my-request: an object is sent as JSON, with that content type unless one is given.
          body = Buffer.from(JSON.stringify(payload));
          headers['content-type'] ??= 'application/json';
        }
      }
      if (body) headers['content-length'] = String(body.length);
      return new Promise<InjectReply>((resolve, reject) => {
        const req = httpRequest({ host: base.hostname, port: base.port, method: options.method ?? 'GET', path, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const rawPayload = Buffer.concat(chunks);
            const text = rawPayload.toString('utf8');
            resolve({
              statusCode: res.statusCode ?? 0,
              headers: res.headers,
              body: text,
              payload: text,
              rawPayload,
              json: () => JSON.parse(text),
            });
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    },
  };
}

/**
 * Every suite's answers against `/openapi.json`: a 2xx reply whose JSON body does not match the schema
 * its operation declares (a field the closed schema lacks, a wrong type) fails the call that got it, so
 * a generated client's view of the API is tested by every test that reads a reply.
 * RENOPATH_CHECK_REPLIES=0 turns it off (to look at a reply the document does not describe yet).
 */
function checkingReplies(app: StackApp): StackApp {
  if (process.env['RENOPATH_CHECK_REPLIES'] === '0') return app;
  let schemas: Promise<ReplySchemas> | null = null;
  const inject = app.inject.bind(app);
  const check = async (options: InjectOptions, res: InjectReply): Promise<InjectReply> => {
    const method = String(options.method ?? 'GET').toUpperCase();
    const url = typeof options.url === 'string' ? options.url : '';
    if (res.statusCode < 200 || res.statusCode >= 300 || !url.startsWith('/') || method === 'HEAD') return res;
    schemas ??= inject({ method: 'GET', url: '/openapi.json' }).then((doc) => new ReplySchemas(doc.json()));
    const replies = await schemas;
    const template = replies.templateOf(method, url);
    if (!template || !replies.doc['paths'][template]?.[method.toLowerCase()]) return res;
    const problems = replies.check(method, template, res);
    if (problems.length > 0) throw new Error(`the reply does not match /openapi.json: ${problems.join('; ')}`);
    return res;
  };
  return new Proxy(app, {
    get(target, key, receiver) {
      if (key === 'inject') return (options: InjectOptions) => inject(options).then((res) => check(options, res));
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function surface(backend: Backend) {
  const { bootstrap, dataDir } = backend;
  // Typed as the embedded objects so the suites read them as before; in the distributed modes `app` is
  // the HTTP client above and `running` is null, which only tests marked `embeddedOnly` would touch.
  const app = checkingReplies(backend.app) as unknown as Embedded['gateway']['app'];
  const running = backend.running as Embedded;

  const token = async (client_id = bootstrap.client_id, client_secret = bootstrap.client_secret) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'x-service-client-id': client_id, 'x-service-client-secret': client_secret },
    });
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  };

  const admin = (method: 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(payload ? { payload: payload as object } : {}) });

  /** A second tenant: an organization with its owner, their client and a token. */
  const tenant = async (name: string, email: string) => {
    const res = await admin('POST', '/admin/organizations', {
      name,
      country: 'NL',
      owner: { email_address: email, first_name: 'Olga', last_name: 'Owner' },
    });
    if (res.statusCode !== 201) throw new Error(`tenant: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return { ...body, token: await token(body.client_id, body.client_secret) };
  };

  const as = (bearer: string) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } }),
    post: (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}` }, payload: payload as object }),
    patch: (url: string, payload: unknown) =>
      app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${bearer}` }, payload: payload as object }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${bearer}` } }),
    /** A multipart/form-data POST built from parts (see `multipart`). */
    upload: (url: string, parts: Part[]) => {
      const { payload, contentType } = multipart(parts);
      return app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType }, payload });
    },
    /** A POST with raw bytes and a content type of the test's choosing (malformed bodies). */
    raw: (url: string, payload: Buffer | string, contentType: string) =>
      app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType }, payload }),
  });

  /** A token for a new API client of an existing user, with the scopes given. */
  const clientToken = async (user_id: string, scopes?: string[]) => {
    const res = await admin('POST', '/admin/api-clients', { user_id, ...(scopes ? { scopes } : {}) });
    if (res.statusCode !== 201) throw new Error(`client: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return token(body.client_id, body.client_secret);
  };

  return {
    app,
    running,
    /** The distributed stack's processes (kill, restart, store environments); null when embedded. */
    distributed: backend.distributed,
    mode: backend.mode,
    bootstrap,
    dataDir,
    contextDir: backend.contextDir,
    /** Every route of the gateway's table. */
    routes: backend.running?.gateway.routes ?? gatewayRoutes,
    token,
    admin,
    tenant,
    as,
    clientToken,
    close: backend.close,
  };
}
