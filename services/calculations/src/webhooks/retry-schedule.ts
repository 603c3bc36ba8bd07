/** Delays between webhook attempts (docs/webhooks.md, 7): `0,5s,5m,30m,2h,5h,10h`. */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const ITEM = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h';

/**
 * One delay per attempt: the first is the wait before the first attempt, each next one the wait after
 * a failed attempt. A bare number is accepted only as 0 (a unitless 5 could mean seconds or ms).
 */
export function parseRetrySchedule(text: string): number[] {
  const fail = (why: string) =>
    new Error(
      `RENOPATH_WEBHOOK_RETRY_SCHEDULE ${JSON.stringify(text)} is not valid: ${why} (expected comma-separated delays such as ${DEFAULT_RETRY_SCHEDULE}; units ms, s, m, h)`,
    );
  const items = text.split(',').map((s) => s.trim());
  if (items.length === 0 || items.every((s) => s === '')) throw fail('it is empty');
  return items.map((item) => {
    const m = ITEM.exec(item);
    if (!m) throw fail(`${JSON.stringify(item)} is not a delay`);
    const value = Number(m[1]);
    const unit = m[2] as keyof typeof UNIT_MS | undefined;
    if (unit === undefined && value !== 0) throw fail(`${JSON.stringify(item)} needs a unit`);
    const ms = Math.round(value * (unit ? UNIT_MS[unit] : 0));
    // setTimeout cannot wait longer than 2^31-1 ms (~24.8 days); a longer wait would fire at once.
    if (ms > 2 ** 31 - 1) throw fail(`${JSON.stringify(item)} is longer than 24 days`);
    return ms;
  });
}
