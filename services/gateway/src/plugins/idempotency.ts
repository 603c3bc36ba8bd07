import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, onErrorAsyncHookHandler, preHandlerAsyncHookHandler, preSerializationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { openSqliteReadStore, type ReadStore } from '@renopath/platform';
import type { RouteDef } from '../routes/route.ts';
import { HttpError } from './errors.ts';

/**
 * `Idempotency-Key` on POST (docs/http-contract.md "Idempotency and read-your-writes"): per API client, the same key and request within 24 h
 * answer the first answer without doing the work twice; the same key with another request is 422;
 * the same key while the first is still running is 409.
 *
 * Two layers. These records (behind the read-store port, so gateway replicas sharing the store agree)
 * replay finished answers and tell a running request from an abandoned one. The write itself is made
 * once by the services: the gateway sends them `serviceKey` and the event store records it in the
 * same transaction as the events, so a retry whose first attempt died after the append (the record
 * still says IN_PROGRESS) re-runs the request, the service writes nothing twice and answers the
 * resource the first attempt made.
 */
const COLLECTION = 'idempotency_keys';
const WINDOW_MS = 24 * 3600_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

interface KeyRecord {
  fingerprint: string;
  state: 'IN_PROGRESS' | 'DONE';
  status: number | null;
  reply: unknown;
  started_at: number;
  /** Which claim holds the key: an abandoned request that ends late must not finish or free its successor's. */
  claim: string;
  /** The gateway instance running the request. */
  owner?: string;
  /** Until when the running request is known to be alive; its gateway renews it while it runs. */
  lease_until?: number;
}

/** `id` names the claim, not just the key: `complete` and `release` act only while that claim holds it. */
export type Claim = { kind: 'new'; id: string } | { kind: 'replay'; status: number; reply: unknown };

export interface IdempotencyOptions {
  /** A running request's lease: its gateway renews it every third of this; past it, the request was abandoned. */
  leaseMs?: number;
  /**
   * Only this gateway uses the store (embedded mode: the store is in its own data dir), so a claim
   * held by another instance belongs to a process that died: it is abandoned at once.
   */
  exclusive?: boolean;
  now?: () => number;
}

export class IdempotencyKeys {
  /** This gateway instance: a restarted process is another instance. */
  private readonly instance = randomUUID();
  /** Claims this instance is running, with their lease-renewal timers. */
  private readonly running = new Map<string, NodeJS.Timeout>();
  private readonly leaseMs: number;
  private readonly exclusive: boolean;
  private readonly now: () => number;

  constructor(
    private readonly store: ReadStore,
    options: IdempotencyOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.exclusive = options.exclusive ?? false;
    this.now = options.now ?? Date.now;
  }

  /** The header's key, or null when the request has none; a malformed key is a 400. */
  static keyOf(header: string | string[] | undefined): string | null {
    if (header === undefined) return null;
    if (typeof header !== 'string' || !KEY_RE.test(header)) {
      throw new HttpError(400, ['Idempotency-Key must be 1 to 255 visible ASCII characters']);
    }
    return header;
  }

  static fingerprint(parts: Array<string | Buffer | { sha256: Buffer }>): string {
    const hash = createHash('sha256');
    // A part given as its SHA-256 (a streamed upload, hashed as it passed) fingerprints as its bytes would.
    for (const part of parts)
      hash.update(typeof part === 'object' && 'sha256' in part ? part.sha256 : createHash('sha256').update(part).digest());
    return hash.digest('hex');
  }

  /**
   * The key the services write under: scoped by API client, and by the request, so a key reused for
   * another request once its record is gone (24 h) never answers the first request's resource.
   */
  static serviceKey(client_id: string, key: string, fingerprint: string): string {
    return `${client_id}:${fingerprint.slice(0, 16)}:${key}`;
  }

  /** Claims the key for this request, or answers how the earlier request with it went. */
  async claim(client_id: string, key: string, fingerprint: string): Promise<Claim> {
    const id = `${client_id}:${key}`;
    const now = this.now();
    const claimed = await this.store.transaction(async (tx): Promise<Claim> => {
      const existing = await tx.get<KeyRecord>(COLLECTION, id);
      const live = existing && now - existing.started_at < WINDOW_MS;
      if (live && existing.fingerprint !== fingerprint) {
        throw new HttpError(422, ['Idempotency-Key was already used with a different request']);
      }
      if (live && existing.state === 'DONE') return { kind: 'replay', status: existing.status!, reply: existing.reply };
      if (live && this.stillRunning(existing, id, now)) {
        throw new HttpError(409, ['a request with this Idempotency-Key is still in progress']);
      }
      const claim = randomUUID();
      await tx.put<KeyRecord>(COLLECTION, id, {
        fingerprint,
        state: 'IN_PROGRESS',
        status: null,
        reply: null,
        started_at: now,
        claim,
        owner: this.instance,
        lease_until: now + this.leaseMs,
      });
      return { kind: 'new', id: `${claim}/${id}` };
    });
    if (claimed.kind === 'new') this.hold(claimed.id);
    return claimed;
  }

  async complete(claimId: string, status: number, reply: unknown): Promise<void> {
    this.letGo(claimId);
    const [claim, id] = splitClaim(claimId);
    await this.store.transaction(async (tx) => {
      const record = await tx.get<KeyRecord>(COLLECTION, id);
      if (record?.claim === claim) await tx.put<KeyRecord>(COLLECTION, id, { ...record, state: 'DONE', status, reply: reply ?? null });
    });
  }

