import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { JetStreamApiCodes, JetStreamApiError, jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { assertLeaseName, HeldLease, type Lease, type LeaseStore } from '../ports/lease.ts';

export interface NatsLeaseStoreOptions {
  /** The NATS server(s); not needed with `connection`. */
  servers?: string | string[];
  /** The JetStream key-value bucket holding the leases, one key each (default `renopath_leases`; see `natsLeaseBucket`). */
  bucket?: string;
  /**
   * How long a key outlives its holder's last renewal (ms, at least 500): the bucket's max age, so
   * a replica takes over from a holder that died within about this long. Every process sharing the
   * bucket must use the same value; opening a bucket made with another one fails.
   */
  ttlMs: number;
  /** How often a holder renews its key (ms; default a fifth of `ttlMs`, at most 2/5 of it). */
  heartbeatMs?: number;
  /** Connection name, shown by the NATS server's monitoring. */
  name?: string;
  /** A connection to use instead of opening one; the store leaves it open on `close`. */
  connection?: NatsConnection;
}

/** The bucket when the bus has no subject prefix. */
export const DEFAULT_LEASE_BUCKET = 'renopath_leases';

/**
 * The lease bucket of a bus namespace (RENOPATH_NATS_PREFIX). Deployments that share a NATS
 * server must use different prefixes anyway: two event streams capturing the same subjects are
 * refused by the server. So the prefix alone keeps their leases apart.
 */
export function natsLeaseBucket(prefix: string): string {
  return prefix ? `${DEFAULT_LEASE_BUCKET}_${prefix}` : DEFAULT_LEASE_BUCKET;
}

/**
 * KV keys allow `[-/_=.a-zA-Z0-9]` only, and `.` splits tokens: a lease name (any visible ASCII)
 * becomes its base64url form, which is injective and never holds a `.`.
 */
export function natsLeaseKey(name: string): string {
  return Buffer.from(assertLeaseName(name), 'utf8').toString('base64url');
}

/** The server refused a write guarded by a revision: the key is at another one (or exists already, for `create`). */
const isWrongLastSequence = (error: unknown) =>
  error instanceof JetStreamApiError &&
  (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);

interface Holding {
  key: string;
  holder: string;
  value: Uint8Array;
}

/**
 * One holding of a lease. Its key lives `ttlMs` after the server stores each write, so it lasts at
 * least `ttlMs` after the write was *sent*; the holder trusts it only for `windowMs` (< ttlMs) after
 * the send of its last confirmed write. Both spans are durations measured by one clock each (the
 * holder's monotonic clock, the server's for the key's age): no clocks are compared. The gap
 * (`ttlMs - windowMs`) absorbs clock rate drift and a late timer; a server whose wall clock jumps
 * forward ages keys early, which no margin covers.
 */
class NatsLease extends HeldLease {
  private revision: number;
  private deadline: number;
  private renewing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private expiry: NodeJS.Timeout | null = null;
  /** False once the key is known not to be ours (a failed CAS): nothing left to delete. */
  private keyMayBeOurs = true;
  private finishing: Promise<void> | null = null;

  constructor(
    name: string,
    private readonly kv: KV,
    private readonly holding: Holding,
    revision: number,
    sentAt: number,
    private readonly windowMs: number,
    private readonly heartbeatMs: number,
    private readonly onEnd: (lease: NatsLease) => void,
  ) {
    super(name, () => this.finish());
    this.revision = revision;
    this.deadline = sentAt + windowMs;
    this.armExpiry();
    this.schedule(heartbeatMs);
  }

  /** Checked on every read, not only by the timer: a stalled event loop must not outlive the window. */
  override get held(): boolean {
    this.checkDeadline();
    return super.held;
  }

  override get lost(): AbortSignal {
    this.checkDeadline();
    return super.lost;
  }

  /** Gone without a release: tells the holder now, then gives the key up if it may still be ours. */
  lose(reason: string, keyMayBeOurs = this.keyMayBeOurs): void {
    if (!super.held) return;
    this.keyMayBeOurs = keyMayBeOurs;
    this.markLost(reason);
    void this.finish();
  }

  private checkDeadline(): void {
    if (super.held && performance.now() >= this.deadline) this.lose(`not renewed within ${this.windowMs} ms`);
  }

  private armExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = setTimeout(() => this.checkDeadline(), Math.max(0, this.deadline - performance.now()));
    this.expiry.unref();
  }

  private schedule(delayMs: number): void {
    if (!super.held) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const started = performance.now();
      this.renewing = this.renew().finally(() => {
        this.renewing = null;
        // One renewal at a time; the next one a heartbeat after this one started, or at once if it took longer.
        this.schedule(Math.max(0, this.heartbeatMs - (performance.now() - started)));
      });
    }, delayMs);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    const sentAt = performance.now();
    try {
      this.revision = await this.kv.update(this.holding.key, this.holding.value, this.revision);
    } catch (error) {
      if (isWrongLastSequence(error)) await this.reconcile();
      // Anything else (a timeout, a reconnect under way) is retried until the window closes.
      return;
    }
    if (!super.held) return;
    this.deadline = Math.max(this.deadline, sentAt + this.windowMs);
    this.armExpiry();
  }

  /**
   * The key moved on without us knowing: a renewal we gave up on (timed out here) may have landed
   * after all, which leaves our own holder id at a newer revision. Then we keep it (with the window
   * of the last confirmed renewal: that write's send time is unknown); else someone else holds it,
   * or it expired.
   */
  private async reconcile(): Promise<void> {
    try {
      const entry = await this.kv.get(this.holding.key);
      if (entry?.operation === 'PUT' && entry.string() === new TextDecoder().decode(this.holding.value)) {
        this.revision = entry.revision;
        return;
      }
    } catch {
      // Unknown: the next renewal tries again, the window still applies.
      return;
    }
    this.lose('the key was taken over or expired', false);
  }

  /** Stops renewing and, when the key may still be ours, deletes it guarded by its revision. */
  private finish(): Promise<void> {
    this.finishing ??= (async () => {
      if (this.timer) clearTimeout(this.timer);
      if (this.expiry) clearTimeout(this.expiry);
      this.timer = this.expiry = null;
      await this.renewing;
      this.onEnd(this);
      if (!this.keyMayBeOurs) return;
      // Guarded: a key someone else took meanwhile has another revision and stays. A failure leaves it to expire.
      await this.kv.delete(this.holding.key, { previousSeq: this.revision }).catch(() => undefined);
    })();
    return this.finishing;
  }
}

