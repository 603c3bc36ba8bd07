import { sleep } from '@renopath/platform/internal/async.ts';
import type { CalculationsKit } from '../kit/calculations-kit.ts';

/** Expiry is days away: looked for once a minute, not on every sweep. */
const EXPIRY_EVERY_MS = 60_000;

/** The sweep: runnable jobs after a restart, leases that ran out, jobs past their expiry (deactivated). */
export function startSweep(kit: CalculationsKit) {
  const { queue, projection, config, log, now, decide, systemContext } = kit;
  const sweeping = new AbortController();
  const loop = (async () => {
    let lastExpiry = 0;
    while (!sweeping.signal.aborted) {
      try {
        await projection.waitFor(0n, config.settleTimeoutMs).catch(() => undefined);
        await queue.sweep(now());
        if (Date.now() - lastExpiry >= EXPIRY_EVERY_MS) {
          lastExpiry = Date.now();
          for (const doc of await queue.expired(now())) {
            await decide(
              doc.id,
              { type: 'DeactivateJob', now: now().toISOString() },
              systemContext({ correlation_id: `expiry-${doc.id}` }),
            );
          }
        }
      } catch (err) {
        log.warn({ err }, 'job sweep failed; trying again');
      }
      await sleep(config.sweepMs, sweeping.signal);
    }
  })();
  return {
    async close() {
      sweeping.abort();
      await loop;
    },
  };
}