  /** A failed request leaves no trace: the client may retry with the same key. */
  async release(claimId: string): Promise<void> {
    this.letGo(claimId);
    const [claim, id] = splitClaim(claimId);
    await this.store.transaction(async (tx) => {
      if ((await tx.get<KeyRecord>(COLLECTION, id))?.claim === claim) await tx.delete(COLLECTION, id);
    });
  }

  /** Stops renewing leases (the gateway is closing); its running requests' keys fall free when the leases end. */
  close() {
    for (const timer of this.running.values()) clearInterval(timer);
    this.running.clear();
  }

  private stillRunning(record: KeyRecord, id: string, now: number): boolean {
    if (record.owner === this.instance) return this.running.has(`${record.claim}/${id}`);
    if (this.exclusive) return false;
    // Records written before leases existed: the old bound (a request older than a minute was abandoned).
    return now < (record.lease_until ?? record.started_at + 60_000);
  }

  private hold(claimId: string) {
    const timer = setInterval(() => void this.renew(claimId).catch(() => undefined), Math.max(1, Math.floor(this.leaseMs / 3)));
    timer.unref();
    this.running.set(claimId, timer);
  }

  private letGo(claimId: string) {
    clearInterval(this.running.get(claimId));
    this.running.delete(claimId);
  }

  private async renew(claimId: string) {
    const [claim, id] = splitClaim(claimId);
    await this.store.transaction(async (tx) => {
      const record = await tx.get<KeyRecord>(COLLECTION, id);
      if (record?.claim === claim && record.state === 'IN_PROGRESS')
        await tx.put<KeyRecord>(COLLECTION, id, { ...record, lease_until: this.now() + this.leaseMs });
    });
  }
}

function splitClaim(claimId: string): [claim: string, id: string] {
  const slash = claimId.indexOf('/');
  return [claimId.slice(0, slash), claimId.slice(slash + 1)];
}

declare module 'fastify' {
  interface FastifyInstance {
    idempotency: IdempotencyKeys;
  }
  interface FastifyRequest {
    /** A keyed POST's claim (null once completed or released) and the key its service is sent. */
    idempotency: { claim: string | null; serviceKey: string } | null;
  }
}

export interface IdempotencyPluginOptions {
  /** Where Idempotency-Key records live (docs/http-contract.md "Idempotency and read-your-writes"); in memory when not given. */
  store?: ReadStore;
  /** No other gateway uses `store` (embedded mode): a claim left by an earlier process is abandoned at once. */
  exclusive: boolean;
  now?: () => number;
}

/** Idempotency-Key records of keyed POSTs (docs/http-contract.md "Idempotency and read-your-writes"); the declared routes claim, complete or release them. */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyPluginOptions) => {
    const store = options.store ?? openSqliteReadStore({ file: ':memory:' });
    if (!options.store) app.addHook('onClose', async () => store.close());
    const keys = new IdempotencyKeys(store, { exclusive: options.exclusive, ...(options.now ? { now: options.now } : {}) });
    app.addHook('onClose', async () => keys.close());
    app.decorate('idempotency', keys);
    app.decorateRequest('idempotency', null);
  },
  { name: 'renopath-idempotency' },
);

/**
 * The hooks of a POST route: `claim` takes the request's Idempotency-Key and answers a repeat with
 * the first answer (the handler never runs); `complete` records the answer before it is written out;
 * `release` frees the key when the request fails, so a retry runs it again.
 */
export function idempotencyHooks(route: RouteDef, keys: IdempotencyKeys) {
  const claim: preHandlerAsyncHookHandler = async (request, reply) => {
    const key = request.actor ? IdempotencyKeys.keyOf(request.headers['idempotency-key']) : null;
    if (!key || !request.actor) return;
    // `/x` and `/v1/x` are one resource (docs/http-contract.md "General rules"): the route and its ids name the target.
    const target = `${route.method} ${route.path} ${JSON.stringify(request.params)}`;
    const { upload, streamed } = request;
    const body = route.body ? request.body : undefined;
    const fingerprint = IdempotencyKeys.fingerprint(
      upload
        ? [target, upload.name, upload.bytes]
        : streamed
          ? [target, streamed.name, { sha256: streamed.sha256 }]
          : [target, JSON.stringify(body ?? null)],
    );
    const claimed = await keys.claim(request.actor.client_id, key, fingerprint);
    if (claimed.kind === 'replay') return reply.code(claimed.status).send(claimed.reply);
    request.idempotency = { claim: claimed.id, serviceKey: IdempotencyKeys.serviceKey(request.actor.client_id, key, fingerprint) };
  };
  const complete: preSerializationAsyncHookHandler<unknown> = async (request, reply, payload) => {
    const held = request.idempotency?.claim;
    if (!held || reply.statusCode !== route.status) return payload;
    request.idempotency!.claim = null;
    await keys.complete(held, route.status, payload);
    return payload;
  };
  const release: onErrorAsyncHookHandler = async (request) => {
    const held = request.idempotency?.claim;
    if (!held) return;
    request.idempotency!.claim = null;
    await keys.release(held);
  };
  return { claim, complete, release };
}
