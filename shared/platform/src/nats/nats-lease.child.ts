/**
 * Child process of nats-lease.int.spec.ts: takes one lease and holds it (renewing) until killed,
 * so the test can SIGKILL a holder that had no chance to give it up.
 * Usage: tsx nats-lease.child.ts <nats url> <bucket> <ttl ms> <heartbeat ms> <lease name>
 * Prints `held` or `refused`.
 */
import { openNatsLeaseStore } from './nats-lease.ts';

const [servers, bucket, ttl, heartbeat, name] = process.argv.slice(2);
if (!servers || !bucket || !ttl || !heartbeat || !name)
  throw new Error('usage: nats-lease.child.ts <nats url> <bucket> <ttl ms> <heartbeat ms> <lease name>');

const store = await openNatsLeaseStore({
  servers,
  bucket,
  ttlMs: Number(ttl),
  heartbeatMs: Number(heartbeat),
  name: 'renopath-lease-child',
});
const lease = await store.tryAcquire(name);
process.stdout.write(lease ? 'held\n' : 'refused\n');
lease?.lost.addEventListener('abort', () => process.stdout.write('lost\n'));
// Keeps the process (and its renewals) alive until the parent kills it.
setInterval(() => undefined, 1000);
