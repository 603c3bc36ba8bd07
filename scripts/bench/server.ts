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
