import type { Logger } from 'pino';
import { backoff, sleep } from '../internal/async.ts';

/**
 * Processes start in no set order and restart on their own: what a service needs at start (the
 * bus, a peer) may not be there yet. It waits with backoff and never exits for it; a process
 * that is stopped meanwhile (`stop`) gives up.
 */
export async function untilAvailable<T>(
  what: string,
  attempt: () => Promise<T>,
  log: Logger,
  options: { initialDelayMs?: number; maxDelayMs?: number; stop?: AbortSignal } = {},
): Promise<T> {
  const { initialDelayMs = 200, maxDelayMs = 5_000, stop } = options;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (stop?.aborted) throw err;
      log.warn({ err: err instanceof Error ? err.message : String(err), tries: tries + 1 }, `${what} is not available yet; retrying`);
      await sleep(backoff(tries, initialDelayMs, maxDelayMs), stop);
    }
  }
}

/**
 * Runs a process's configuration check; a refusal is one line on stderr (`<process>: invalid
 * configuration: VARIABLE: what it accepts`) and exit code 1, not an uncaught stack trace. Call it
 * before importing the code that opens stores and the bus, so the answer comes within a second.
 */
export function checkedOrExit<T>(name: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(1);
  }
}
