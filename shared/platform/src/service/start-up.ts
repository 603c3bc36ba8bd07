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

/**
 * The last line of defence of a service process: once it serves (`started()`), an error no task
 * caught (a rejected promise nobody awaited, a throw in a timer or an event listener) is logged and the
 * process carries on, instead of Node's default exit. Every background loop (relay, projections,
 * process managers, leases, consumers) retries on its own with backoff, so what failed once runs
 * again; a process that exited would stay down until a supervisor or a person restarted it, taking
 * its context's requests with it. Before `started()`, such an error is the start failing (a store
 * that refuses, a bad setting): it is logged and the process exits, for its supervisor to start it
 * again, rather than running on with nothing served.
 */
export function keepRunningOnUncaughtErrors(log: Pick<Logger, 'error' | 'fatal'>): { started(): void } {
  let serving = false;
  const failed = (err: unknown, what: string) => {
    if (serving) {
      log.error({ err }, `${what}; the process carries on`);
      return;
    }
    log.fatal({ err }, `${what} while starting; exiting`);
    process.exit(1);
  };
  process.on('unhandledRejection', (reason) => failed(reason, 'unhandled rejection in a background task'));
  process.on('uncaughtException', (err) => failed(err, 'uncaught exception'));
  return {
    started() {
      serving = true;
    },
  };
}
