import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
export async function startBenchServer(env: Record<string, string> = {}): Promise<{ server: ChildProcess; ready: Ready }> {
  const server = fork(fileURLToPath(new URL('./gateway-server.ts', import.meta.url)), {
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
