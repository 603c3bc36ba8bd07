import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteReadStore, type SqliteReadStore } from '@renopath/platform';
import { HttpError } from './errors.ts';
import { IdempotencyKeys } from './idempotency.ts';

let store: SqliteReadStore;
let now = 0;
let keys: IdempotencyKeys;

beforeEach(() => {
  store = openSqliteReadStore({ file: ':memory:' });
  now = Date.UTC(2025, 5, 1);
  keys = new IdempotencyKeys(store, { leaseMs: 30_000, now: () => now });
});
afterEach(async () => {
  keys.close();
  await store.close();
});

/** Another gateway replica on the same store. */
const replica = (options: { exclusive?: boolean } = {}) => new IdempotencyKeys(store, { leaseMs: 30_000, now: () => now, ...options });

const status = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as HttpError).statusCode;
  }
};

describe('Idempotency-Key records (docs/http-contract.md "Idempotency and read-your-writes")', () => {
  it('replays a finished request, refuses another request under the same key (422) and a running one (409)', async () => {
    const first = await keys.claim('client-a', 'k1', 'fp1');
    expect(first.kind).toBe('new');
    expect(await status(keys.claim('client-a', 'k1', 'fp1'))).toBe(409);
    expect(await status(keys.claim('client-a', 'k1', 'fp2'))).toBe(422);
    await keys.complete((first as { id: string }).id, 201, { id: 'x' });
    expect(await keys.claim('client-a', 'k1', 'fp1')).toEqual({ kind: 'replay', status: 201, reply: { id: 'x' } });
    // keys belong to one API client
    expect((await keys.claim('client-b', 'k1', 'fp2')).kind).toBe('new');
  });

  it('forgets a key after 24 hours and a failed request at once', async () => {
    const first = (await keys.claim('c', 'k', 'fp')) as { id: string };
    await keys.complete(first.id, 201, {});
    now += 24 * 3600_000;
    expect((await keys.claim('c', 'k', 'other')).kind).toBe('new');
    const failed = (await keys.claim('c', 'k2', 'fp')) as { id: string };
    await keys.release(failed.id);
    expect((await keys.claim('c', 'k2', 'fp')).kind).toBe('new');
  });

  it('answers 409 while the request really runs (here, or on a replica within its lease), and lets a dead one be re-run', async () => {
    const running = (await keys.claim('c', 'k', 'fp')) as { id: string };
    // However long it takes, this gateway knows the request still runs.
    now += 3600_000;
    expect(await status(keys.claim('c', 'k', 'fp'))).toBe(409);
    const other = replica();
    const held = (await other.claim('c', 'k3', 'fp')) as { id: string };
    expect(held.id).toBeTruthy();
    expect(await status(keys.claim('c', 'k3', 'fp'))).toBe(409);
    // The replica stopped renewing its lease (it died): the key may be used again.
    other.close();
    now += 30_001;
    expect((await keys.claim('c', 'k3', 'fp')).kind).toBe('new');
    await keys.complete(running.id, 201, {});
  });

  it('in embedded mode, re-runs at once a request a previous process left unfinished', async () => {
    const dead = replica();
    await dead.claim('c', 'k', 'fp');
    dead.close();
    const restarted = replica({ exclusive: true });
    expect((await restarted.claim('c', 'k', 'fp')).kind).toBe('new');
    restarted.close();
  });

  it('lets a request that outlived its lease neither finish nor free the key its successor now holds', async () => {
    const dead = replica();
    const late = (await dead.claim('c', 'k', 'fp')) as { id: string };
    dead.close();
    now += 30_001;
    const successor = (await keys.claim('c', 'k', 'fp')) as { id: string };
    expect(successor.id).not.toBe(late.id);
    await dead.release(late.id);
    expect(await status(keys.claim('c', 'k', 'fp'))).toBe(409);
    await dead.complete(late.id, 500, { stale: true });
    expect(await status(keys.claim('c', 'k', 'fp'))).toBe(409);
    await keys.complete(successor.id, 201, { id: 'y' });
    expect(await keys.claim('c', 'k', 'fp')).toEqual({ kind: 'replay', status: 201, reply: { id: 'y' } });
  });

  it('accepts visible ASCII keys up to 255 characters', () => {
    expect(IdempotencyKeys.keyOf(undefined)).toBeNull();
    expect(IdempotencyKeys.keyOf('crm-7f3a:order/12')).toBe('crm-7f3a:order/12');
    expect(() => IdempotencyKeys.keyOf('with space')).toThrow(HttpError);
    expect(() => IdempotencyKeys.keyOf('x'.repeat(256))).toThrow(HttpError);
  });
});
