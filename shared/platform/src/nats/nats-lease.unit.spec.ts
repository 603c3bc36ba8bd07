import { describe, expect, it } from 'vitest';
import { rejection } from '../testing/contract-helpers.ts';
import { natsLeaseBucket, natsLeaseKey, openNatsLeaseStore } from './nats-lease.ts';

describe('NATS lease names', () => {
  it('turns any lease name into a valid KV key, and different names into different keys', () => {
    const names = ['renopath_estates:background', 'a.b', 'a_b', 'a..b', '.x.', '*', '>', '$KV.x', '~!"#'];
    const keys = names.map(natsLeaseKey);
    for (const key of keys) expect(key).toMatch(/^[-_=a-zA-Z0-9]+$/);
    expect(new Set(keys).size).toBe(names.length);
  });

  it('refuses a malformed lease name', () => {
    expect(() => natsLeaseKey('')).toThrow(/invalid lease name/);
    expect(() => natsLeaseKey('has space')).toThrow(/invalid lease name/);
  });

  it('keeps the leases of bus namespaces in buckets apart', () => {
    expect(natsLeaseBucket('')).toBe('renopath_leases');
    expect(natsLeaseBucket('staging')).toBe('renopath_leases_staging');
    expect(natsLeaseBucket('a-b')).not.toBe(natsLeaseBucket('a_b'));
  });
});

describe('openNatsLeaseStore options', () => {
  // Checked before connecting: no server is needed to refuse them.
  it('refuses a TTL too short to renew within, and a heartbeat that does not fit twice in the holder window', async () => {
    expect(String(await rejection(openNatsLeaseStore({ servers: 'nats://127.0.0.1:1', ttlMs: 100 })))).toMatch(/invalid lease TTL 100 ms/);
    expect(String(await rejection(openNatsLeaseStore({ servers: 'nats://127.0.0.1:1', ttlMs: 1000, heartbeatMs: 500 })))).toMatch(
      /invalid lease heartbeat 500 ms: from 10 to 400/,
    );
    expect(String(await rejection(openNatsLeaseStore({ servers: 'nats://127.0.0.1:1', ttlMs: 1000, bucket: 'a.b' })))).toMatch(
      /invalid lease bucket/,
    );
  });
});