/**
 * Leases as keys of a JetStream key-value bucket whose max age is the TTL: taking one is
 * `create` (refused while the key exists), holding it is a compare-and-set `update` every heartbeat,
 * giving it up is a delete guarded by the last revision. A holder that dies stops renewing, and the
 * server ages its key out after the TTL. A holder that cannot renew in time, or finds its key taken,
 * is told through `lost` before anyone else can take it (see NatsLease).
 */
export class NatsLeaseStore implements LeaseStore {
  private readonly leases = new Map<string, NatsLease>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly ownsConnection: boolean,
    private readonly kv: KV,
    private readonly ttlMs: number,
    private readonly windowMs: number,
    private readonly heartbeatMs: number,
    private readonly clientName: string,
  ) {
    // A closed connection cannot renew: every lease is lost at once, not at the end of its window.
    void nc.closed().then(() => {
      for (const lease of this.leases.values()) lease.lose('connection closed');
    });
  }

  static async open(options: NatsLeaseStoreOptions): Promise<NatsLeaseStore> {
    const { ttlMs } = options;
    if (!Number.isInteger(ttlMs) || ttlMs < 500) throw new TypeError(`invalid lease TTL ${ttlMs} ms: an integer, at least 500`);
    // The holder's own deadline: a fifth of the TTL short of the server's.
    const windowMs = ttlMs - Math.ceil(ttlMs / 5);
    const heartbeatMs = options.heartbeatMs ?? Math.floor(ttlMs / 5);
    if (!Number.isFinite(heartbeatMs) || heartbeatMs < 10 || heartbeatMs > windowMs / 2) {
      throw new TypeError(
        `invalid lease heartbeat ${heartbeatMs} ms: from 10 to ${Math.floor(windowMs / 2)} (two tries within the holder's ${windowMs} ms window of a ${ttlMs} ms TTL)`,
      );
    }
    const bucket = options.bucket ?? DEFAULT_LEASE_BUCKET;
    if (!/^[-\w]+$/.test(bucket)) throw new TypeError(`invalid lease bucket ${JSON.stringify(bucket)}: letters, digits, - and _ only`);
    const clientName = options.name ?? 'renopath-lease';
    if (!options.connection && !options.servers) throw new TypeError('a NATS lease store needs servers (nats://host:port) or a connection');
    const nc =
      options.connection ??
      // Reconnects for ever: a replica cut off for a while competes again once it is back.
      (await connect({ servers: options.servers, name: clientName, maxReconnectAttempts: -1 }));
    try {
      // A write that is not answered within half the window is retried, so one lost reply does not lose the lease.
      const js = jetstream(nc, { timeout: Math.max(100, Math.floor(windowMs / 2)) });
      const kv = await new Kvm(js).create(bucket, { ttl: ttlMs, history: 1 });
      const actual = (await kv.status()).ttl;
      if (actual !== ttlMs) {
        throw new Error(
          `lease bucket ${bucket} keeps keys ${actual} ms, this process expects ${ttlMs} ms (RENOPATH_LEASE_TTL_MS): every replica must use the same TTL; ` +
            `to change it, stop them all and delete the bucket (nats kv del ${bucket})`,
        );
      }
      return new NatsLeaseStore(nc, !options.connection, kv, ttlMs, windowMs, heartbeatMs, clientName);
    } catch (error) {
      if (!options.connection) await nc.close().catch(() => undefined);
      throw error;
    }
  }

  async tryAcquire(name: string): Promise<Lease | null> {
    const key = natsLeaseKey(name);
    if (this.closed) throw new Error('lease store is closed');
    if (this.leases.get(name)?.held) return null;
    const holder = randomUUID();
    // The readable name and the holder, for an operator looking at the bucket (`nats kv get`).
    const holding: Holding = {
      key,
      holder,
      value: new TextEncoder().encode(JSON.stringify({ lease: name, holder, client: this.clientName })),
    };
    const sentAt = performance.now();
    let revision: number;
    try {
      revision = await this.kv.create(key, holding.value);
    } catch (error) {
      if (isWrongLastSequence(error)) return null;
      // No answer does not mean no write: the create may have landed, and then the key is ours.
      const entry = await this.kv.get(key).catch(() => null);
      if (entry?.operation !== 'PUT' || entry.string() !== new TextDecoder().decode(holding.value)) throw error;
      revision = entry.revision;
    }
    const lease = new NatsLease(name, this.kv, holding, revision, sentAt, this.windowMs, this.heartbeatMs, (ended) => {
      if (this.leases.get(name) === ended) this.leases.delete(name);
    });
    if (this.closed || this.leases.get(name)?.held || !lease.held) {
      // Closed meanwhile, taken twice by this store at once, or answered too late to trust: give it back.
      lease.lose('not handed out', true);
      return null;
    }
    this.leases.set(name, lease);
    return lease;
  }

  /** The bucket's TTL (ms). */
  get ttl(): number {
    return this.ttlMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.leases.values()].map((lease) => lease.release()));
    if (this.ownsConnection && !this.nc.isClosed()) await this.nc.close().catch(() => undefined);
  }
}

export function openNatsLeaseStore(options: NatsLeaseStoreOptions): Promise<NatsLeaseStore> {
  return NatsLeaseStore.open(options);
}
