import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN } from './stack.ts';
import { findTsx } from '@renopath/platform/testing/tsx.ts';

const here = dirname(fileURLToPath(import.meta.url));

export const CHILD_CLIENT = { client_id: '0b6f3a4e-6c55-4d7e-9a51-3f1c2b8d9e70', client_secret: 'c'.repeat(64) };

export interface ServiceChild {
  url: string;
  process: ChildProcess;
  /** Resolves with the signal that ended it. */
  exited: Promise<NodeJS.Signals | null>;
  kill(): Promise<void>;
  stderr(): string;
  /** What it printed on stdout so far (its log lines, at LOG_LEVEL=info and below). */
  stdout(): string;
}

/** The embedded service as a real process on `dataDir` (see service-child.ts), once it listens. */
export async function startChild(dataDir: string, env: Record<string, string> = {}): Promise<ServiceChild> {
  const child = spawn(findTsx(here), [join(here, 'service-child.ts')], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      RENOPATH_DATA_DIR: dataDir,
      RENOPATH_ADMIN_TOKEN: ADMIN_TOKEN,
      RENOPATH_RATE_LIMIT_PER_SECOND: '0',
      RENOPATH_BOOTSTRAP_CLIENT_ID: CHILD_CLIENT.client_id,
      RENOPATH_BOOTSTRAP_CLIENT_SECRET: CHILD_CLIENT.client_secret,
      LOG_LEVEL: 'silent',
      // Every context on the main thread: threads are context-threads.e2e's subject, and each one loads the
      // services' modules again (a start took some twice the CPU with them). A test that needs them says so.
      RENOPATH_CONTEXT_THREADS: 'none',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
  const port = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /listening (\d+)/.exec(stdout);
      if (match) return resolve(match[1]!);
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`service child exited: ${stderr}`));
      setTimeout(look, 20);
    };
    look();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
    async kill() {
      // tsx runs the script in a grandchild: the whole process group goes.
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/** A bearer token for the bootstrap client of a child service. */
export async function childToken(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'x-service-client-id': CHILD_CLIENT.client_id, 'x-service-client-secret': CHILD_CLIENT.client_secret },
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A keyed JSON POST; `null` when the connection died before an answer (the process was killed). */
export async function keyedPost(url: string, token: string, path: string, body: unknown, key: string) {
  try {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}
