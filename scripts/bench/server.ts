import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { THIS_CHECKOUT } from './reference.ts';

/** What the bench server (gateway-server.ts) announces once it listens. */
export interface Ready {
  gatewayPort: number;
  barePort: number;
  client_id: string;
  client_secret: string;
}

/**
 * Starts the servers under benchmark in their own process (so the load generator does not share
 * their event loop) and waits until they listen. `server.send('stop')` ends it.
 */
export async function startBenchServer(
  env: Record<string, string> = {},
  root: string = THIS_CHECKOUT,
): Promise<{ server: ChildProcess; ready: Ready }> {
  // `root`: another checkout (a BENCH_REFERENCE) runs its own bench server, with its own code and dependencies.
  const server = fork(join(root, 'scripts/bench/gateway-server.ts'), {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Ready));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { server, ready };
}

/**
 * A bearer token for the bench's client. A server that has just started may shed a request with 503
 * while its event loop is still busy with startup (the overload guard reads a loop that took no sample
 * as blocked): asked again after its `Retry-After`, for up to a minute. Any other refusal stops the bench
 * with the answer, rather than sending every request with `Bearer undefined` and reading 401s.
 */
export async function benchToken(ready: Ready): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${ready.gatewayPort}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'x-service-client-id': ready.client_id, 'x-service-client-secret': ready.client_secret },
    });
    if (res.ok) return ((await res.json()) as { access_token: string }).access_token;
    if (res.status !== 503 || Date.now() > deadline) throw new Error(`bench token: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
}
